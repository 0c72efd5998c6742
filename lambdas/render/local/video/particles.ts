/**
 * Moving things drawn straight into each YUV frame: rain streaks, snow, embers, floating motes and birds.
 * Every particle's position is a closed-form function of time (seeded start + velocity, wrapped), so any
 * frame can be drawn without simulating the ones before it.
 */
import { between, type Rng } from '../seed.js';
import type { Particles } from './scene.js';

export interface Frame {
  width: number;
  height: number;
  data: Buffer;
}

function blendY(f: Frame, x: number, y: number, target: number, alpha: number): void {
  if (x < 0 || y < 0 || x >= f.width || y >= f.height) return;
  const i = y * f.width + x;
  f.data[i] += (target - f.data[i]) * alpha;
}

function blendUV(f: Frame, x: number, y: number, u: number, v: number, alpha: number): void {
  if (x < 0 || y < 0 || x >= f.width || y >= f.height) return;
  const cw = f.width >> 1;
  const i = f.width * f.height + (y >> 1) * cw + (x >> 1);
  const j = i + cw * (f.height >> 1);
  f.data[i] += (u - f.data[i]) * alpha;
  f.data[j] += (v - f.data[j]) * alpha;
}

function wrap(value: number, size: number): number {
  return ((value % size) + size) % size;
}

interface Particle {
  x: number;
  y: number;
  vx: number;
  vy: number;
  size: number;
  alpha: number;
  phase: number;
}

export type ParticleDrawer = (frame: Frame, t: number) => void;

export function particleDrawer(kind: Particles, width: number, height: number, r: Rng): ParticleDrawer {
  const area = (width * height) / (1280 * 720);
  const spawn = (count: number, make: () => Omit<Particle, 'x' | 'y' | 'phase'>): Particle[] =>
    Array.from({ length: Math.round(count * area) }, () => ({ x: r() * width, y: r() * height, phase: r() * 6.28, ...make() }));

  if (kind === 'rain') {
    const drops = spawn(240, () => ({ vy: between(r, 900, 1400), vx: 0, size: between(r, 16, 34), alpha: between(r, 0.2, 0.45) }));
    return (f, t) => {
      for (const d of drops) {
        const y = wrap(d.y + d.vy * t, height + d.size);
        const x = wrap(d.x + 0.12 * d.vy * t, width);
        for (let k = 0; k < d.size; k++) blendY(f, Math.round(x - 0.12 * k), Math.round(y - k), 225, d.alpha * (1 - k / d.size));
      }
    };
  }
  if (kind === 'snow') {
    const flakes = spawn(160, () => ({ vy: between(r, 35, 90), vx: between(r, 8, 25), size: Math.round(between(r, 1, 3.4)), alpha: between(r, 0.6, 0.95) }));
    return (f, t) => {
      for (const p of flakes) {
        const y = Math.round(wrap(p.y + p.vy * t, height));
        const x = Math.round(wrap(p.x + p.vx * Math.sin(t * 1.3 + p.phase), width));
        for (let dy = 0; dy < p.size; dy++) {
          for (let dx = 0; dx < p.size; dx++) {
            blendY(f, x + dx, y + dy, 235, p.alpha);
            blendUV(f, x + dx, y + dy, 128, 128, p.alpha * 0.5);
          }
        }
      }
    };
  }
  if (kind === 'embers') {
    const embers = spawn(70, () => ({ vy: -between(r, 50, 140), vx: between(r, 6, 20), size: Math.round(between(r, 1, 2.6)), alpha: between(r, 0.5, 0.9) }));
    return (f, t) => {
      for (const p of embers) {
        const y = Math.round(wrap(p.y + p.vy * t, height));
        const x = Math.round(wrap(p.x + p.vx * Math.sin(t * 2 + p.phase), width));
        const a = p.alpha * (0.6 + 0.4 * Math.sin(t * 9 + p.phase));
        for (let dy = 0; dy < p.size; dy++) {
          for (let dx = 0; dx < p.size; dx++) {
            blendY(f, x + dx, y + dy, 190, a);
            blendUV(f, x + dx, y + dy, 60, 195, a);
          }
        }
      }
    };
  }
  const motes = spawn(40, () => ({ vy: -between(r, 8, 25), vx: between(r, 5, 15), size: between(r, 2, 4.5), alpha: between(r, 0.12, 0.3) }));
  return (f, t) => {
    for (const p of motes) {
      const cy = wrap(p.y + p.vy * t, height);
      const cx = wrap(p.x + p.vx * Math.sin(t * 0.7 + p.phase), width);
      const s = Math.ceil(p.size);
      for (let dy = -s; dy <= s; dy++) {
        for (let dx = -s; dx <= s; dx++) {
          const fall = 1 - Math.hypot(dx, dy) / p.size;
          if (fall > 0) blendY(f, Math.round(cx) + dx, Math.round(cy) + dy, 235, p.alpha * fall);
        }
      }
    }
  };
}

/** A few dark birds crossing the upper sky, wings flapping. */
export function birdDrawer(width: number, height: number, r: Rng): ParticleDrawer {
  const unit = Math.min(width, height);
  const flock = Array.from({ length: 3 + Math.floor(r() * 3) }, () => ({
    x: r() * width,
    y: height * between(r, 0.12, 0.4),
    speed: between(r, 40, 100),
    span: unit * between(r, 0.012, 0.022),
    phase: r() * 6.28,
  }));
  return (f, t) => {
    for (const b of flock) {
      const x = wrap(b.x + b.speed * t, width + 4 * b.span) - 2 * b.span;
      const y = b.y + 6 * Math.sin(t * 0.8 + b.phase);
      const lift = b.span * 0.6 * Math.sin(t * 2 * Math.PI * 3 + b.phase);
      for (const side of [-1, 1]) {
        for (let k = 0; k <= b.span; k++) {
          blendY(f, Math.round(x + side * k), Math.round(y - (lift * k) / b.span), 30, 0.9);
          blendY(f, Math.round(x + side * k), Math.round(y - (lift * k) / b.span) + 1, 30, 0.6);
        }
      }
    }
  };
}
