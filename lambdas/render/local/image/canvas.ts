/** A float RGB canvas with the few soft-edged primitives the procedural painter needs. */
import type { Rgb } from './palette.js';

export class Canvas {
  readonly data: Float32Array;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = new Float32Array(width * height * 3);
  }

  /** Vertical gradient through arbitrary stops: per-row colour, so it costs one lookup per row. */
  verticalGradient(colourAt: (t: number) => Rgb): void {
    const { width, height, data } = this;
    for (let y = 0; y < height; y++) {
      const [r, g, b] = colourAt(y / Math.max(1, height - 1));
      let i = y * width * 3;
      for (let x = 0; x < width; x++, i += 3) {
        data[i] = r;
        data[i + 1] = g;
        data[i + 2] = b;
      }
    }
  }

  blend(x: number, y: number, [r, g, b]: Rgb, alpha: number): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || alpha <= 0) return;
    const i = (y * this.width + x) * 3;
    const d = this.data;
    d[i] += (r - d[i]) * alpha;
    d[i + 1] += (g - d[i + 1]) * alpha;
    d[i + 2] += (b - d[i + 2]) * alpha;
  }

  /** Disc with a soft rim; `glow` > 0 adds a halo that fades out to glow × radius. */
  disc(cx: number, cy: number, radius: number, colour: Rgb, alpha: number, glow = 0): void {
    const reach = radius * (1 + glow);
    const x0 = Math.max(0, Math.floor(cx - reach));
    const x1 = Math.min(this.width - 1, Math.ceil(cx + reach));
    const y0 = Math.max(0, Math.floor(cy - reach));
    const y1 = Math.min(this.height - 1, Math.ceil(cy + reach));
    const rim = Math.max(1.5, radius * 0.04);
    const reach2 = reach * reach;
    const [r, g, b] = colour;
    const d8 = this.data;
    for (let y = y0; y <= y1; y++) {
      const dy2 = (y - cy) * (y - cy);
      for (let x = x0; x <= x1; x++) {
        const d2 = (x - cx) * (x - cx) + dy2;
        if (d2 >= reach2) continue;
        const d = Math.sqrt(d2);
        let a: number;
        if (d <= radius - rim) a = alpha;
        else if (d <= radius) a = (alpha * (radius - d)) / rim;
        else if (glow > 0) {
          const f = (reach - d) / (reach - radius);
          a = 0.45 * alpha * f * f;
        } else continue;
        const i = (y * this.width + x) * 3;
        d8[i] += (r - d8[i]) * a;
        d8[i + 1] += (g - d8[i + 1]) * a;
        d8[i + 2] += (b - d8[i + 2]) * a;
      }
    }
  }

  rect(x0: number, y0: number, w: number, h: number, colour: Rgb, alpha = 1): void {
    const xa = Math.max(0, Math.round(x0));
    const xb = Math.min(this.width, Math.round(x0 + w));
    const ya = Math.max(0, Math.round(y0));
    const yb = Math.min(this.height, Math.round(y0 + h));
    for (let y = ya; y < yb; y++) for (let x = xa; x < xb; x++) this.blend(x, y, colour, alpha);
  }

  /**
   * Fills every column from its ridge line down, darkening towards the bottom for depth. Walked row by row (each
   * pixel's value depends only on its own column's top), so memory is read in order rather than a row apart.
   */
  ridge(heights: Float32Array, colour: Rgb, shade: number): void {
    const { width, height, data } = this;
    const tops = new Int32Array(width);
    let first = height;
    for (let x = 0; x < width; x++) {
      tops[x] = Math.max(0, Math.floor(heights[x]));
      if (tops[x] < first) first = tops[x];
    }
    const [r, g, b] = colour;
    for (let y = first; y < height; y++) {
      for (let x = 0, i = y * width * 3; x < width; x++, i += 3) {
        const top = tops[x];
        if (y < top) continue;
        const k = 1 - (shade * (y - top)) / height;
        data[i] = r * k;
        data[i + 1] = g * k;
        data[i + 2] = b * k;
      }
    }
  }

  /** 8-bit RGB with a gentle vignette, which also hides the hard frame edge of the gradients. */
  toRgb(vignette = 0.28): Uint8Array {
    const { width, height, data } = this;
    const out = new Uint8Array(width * height * 3);
    const cx = width / 2;
    const cy = height / 2;
    const inv = 1 / (cx * cx + cy * cy);
    for (let y = 0; y < height; y++) {
      const dy2 = (y - cy) * (y - cy);
      for (let x = 0; x < width; x++) {
        const k = 1 - vignette * ((x - cx) * (x - cx) + dy2) * inv;
        const i = (y * width + x) * 3;
        out[i] = clamp(data[i] * k);
        out[i + 1] = clamp(data[i + 1] * k);
        out[i + 2] = clamp(data[i + 2] * k);
      }
    }
    return out;
  }
}

function clamp(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : v + 0.5;
}
