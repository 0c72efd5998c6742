/**
 * The procedural picture: a sky gradient, a sun or moon, soft clouds, then a scene chosen from the prompt
 * (mountains, water, a city skyline or abstract shapes). Everything is drawn from one seeded PRNG so the
 * same prompt always paints the same picture at any size (positions are fractions of the frame).
 */
import { Canvas } from './canvas.js';
import { mix, paletteFor, type Palette, type Rgb } from './palette.js';
import { between, intBetween, pick, rng, type Rng } from '../seed.js';
import { mentions } from '../text.js';

export type SceneKind = 'mountains' | 'water' | 'city' | 'abstract';

export interface Painting {
  width: number;
  height: number;
  /** 8-bit RGB, row-major, no padding. */
  rgb: Uint8Array;
  scene: SceneKind;
  palette: Palette;
  /** Horizon as a fraction of the height (the video ripples water below it). */
  horizon: number;
}

export function sceneFor(prompt: string, r: Rng): SceneKind {
  if (mentions(prompt, ['ocean', 'sea', 'beach', 'lake', 'river', 'water', 'wave', 'surf', 'shore', 'harbor'])) return 'water';
  if (mentions(prompt, ['city', 'skyline', 'urban', 'street', 'cyberpunk', 'building', 'downtown', 'traffic'])) return 'city';
  if (mentions(prompt, ['abstract', 'pattern', 'geometric', 'shape', 'fractal', 'minimal', 'logo'])) return 'abstract';
  if (mentions(prompt, ['mountain', 'hill', 'valley', 'forest', 'landscape', 'desert', 'field', 'meadow'])) return 'mountains';
  return pick(r, ['mountains', 'mountains', 'water', 'abstract'] as const);
}

export function paint(width: number, height: number, prompt: string, seed: number): Painting {
  const r = rng(seed);
  const palette = paletteFor(prompt, r);
  const scene = sceneFor(prompt, r);
  const canvas = new Canvas(width, height);
  const unit = Math.min(width, height);
  const horizon = between(r, 0.55, 0.7);

  const glow = mix(palette.skyBottom, palette.accent, 0.35);
  canvas.verticalGradient((t) =>
    t < horizon ? mix(palette.skyTop, glow, (t / horizon) ** 1.4) : mix(glow, palette.skyBottom, (t - horizon) / (1 - horizon)),
  );

  if (palette.night) stars(canvas, r);
  // Always bright: a dark accent colour would paint a grey hole where the sun should be.
  const sunColour: Rgb = palette.night ? [235, 235, 220] : mix(palette.accent, [255, 240, 210], 0.65);
  const sun = { x: width * between(r, 0.2, 0.8), y: height * horizon * between(r, 0.35, 0.8), r: unit * between(r, 0.06, 0.12) };
  canvas.disc(sun.x, sun.y, sun.r, sunColour, 0.95, between(r, 1.5, 3));
  clouds(canvas, r, palette, horizon);

  if (scene === 'mountains') mountains(canvas, r, palette, horizon);
  else if (scene === 'water') water(canvas, r, palette, horizon, sun.x, sunColour);
  else if (scene === 'city') city(canvas, r, palette, horizon);
  else abstract(canvas, r, palette);

  return { width, height, rgb: canvas.toRgb(), scene, palette, horizon };
}

function stars(canvas: Canvas, r: Rng): void {
  const count = Math.round((canvas.width * canvas.height) / 2500);
  for (let i = 0; i < count; i++) {
    const x = Math.floor(r() * canvas.width);
    const y = Math.floor(r() * canvas.height * 0.6);
    canvas.blend(x, y, [255, 255, 240], between(r, 0.3, 1));
  }
}

function clouds(canvas: Canvas, r: Rng, palette: Palette, horizon: number): void {
  const unit = Math.min(canvas.width, canvas.height);
  const colour = mix(palette.skyBottom, [255, 255, 255], 0.6);
  for (let c = intBetween(r, 2, 5); c > 0; c--) {
    const cx = canvas.width * r();
    const cy = canvas.height * horizon * between(r, 0.15, 0.7);
    for (let puff = 0; puff < 5; puff++) {
      canvas.disc(cx + unit * between(r, -0.12, 0.12), cy + unit * between(r, -0.02, 0.02), unit * between(r, 0.03, 0.07), colour, 0.18, 0.8);
    }
  }
}

