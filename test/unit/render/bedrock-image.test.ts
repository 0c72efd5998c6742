/**
 * The Bedrock adapter's picture handling (lambdas/render/bedrock-stability/image.ts, mapping.ts): PNGs as other
 * encoders write them (every row filter, palette, grey, alpha) decode to the pixels ffmpeg decodes, the crop is the
 * centre, and every product ratio maps to a Stability ratio whose exact frame is found.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cropCentre, decodeImage, encodeImage, imageSize, sniffFormat } from '../../../lambdas/render/bedrock-stability/image.js';
import { exactFrame, planStabilityRender, RENDERED_AS, STABILITY_ASPECT_RATIOS } from '../../../lambdas/render/bedrock-stability/mapping.js';
import { IMAGE_ASPECT_RATIOS } from '../../../lambdas/products/products.js';
import type { ImageRequest } from '../../../lambdas/products/catalog.js';
import { ffmpegPath } from './media.js';

const W = 37;
const H = 23;

/** A test card: gradients and noise, so every filter type is worth choosing somewhere. */
function card(): Buffer {
  const rgba = Buffer.alloc(W * H * 4);
  let n = 7;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      n = (n * 1103515245 + 12345) & 0x7fffffff;
      const o = (y * W + x) * 4;
      rgba[o] = (x * 7) & 0xff;
      rgba[o + 1] = (y * 11 + (n & 0x1f)) & 0xff;
      rgba[o + 2] = x > W / 2 ? n & 0xff : (x * y) & 0xff;
      rgba[o + 3] = 128 + ((x + y) & 0x7f);
    }
  }
  return rgba;
}

function ffmpeg(input: Buffer, inputArgs: string[], outputArgs: string[], extension: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'bedrock-image-'));
  try {
    const file = join(dir, `in.${extension}`);
    writeFileSync(file, input);
    return execFileSync(ffmpegPath, ['-v', 'error', ...inputArgs, '-i', file, ...outputArgs, 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A PNG of the card written by ffmpeg's encoder in the given pixel format and prediction. */
function pngOf(pixFmt: string, pred: string): Buffer {
  return ffmpeg(card(), ['-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${W}x${H}`], ['-frames:v', '1', '-pix_fmt', pixFmt, '-pred', pred, '-f', 'image2', '-c:v', 'png'], 'raw');
}

function rgbaByFfmpeg(image: Buffer, extension: string): Buffer {
  return ffmpeg(image, [], ['-f', 'rawvideo', '-pix_fmt', 'rgba'], extension);
}

describe('PNG decoding', () => {
  it.each([
    ['rgb24', 'none'],
    ['rgb24', 'sub'],
    ['rgb24', 'up'],
    ['rgb24', 'avg'],
    ['rgb24', 'paeth'],
    ['rgba', 'mixed'],
    ['gray', 'mixed'],
    ['ya8', 'mixed'],
    ['pal8', 'none'],
  ])('%s with %s prediction decodes to the pixels ffmpeg decodes', (pixFmt, pred) => {
    const png = pngOf(pixFmt, pred);
    expect(sniffFormat(png)).toBe('png');
    expect(imageSize(png)).toEqual({ width: W, height: H });
    const decoded = decodeImage(png);
    expect([decoded.width, decoded.height]).toEqual([W, H]);
    expect(Buffer.from(decoded.rgba).equals(rgbaByFfmpeg(png, 'png'))).toBe(true);
  });

  it('refuses what it does not read (16-bit) rather than guessing', () => {
    expect(() => decodeImage(pngOf('rgb48be', 'none'))).toThrow(/bit depth 16/);
    expect(() => decodeImage(Buffer.from('not an image'))).toThrow();
  });
});

describe('JPEG and the round trip', () => {
  it('reads a JPEG size from its header and decodes it', () => {
    const jpg = ffmpeg(card(), ['-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${W}x${H}`], ['-frames:v', '1', '-f', 'image2', '-c:v', 'mjpeg'], 'raw');
    expect(sniffFormat(jpg)).toBe('jpeg');
    expect(imageSize(jpg)).toEqual({ width: W, height: H });
    expect(decodeImage(jpg)).toMatchObject({ width: W, height: H });
  });

  it('crops the centre and re-encodes: PNG lossless (alpha kept), JPEG readable', () => {
    const raster = { width: W, height: H, rgba: new Uint8Array(card()) };
    const cropped = cropCentre(raster, 20, 10);
    // left = floor(17 / 2) = 8, top = floor(13 / 2) = 6
    for (const [x, y] of [[0, 0], [19, 9], [5, 3]]) {
      const a = (y * 20 + x) * 4;
      const b = ((y + 6) * W + x + 8) * 4;
      expect([...cropped.rgba.subarray(a, a + 4)]).toEqual([...raster.rgba.subarray(b, b + 4)]);
    }
    const png = encodeImage(cropped, 'png');
    expect(Buffer.from(decodeImage(png).rgba).equals(Buffer.from(cropped.rgba))).toBe(true);
    expect(Buffer.from(rgbaByFfmpeg(png, 'png')).equals(Buffer.from(cropped.rgba))).toBe(true);
    const jpg = encodeImage(cropped, 'jpeg');
    expect(sniffFormat(jpg)).toBe('jpeg');
    expect(imageSize(jpg)).toEqual({ width: 20, height: 10 });
  });
});

describe('parameter mapping', () => {
  it('every product ratio maps to a ratio Stability has; 3:4 → 4:5 and 4:3 → 5:4, the rest as they are', () => {
    for (const ratio of IMAGE_ASPECT_RATIOS) {
      expect(STABILITY_ASPECT_RATIOS).toContain(RENDERED_AS[ratio]);
      if (ratio !== '3:4' && ratio !== '4:3') expect(RENDERED_AS[ratio]).toBe(ratio);
    }
    expect([RENDERED_AS['3:4'], RENDERED_AS['4:3']]).toEqual(['4:5', '5:4']);
  });

  it('the body: prompt, aspect_ratio, output_format, a seed in Stability’s range from the job id; defaults 1:1 png', () => {
    const plan = planStabilityRender('job-1', { prompt: 'a fox' } as ImageRequest);
    expect(plan.body).toEqual({ prompt: 'a fox', aspect_ratio: '1:1', output_format: 'png', seed: expect.any(Number) });
    expect(plan.body.seed).toBeGreaterThanOrEqual(0);
    expect(plan.body.seed).toBeLessThanOrEqual(4294967294);
    expect(planStabilityRender('job-1', { prompt: 'a fox' } as ImageRequest).body.seed).toBe(plan.body.seed);
    expect(planStabilityRender('job-1', { prompt: 'x', outputFormat: 'jpeg', aspectRatio: '4:3' } as ImageRequest)).toMatchObject({
      body: { aspect_ratio: '5:4', output_format: 'jpeg' },
      extension: 'jpg',
      contentType: 'image/jpeg',
    });
  });

  it('the exact frame is the largest window of the ratio, the picture itself when it already is', () => {
    expect(exactFrame(1024, 1024, '1:1')).toEqual({ width: 1024, height: 1024 });
    expect(exactFrame(1344, 768, '16:9')).toEqual({ width: 1344, height: 756 });
    expect(exactFrame(896, 1088, '3:4')).toEqual({ width: 816, height: 1088 });
    expect(exactFrame(1088, 896, '4:3')).toEqual({ width: 1088, height: 816 });
    expect(exactFrame(1536, 640, '21:9')).toEqual({ width: 1491, height: 639 });
    expect(exactFrame(1280, 720, '16:9')).toEqual({ width: 1280, height: 720 });
  });
});
