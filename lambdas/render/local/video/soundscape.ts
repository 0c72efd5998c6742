/**
 * The video soundtrack: one synthesised layer per sound the prompt names, over a very low noise floor
 * (about −60 dBFS) so a silent scene is "room tone", never digital silence.
 */
import { SAMPLE_RATE, stereo, toPcm16, type Stereo } from '../dsp.js';
import { rng, seedFrom, type Rng } from '../seed.js';
import { soundsIn, lightningTimes, type SoundLayer } from './scene.js';
import { birds, fire, ocean, rain, stream, thunder, wind, type LayerContext } from './sounds-nature.js';
import { bells, crowd, music, traffic } from './sounds-made.js';

export const NOISE_FLOOR_RMS = 0.001;

const LAYERS: Record<SoundLayer, (bus: Stereo, r: Rng, ctx: LayerContext) => void> = {
  rain,
  thunder,
  wind,
  ocean,
  stream,
  fire,
  birds,
  music,
  traffic,
  crowd,
  bells,
};

export function synthesizeSoundscape(prompt: string, seed: number, seconds: number): { pcm: Buffer; layers: SoundLayer[] } {
  const frames = Math.round(seconds * SAMPLE_RATE);
  const bus = stereo(frames);
  const layers = soundsIn(prompt);
  const ctx: LayerContext = { frames, lightning: lightningTimes(prompt, seconds) };
  // Each layer draws from its own stream so adding a word to the prompt does not re-roll the other layers.
  layers.forEach((layer) => LAYERS[layer](bus, rng(seedFrom(seed, layer)), ctx));
  const r = rng(seed ^ 0xf100);
  // Uniform noise in [-a, a] has RMS a/√3.
  const a = NOISE_FLOOR_RMS * Math.sqrt(3);
  for (let i = 0; i < frames; i++) {
    bus.left[i] += a * (r() * 2 - 1);
    bus.right[i] += a * (r() * 2 - 1);
  }
  return { pcm: toPcm16(bus, 0.05, 0.3), layers };
}