/** Sum of seeded sines: smooth, tileable-enough ridge lines without a noise library. */
function ridgeLine(width: number, r: Rng, base: number, amplitude: number): Float32Array {
  const waves = Array.from({ length: 4 }, (_, i) => ({ f: between(r, 1, 3) * (i + 1), p: r() * 6.283, a: 1 / (i + 1.5) }));
  const out = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    let h = 0;
    for (const w of waves) h += w.a * Math.sin((x / width) * w.f * 6.283 + w.p);
    out[x] = base - amplitude * h;
  }
  return out;
}

function mountains(canvas: Canvas, r: Rng, palette: Palette, horizon: number): void {
  const layers = intBetween(r, 2, 4);
  for (let l = 0; l < layers; l++) {
    const depth = l / Math.max(1, layers - 1);
    const colour = mix(mix(palette.skyBottom, palette.ground, 0.45 + 0.55 * depth), [0, 0, 0], 0.15 + 0.35 * depth);
    const base = canvas.height * (horizon - 0.08 + 0.12 * depth);
    canvas.ridge(ridgeLine(canvas.width, r, base, canvas.height * between(r, 0.05, 0.12)), colour, 0.5);
  }
}

function water(canvas: Canvas, r: Rng, palette: Palette, horizon: number, sunX: number, sunColour: Rgb): void {
  const top = Math.round(canvas.height * horizon);
  const deep = mix(palette.skyTop, palette.ground, 0.5);
  for (let y = top; y < canvas.height; y++) {
    const t = (y - top) / Math.max(1, canvas.height - top);
    const row = mix(mix(palette.skyBottom, deep, 0.4), mix(deep, [0, 0, 0], 0.4), t);
    canvas.rect(0, y, canvas.width, 1, row, 1);
    // Broken horizontal strokes under the sun read as its reflection on moving water.
    const spread = canvas.width * (0.03 + 0.12 * t);
    if (r() < 0.6) canvas.rect(sunX - spread * r(), y, spread * between(r, 0.4, 1.6), 1, sunColour, 0.5 * (1 - t));
    if (y % 7 === 0) canvas.rect(0, y, canvas.width, 1, mix(row, [255, 255, 255], 0.3), 0.25);
  }
}

function city(canvas: Canvas, r: Rng, palette: Palette, horizon: number): void {
  const unit = Math.min(canvas.width, canvas.height);
  const body = mix(palette.ground, [10, 10, 20], 0.6);
  const lit = mix(palette.accent, [255, 220, 140], 0.5);
  for (let x = 0; x < canvas.width; ) {
    const w = unit * between(r, 0.05, 0.12);
    const h = canvas.height * between(r, 0.15, 0.55);
    const top = canvas.height * (horizon + 0.15) - h;
    canvas.rect(x, top, w, canvas.height - top, body, 1);
    const win = Math.max(2, Math.round(unit * 0.012));
    for (let wy = top + win * 2; wy < canvas.height - win * 2; wy += win * 3) {
      for (let wx = x + win; wx < x + w - win * 2; wx += win * 2.5) {
        if (r() < 0.35) canvas.rect(wx, wy, win, win * 1.4, lit, 0.9);
      }
    }
    x += w + unit * between(r, 0, 0.02);
  }
}

function abstract(canvas: Canvas, r: Rng, palette: Palette): void {
  const unit = Math.min(canvas.width, canvas.height);
  const colours = [palette.accent, palette.skyBottom, palette.ground, palette.skyTop];
  for (let i = intBetween(r, 6, 12); i > 0; i--) {
    canvas.disc(canvas.width * r(), canvas.height * r(), unit * between(r, 0.05, 0.3), pick(r, colours), between(r, 0.25, 0.7), between(r, 0, 0.6));
  }
  for (let i = intBetween(r, 2, 5); i > 0; i--) {
    canvas.rect(canvas.width * r(), 0, unit * between(r, 0.01, 0.06), canvas.height, pick(r, colours), between(r, 0.15, 0.4));
  }
}
