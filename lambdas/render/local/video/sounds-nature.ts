/**
 * Nature layers of the video soundtrack. Each is filtered seeded noise shaped by an envelope that gives the
 * sound its identity: steady hiss with droplets (rain), slow swells (ocean), gusts (wind), crackles (fire).
 */
import { Biquad, SAMPLE_RATE, addMono, type Stereo } from '../dsp.js';
import { between, type Rng } from '../seed.js';
import { THUNDER_DELAY_SECONDS } from './scene.js';

const SR = SAMPLE_RATE;
export interface LayerContext {
  frames: number;
  lightning: number[];
}

/** Independent noise per channel so broadband layers sound wide rather than in the middle of the head. */
function noiseBed(bus: Stereo, r: Rng, gain: number, filter: () => Biquad, env: (i: number) => number = () => 1): void {
  for (const channel of [bus.left, bus.right]) {
    const f = filter();
    const g = filter();
    for (let i = 0; i < channel.length; i++) channel[i] += gain * env(i) * g.process(f.process(r() * 2 - 1));
  }
}

export function rain(bus: Stereo, r: Rng, { frames }: LayerContext): void {
  noiseBed(bus, r, 0.35, () => new Biquad('bandpass', 2800, 0.45));
  const drop = new Float32Array(Math.round(0.012 * SR));
  for (let n = Math.round((frames / SR) * 70); n > 0; n--) {
    const f = between(r, 2000, 6000);
    for (let i = 0; i < drop.length; i++) drop[i] = Math.sin((2 * Math.PI * f * i) / SR) * Math.exp(-i / (0.002 * SR));
    addMono(bus, drop, Math.floor(r() * frames), between(r, 0.02, 0.12), between(r, -0.9, 0.9));
  }
}

export function thunder(bus: Stereo, r: Rng, { lightning }: LayerContext): void {
  for (const flash of lightning) {
    const rumble = new Float32Array(Math.round(3.5 * SR));
    const lp = new Biquad('lowpass', 140, 0.8);
    const crack = new Biquad('bandpass', 900, 0.7);
    let brown = 0;
    for (let i = 0; i < rumble.length; i++) {
      const t = i / SR;
      brown = 0.995 * brown + 0.08 * (r() * 2 - 1);
      const env = Math.min(1, t / 0.08) * Math.exp(-t / 1.1) * (1 + 0.4 * Math.sin(2 * Math.PI * 1.3 * t));
      rumble[i] = 1.2 * lp.process(brown) * env + 0.25 * crack.process(r() * 2 - 1) * Math.exp(-t / 0.12);
    }
    addMono(bus, rumble, Math.round((flash + THUNDER_DELAY_SECONDS) * SR), 0.4, between(r, -0.3, 0.3));
  }
}

export function wind(bus: Stereo, r: Rng, { frames }: LayerContext): void {
  const rate = between(r, 0.15, 0.3);
  const phase = r() * 6.28;
  const gust = (i: number) => 0.35 + 0.65 * Math.sin((2 * Math.PI * rate * i) / SR + phase) ** 2;
  for (const channel of [bus.left, bus.right]) {
    const bp = new Biquad('bandpass', 500, 1.2);
    for (let i = 0; i < frames; i++) {
      // Retuning every 64 samples is inaudible and 64× cheaper than per-sample coefficient updates.
      if (i % 64 === 0) bp.tune(250 + 650 * gust(i), 1.2);
      channel[i] += 0.45 * gust(i) * bp.process(r() * 2 - 1);
    }
  }
}

export function ocean(bus: Stereo, r: Rng, { frames }: LayerContext): void {
  const period = between(r, 4.5, 6.5);
  const phase = r();
  const swell = (i: number) => {
    const x = ((i / SR / period + phase) % 1) * Math.PI;
    return 0.15 + 0.85 * Math.sin(x) ** 3;
  };
  noiseBed(bus, r, 0.5, () => new Biquad('lowpass', 900, 0.7), swell);
  noiseBed(bus, r, 0.12, () => new Biquad('highpass', 3000, 0.7), (i) => swell(i) ** 3);
}

export function stream(bus: Stereo, r: Rng, { frames }: LayerContext): void {
  const wobble = new Biquad('lowpass', 12, 0.7);
  const am = new Float32Array(frames);
  for (let i = 0; i < frames; i++) am[i] = 0.5 + 6 * Math.abs(wobble.process(r() * 2 - 1));
  noiseBed(bus, r, 0.5, () => new Biquad('bandpass', 1300, 0.8), (i) => am[i]);
}

export function fire(bus: Stereo, r: Rng, { frames }: LayerContext): void {
  noiseBed(bus, r, 0.35, () => new Biquad('lowpass', 250, 0.7));
  const hp = new Biquad('highpass', 1500, 0.7);
  for (let n = Math.round((frames / SR) * 18); n > 0; n--) {
    const crackle = new Float32Array(Math.round(between(r, 0.002, 0.009) * SR));
    for (let i = 0; i < crackle.length; i++) crackle[i] = hp.process(r() * 2 - 1) * (1 - i / crackle.length);
    addMono(bus, crackle, Math.floor(r() * frames), between(r, 0.05, 0.3), between(r, -0.6, 0.6));
  }
}

export function birds(bus: Stereo, r: Rng, { frames }: LayerContext): void {
  for (let t = between(r, 0.1, 0.6); t < frames / SR - 0.3; t += between(r, 0.4, 1.6)) {
    const pan = between(r, -0.8, 0.8);
    const f0 = between(r, 2200, 4200);
    const sweep = between(r, -1500, 1500);
    // A bird call is a burst of 2–5 short pitch-swept chirps.
    for (let k = 0, start = t; k < Math.round(between(r, 2, 5)); k++) {
      const chirp = new Float32Array(Math.round(between(r, 0.05, 0.12) * SR));
      let phase = 0;
      for (let i = 0; i < chirp.length; i++) {
        const x = i / chirp.length;
        phase += (2 * Math.PI * (f0 + sweep * x + 200 * Math.sin(2 * Math.PI * 30 * x))) / SR;
        chirp[i] = Math.sin(phase) * Math.sin(Math.PI * x);
      }
      addMono(bus, chirp, Math.round(start * SR), 0.09, pan);
      start += chirp.length / SR + between(r, 0.02, 0.06);
    }
  }
}
