/**
 * The picture track: the procedural painting (25% larger than the frame) panned slowly across the frame,
 * water rippling below the horizon, particles and birds on top, lightning flashes, fade in and out.
 * Frames are produced lazily as raw yuv420p so ffmpeg can encode while the next ones are drawn.
 */
import { paint } from '../image/painter.js';
import { between, rng, seedFrom } from '../seed.js';
import { mentions } from '../text.js';
import { birdDrawer, particleDrawer, type Frame } from './particles.js';
import { SOUND_WORDS, lightningTimes, particlesFor } from './scene.js';
import { rgbToYuv420 } from './yuv.js';

export interface FrameSpec {
  width: number;
  height: number;
  fps: number;
  seconds: number;
  prompt: string;
}

const even = (n: number) => 2 * Math.round(n / 2);
const smoothstep = (x: number) => x * x * (3 - 2 * x);

export function* videoFrames(spec: FrameSpec): Generator<Buffer> {
  const { width, height, fps, seconds, prompt } = spec;
  const bgW = even(width * 1.25);
  const bgH = even(height * 1.25);
  // Same seed as the image product: a prompt's video shows the scene its still image shows.
  const painting = paint(bgW, bgH, prompt, seedFrom('image', prompt));
  const bg = rgbToYuv420(painting.rgb, bgW, bgH);
  const r = rng(seedFrom('video', prompt));
  const from = { x: between(r, 0, bgW - width), y: between(r, 0, bgH - height) };
  const to = { x: bgW - width - from.x, y: between(r, 0, bgH - height) };
  const drawParticles = particleDrawer(particlesFor(prompt), width, height, r);
  const drawBirds = mentions(prompt, SOUND_WORDS.birds) ? birdDrawer(width, height, r) : undefined;
  const flashes = lightningTimes(prompt, seconds);
  const waterTop = painting.scene === 'water' ? Math.round(painting.horizon * bgH) : Infinity;
  const ySize = width * height;
  const cw = width / 2;
  const ch = height / 2;
  const total = Math.round(seconds * fps);

  for (let n = 0; n < total; n++) {
    const t = n / fps;
    const e = smoothstep(n / Math.max(1, total - 1));
    const ox = even(from.x + (to.x - from.x) * e);
    const oy = even(from.y + (to.y - from.y) * e);
    const data = Buffer.allocUnsafe((ySize * 3) / 2);
    for (let y = 0; y < height; y++) {
      const sy = oy + y;
      const sx = Math.min(bgW - width, Math.max(0, ox + ripple(sy, waterTop, t)));
      data.set(bg.y.subarray(sy * bgW + sx, sy * bgW + sx + width), y * width);
    }
    for (let y = 0; y < ch; y++) {
      const sy = (oy >> 1) + y;
      const sx = Math.min(bgW / 2 - cw, Math.max(0, (ox >> 1) + (ripple(sy * 2, waterTop, t) >> 1)));
      const row = sy * (bgW / 2) + sx;
      data.set(bg.u.subarray(row, row + cw), ySize + y * cw);
      data.set(bg.v.subarray(row, row + cw), ySize + cw * ch + y * cw);
    }
    const frame: Frame = { width, height, data };
    drawParticles(frame, t);
    drawBirds?.(frame, t);
    const flash = flashes.some((f) => (t >= f && t < f + 0.12) || (t >= f + 0.2 && t < f + 0.28));
    const fade = Math.min(1, t / 0.3, (seconds - t) / 0.4);
    if (flash || fade < 1) light(frame, flash ? 0.55 : 0, Math.max(0, fade));
    yield data;
  }
}

/** Horizontal shift of a background row: water below the horizon sways, more strongly towards the viewer. */
function ripple(row: number, waterTop: number, t: number): number {
  if (row <= waterTop) return 0;
  const depth = Math.min(1, (row - waterTop) / 200);
  return Math.round(4 * depth * Math.sin(row * 0.21 + t * 2.6));
}

/** Lightning (luma pushed towards white) and fades (luma and chroma towards black). */
function light(frame: Frame, flash: number, fade: number): void {
  const { data, width, height } = frame;
  const ySize = width * height;
  for (let i = 0; i < ySize; i++) {
    const lit = data[i] + (255 - data[i]) * flash;
    data[i] = 16 + (lit - 16) * fade;
  }
  for (let i = ySize; i < data.length; i++) data[i] = 128 + (data[i] - 128) * fade;
}
