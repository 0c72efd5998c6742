/**
 * The singer: a melody written over the chords, then a source-filter voice (a saw "glottal" source with
 * vibrato through three formant resonators per vowel) with noise bursts for fricative and plosive onsets.
 * Register follows vocal_gender: A2–A3 for m, C4–C5 for f; formants are shifted up for the female voice.
 */
import { Biquad, SAMPLE_RATE, midiToHz } from '../dsp.js';
import { pick, rng, type Rng } from '../seed.js';
import type { Syllable, Vowel } from './lyrics.js';
import { SYLLABLES_PER_BAR, type SongPlan } from './plan.js';
import { chordOfBar } from './arrange.js';
import { degreeToMidi } from './theory.js';

const SR = SAMPLE_RATE;

export const VOICE_RANGE = { m: [45, 57], f: [60, 72] } as const;

/** F1–F3 in Hz of an adult male voice (Peterson & Barney averages). */
const FORMANTS: Record<Vowel, [number, number, number]> = {
  a: [730, 1090, 2440],
  e: [530, 1840, 2480],
  i: [270, 2290, 3010],
  o: [570, 840, 2410],
  u: [300, 870, 2240],
};
const FORMANT_GAIN = [1, 0.55, 0.3];
const FORMANT_BANDWIDTH = [80, 100, 130];

export interface VoiceNote {
  start: number;
  seconds: number;
  midi: number;
  syllable: Syllable;
}

/** Nearest scale degree whose note is a tone of the given chord. */
function snapToChord(plan: SongPlan, degree: number, chord: number[]): number {
  for (const delta of [0, -1, 1, -2, 2]) {
    const pc = ((degreeToMidi(plan.tonic, plan.minor, degree + delta) % 12) + 12) % 12;
    if (chord.some((n) => n % 12 === pc)) return degree + delta;
  }
  return degree;
}

export function writeMelody(plan: SongPlan, gender: 'm' | 'f'): VoiceNote[] {
  const r: Rng = rng(plan.seed ^ 0x7011ce);
  const [lo, hi] = VOICE_RANGE[gender];
  const slot = plan.barSeconds / SYLLABLES_PER_BAR;
  // Degree 0 sits in octave 3; shift so the melody starts mid-register for this voice.
  const base = gender === 'm' ? -4 : 7;
  const notes: VoiceNote[] = [];
  for (const phrase of plan.voice?.phrases ?? []) {
    let degree = base + pick(r, [0, 2, 4]);
    phrase.syllables.forEach((syllable, i) => {
      const bar = phrase.startBar + Math.floor(i / SYLLABLES_PER_BAR);
      degree += pick(r, [-2, -1, -1, 0, 1, 1, 2]);
      if (i % 4 === 0 || i === phrase.syllables.length - 1) degree = snapToChord(plan, degree, chordOfBar(plan, bar));
      let midi = degreeToMidi(plan.tonic, plan.minor, degree);
      // Reflect off the register edges instead of jumping octaves, which would sound like a different singer.
      while (midi < lo) midi = degreeToMidi(plan.tonic, plan.minor, (degree += 2));
      while (midi > hi) midi = degreeToMidi(plan.tonic, plan.minor, (degree -= 2));
      const last = i === phrase.syllables.length - 1;
      notes.push({
        start: phrase.startBar * plan.barSeconds + i * slot,
        seconds: slot * (last ? 2.2 : 0.92),
        midi,
        syllable,
      });
    });
  }
  return notes;
}

/** Renders the sung notes into a mono track of `frames` samples, levelled to a fixed loudness. */
export function sing(notes: VoiceNote[], gender: 'm' | 'f', frames: number, seed: number): Float32Array {
  const out = new Float32Array(frames);
  const r = rng(seed ^ 0xb4ea7);
  const shift = gender === 'f' ? 1.17 : 1;
  let previous = notes[0]?.midi ?? 60;
  for (const note of notes) {
    renderNote(out, note, previous, shift, r);
    previous = note.midi;
  }
  level(out, 0.13);
  echo(out, 0.33, 0.25, 0.22);
  return out;
}

function renderNote(out: Float32Array, note: VoiceNote, fromMidi: number, shift: number, r: Rng): void {
  const start = Math.round(note.start * SR);
  const length = Math.round(note.seconds * SR);
  const formants = FORMANTS[note.syllable.vowel].map((f, k) => new Biquad('bandpass', f * shift, (f * shift) / FORMANT_BANDWIDTH[k]));
  const warmth = new Biquad('lowpass', 3500, 0.7);
  const hiss = new Biquad('highpass', 4000, 0.7);
  const glide = 0.04 * SR;
  const attack = note.syllable.onset === 'voiced' ? 0.05 * SR : 0.015 * SR;
  const release = 0.06 * SR;
  let phase = 0;
  for (let i = 0; i < length && start + i < out.length; i++) {
    const t = i / SR;
    const midi = i < glide ? fromMidi + (note.midi - fromMidi) * (i / glide) : note.midi;
    const vibrato = t > 0.12 ? 0.3 * Math.sin(2 * Math.PI * 5.5 * t) * Math.min(1, (t - 0.12) * 4) : 0;
    phase += midiToHz(midi + vibrato) / SR;
    if (phase >= 1) phase -= 1;
    const source = warmth.process(2 * phase - 1 + 0.04 * (r() * 2 - 1));
    let voiced = 0;
    for (let k = 0; k < 3; k++) voiced += FORMANT_GAIN[k] * formants[k].process(source);
    const env = Math.min(1, i / attack, (length - i) / release);
    out[start + i] += voiced * env;
  }
  // Consonants: a hiss just before a fricative vowel, a short broadband burst on a plosive.
  const burst = note.syllable.onset === 'fricative' ? 0.05 : note.syllable.onset === 'plosive' ? 0.012 : 0;
  const burstLength = Math.round(burst * SR);
  for (let i = 0; i < burstLength; i++) {
    const at = start - burstLength + i + (note.syllable.onset === 'plosive' ? burstLength : 0);
    if (at < 0 || at >= out.length) continue;
    const n = r() * 2 - 1;
    out[at] += (note.syllable.onset === 'fricative' ? 0.5 * hiss.process(n) : 0.35 * n) * Math.sin((Math.PI * i) / burstLength);
  }
}

/** Scales sung (non-silent) regions to a target RMS so loudness does not depend on vowel or register. */
function level(track: Float32Array, targetRms: number): void {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < track.length; i++) {
    if (track[i] !== 0) {
      sum += track[i] * track[i];
      count++;
    }
  }
  if (count === 0) return;
  const gain = targetRms / Math.sqrt(sum / count);
  for (let i = 0; i < track.length; i++) track[i] *= gain;
}

/** A feedback delay: a little space around the voice. */
function echo(track: Float32Array, delaySeconds: number, feedback: number, wet: number): void {
  const d = Math.round(delaySeconds * SR);
  const tail = new Float32Array(track.length);
  for (let i = d; i < track.length; i++) tail[i] = track[i - d] + feedback * tail[i - d];
  for (let i = 0; i < track.length; i++) track[i] += wet * tail[i];
}
