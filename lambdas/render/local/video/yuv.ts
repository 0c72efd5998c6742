/** RGB → planar YUV 4:2:0 (BT.601, limited range): the layout ffmpeg reads as `-pix_fmt yuv420p`. */

export interface Yuv420 {
  width: number;
  height: number;
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
}

/** width and height must be even; chroma is the average of each 2×2 block. */
export function rgbToYuv420(rgb: Uint8Array, width: number, height: number): Yuv420 {
  const y = new Uint8Array(width * height);
  const u = new Uint8Array((width / 2) * (height / 2));
  const v = new Uint8Array(u.length);
  for (let i = 0, p = 0; i < width * height; i++, p += 3) {
    y[i] = 16 + (65.481 * rgb[p] + 128.553 * rgb[p + 1] + 24.966 * rgb[p + 2]) / 255 + 0.5;
  }
  for (let cy = 0; cy < height / 2; cy++) {
    for (let cx = 0; cx < width / 2; cx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
        const p = ((cy * 2 + dy) * width + cx * 2 + dx) * 3;
        r += rgb[p];
        g += rgb[p + 1];
        b += rgb[p + 2];
      }
      r /= 4 * 255;
      g /= 4 * 255;
      b /= 4 * 255;
      const c = cy * (width / 2) + cx;
      u[c] = 128 + (-37.797 * r - 74.203 * g + 112 * b) + 0.5;
      v[c] = 128 + (112 * r - 93.786 * g - 18.214 * b) + 0.5;
    }
  }
  return { width, height, y, u, v };
}
