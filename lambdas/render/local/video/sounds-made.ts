/** Man-made layers of the video soundtrack: background music, engines and traffic, crowds, bells. */
import { Biquad, SAMPLE_RATE, addMono, midiToHz, type Stereo } from '../dsp.js';
import { between, intBetween, type Rng } from '../seed.js';
import { kick, padNote, bassNote } from '../music/instruments.js';
import { triad, fitRange } from '../music/theory.js';
import type { LayerContext } from './sounds-nature.js';

const SR = SAMPLE_RATE;

export function music(bus: Stereo, r: Rng, { frames }: LayerContext): void {
  const bar = (4 * 60) / intBetween(r, 90, 120);
  const tonic = 48 + intBetween(r, 0, 11);
  const progression = [0, 5, 3, 4];
  const beat = kick();
  for (let b = 0; b * bar < frames / SR; b++) {
    const start = Math.round(b * bar * SR);
    const chord = triad(tonic, false, progression[b % 4]);
    chord.forEach((n, i) => addMono(bus, padNote(fitRange(n, 55, 67), bar + 0.2), start, 0.08, i - 1));
    addMono(bus, bassNote(fitRange(chord[0], 36, 47), bar * 0.9), start, 0.2);
    for (let k = 0; k < 4; k++) addMono(bus, beat, start + Math.round((k * bar * SR) / 4), 0.25);
  }
}

export function traffic(bus: Stereo, r: Rng, { frames }: LayerContext): void {
  // A steady idling engine: a low saw with wandering pitch, filtered to a rumble.
  const engine = new Float32Array(frames);
  const lp = new Biquad('lowpass', 350, 0.9);
  const base = between(r, 38, 55);
  let phase = 0;
  for (let i = 0; i < frames; i++) {
    phase += (base * (1 + 0.04 * Math.sin((2 * Math.PI * 0.7 * i) / SR))) / SR;
    if (phase >= 1) phase -= 1;
    engine[i] = lp.process(2 * phase - 1);
  }
  addMono(bus, engine, 0, 0.12);
  // Passing cars: a noise swell that pans across while it peaks.
  for (let t = between(r, 0, 1.5); t < frames / SR; t += between(r, 1.8, 3.2)) {
    const pass = new Float32Array(Math.round(2.2 * SR));
    const bp = new Biquad('bandpass', between(r, 350, 700), 0.8);
    for (let i = 0; i < pass.length; i++) pass[i] = bp.process(r() * 2 - 1) * Math.sin((Math.PI * i) / pass.length) ** 4;
    const half = Math.round(pass.length / 2);
    const dir = r() < 0.5 ? -1 : 1;
    addMono(bus, pass.subarray(0, half), Math.round(t * SR), 0.35, -0.6 * dir);
    addMono(bus, pass.subarray(half), Math.round(t * SR) + half, 0.35, 0.6 * dir);
  }
}

const BABBLE_VOWELS = [[730, 1090], [530, 1840], [270, 2290], [570, 840], [300, 870]];

export function crowd(bus: Stereo, r: Rng, { frames }: LayerContext): void {
  // Several unintelligible talkers: buzzy sources through vowel formants that change every syllable.
  for (let v = 0; v < 6; v++) {
    const voice = new Float32Array(frames);
    const f0 = between(r, 95, 240);
    const f1 = new Biquad('bandpass', 500, 5);
    const f2 = new Biquad('bandpass', 1500, 8);
    let phase = 0;
    let next = 0;
    let on = true;
    for (let i = 0; i < frames; i++) {
      if (i >= next) {
        const [a, b] = BABBLE_VOWELS[Math.floor(r() * BABBLE_VOWELS.length)];
        f1.tune(a, 5);
        f2.tune(b, 8);
        on = r() < 0.75;
        next = i + Math.round(between(r, 0.12, 0.3) * SR);
      }
      phase += (f0 * (1 + 0.05 * Math.sin(i / 3000))) / SR;
      if (phase >= 1) phase -= 1;
      const src = on ? 2 * phase - 1 : 0;
      voice[i] = f1.process(src) + 0.6 * f2.process(src);
    }
    addMono(bus, voice, 0, 0.12, between(r, -0.8, 0.8));
  }
}

export function bells(bus: Stereo, r: Rng, { frames }: LayerContext): void {
  const tonic = 60 + intBetween(r, 0, 11);
  for (let t = between(r, 0.2, 1); t < frames / SR - 0.5; t += between(r, 1.5, 2.5)) {
    const f = midiToHz(tonic + [0, 4, 7, 12][intBetween(r, 0, 3)]);
    const strike = new Float32Array(Math.round(2.5 * SR));
    // Inharmonic partials are what make a struck bell sound like metal rather than an organ.
    for (let i = 0; i < strike.length; i++) {
      const s = i / SR;
      strike[i] = Math.sin(2 * Math.PI * f * s) * Math.exp(-s * 1.2) + 0.5 * Math.sin(2 * Math.PI * f * 2.76 * s) * Math.exp(-s * 2.5) + 0.25 * Math.sin(2 * Math.PI * f * 5.4 * s) * Math.exp(-s * 4);
    }
    addMono(bus, strike, Math.round(t * SR), 0.15, between(r, -0.5, 0.5));
  }
}
