/**
 * The backing band as tiny synthesis recipes. One-shot drums are rendered once and re-used at every hit;
 * pitched parts are rendered per note. All noise comes from the seeded PRNG so renders stay deterministic.
 */
import { Biquad, SAMPLE_RATE, midiToHz } from '../dsp.js';
import type { Rng } from '../seed.js';

const SR = SAMPLE_RATE;

export function kick(): Float32Array {
  const out = new Float32Array(Math.round(0.35 * SR));
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / SR;
    // Falling pitch is what makes a sine read as a kick drum rather than a tone.
    phase += (2 * Math.PI * (48 + 110 * Math.exp(-t * 35))) / SR;
    out[i] = Math.sin(phase) * Math.exp(-t * 9) + (i < 40 ? 0.3 * (1 - i / 40) : 0);
  }
  return out;
}

export function snare(r: Rng): Float32Array {
  const out = new Float32Array(Math.round(0.22 * SR));
  const hp = new Biquad('highpass', 1200, 0.7);
  for (let i = 0; i < out.length; i++) {
    const t = i / SR;
    const noise = hp.process(r() * 2 - 1) * Math.exp(-t * 20);
    out[i] = 0.7 * noise + 0.4 * Math.sin(2 * Math.PI * 185 * t) * Math.exp(-t * 30);
  }
  return out;
}

export function hat(r: Rng, open = false): Float32Array {
  const out = new Float32Array(Math.round((open ? 0.18 : 0.05) * SR));
  const hp = new Biquad('highpass', 7000, 0.7);
  const decay = open ? 18 : 70;
  for (let i = 0; i < out.length; i++) out[i] = hp.process(r() * 2 - 1) * Math.exp((-i / SR) * decay);
  return out;
}

/** Saw through a low-pass with a plucky envelope: a round synth bass. */
export function bassNote(midi: number, seconds: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * SR));
  const f = midiToHz(midi);
  const lp = new Biquad('lowpass', 380, 1.1);
  const decay = Math.exp(-2.5 / SR);
  let phase = 0;
  let env = 1;
  for (let i = 0; i < out.length; i++) {
    phase += f / SR;
    if (phase >= 1) phase -= 1;
    env *= decay;
    // Saw plus a sine fundamental: the saw gives the filter something to bite on, the sine the weight.
    out[i] = lp.process(2 * phase - 1 + 0.5 * Math.sin(2 * Math.PI * phase)) * env * Math.min(1, i / 200, (out.length - i) / 400);
  }
  return out;
}

/** Two detuned triangles per note, slow attack: a soft pad that carries the harmony. */
export function padNote(midi: number, seconds: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * SR));
  const f1 = midiToHz(midi) * 1.003;
  const f2 = midiToHz(midi) * 0.997;
  let p1 = 0;
  let p2 = 0.25;
  const attack = 0.08 * SR;
  const release = 0.25 * SR;
  const d1 = f1 / SR;
  const d2 = f2 / SR;
  for (let i = 0; i < out.length; i++) {
    // Subtraction instead of % 1: fmod dominated this loop, and the pad is the densest part of the mix.
    p1 += d1;
    if (p1 >= 1) p1 -= 1;
    p2 += d2;
    if (p2 >= 1) p2 -= 1;
    const tri = 2 * Math.abs(2 * p1 - 1) - 1 + (2 * Math.abs(2 * p2 - 1) - 1);
    const env = i < attack ? i / attack : out.length - i < release ? (out.length - i) / release : 1;
    out[i] = 0.5 * tri * env;
  }
  return out;
}

/** Sine with a touch of second harmonic and a fast decay: a bell-like pluck for arpeggios. */
export function pluckNote(midi: number, seconds: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * SR));
  const w = (2 * Math.PI * midiToHz(midi)) / SR;
  // Recursive sine oscillators (y[n] = 2cos(w)·y[n-1] − y[n-2]) instead of Math.sin per sample: the
  // arpeggio plays all song long and this is its inner loop.
  const k1 = 2 * Math.cos(w);
  const k2 = 2 * Math.cos(2 * w);
  let a1 = 0;
  let a2 = -Math.sin(w);
  let b1 = 0;
  let b2 = -Math.sin(2 * w);
  const decay = Math.exp(-7 / SR);
  let env = 1;
  for (let i = 0; i < out.length; i++) {
    const a = k1 * a1 - a2;
    a2 = a1;
    a1 = a;
    const b = k2 * b1 - b2;
    b2 = b1;
    b1 = b;
    env *= decay;
    out[i] = (a + 0.3 * b) * env * Math.min(1, i / 60, (out.length - i) / 200);
  }
  return out;
}
