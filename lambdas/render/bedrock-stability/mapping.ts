/**
 * How an agent_image request becomes a Stability call on Bedrock, and what the buyer gets back (docs/providers.md "Render
 * providers"):
 *
 *   prompt        → prompt (the catalog caps it below Stability's 10,000 characters)
 *   aspectRatio   → aspect_ratio as is for 1:1, 16:9, 9:16, 3:2, 2:3, 5:4, 4:5, 21:9; 3:4 → 4:5 and 4:3 → 5:4 (Stability
 *                   has neither), then centre-cropped. The model's pixel sizes are its own buckets, not always the exact
 *                   ratio (e.g. 1344x768 for 16:9), so any output not exactly the asked ratio is centre-cropped to the
 *                   largest window of that exact ratio
 *   outputFormat  → output_format "png" | "jpeg"; stored as renders/<jobId>/image.png | image.jpg
 *   seed          → derived from the job id: a retried render asks for the same picture
 *   (not sent)    → negative_prompt, mode (text-to-image is the default), image, strength
 */
import { createHash } from 'node:crypto';
import type { ImageRequest } from '../../products/catalog.js';
import type { IMAGE_ASPECT_RATIOS } from '../../products/products.js';
import type { ImageFormat } from './image.js';

export type ImageAspectRatio = (typeof IMAGE_ASPECT_RATIOS)[number];

/** Stability's `aspect_ratio` enum on Bedrock (no 3:4, no 4:3). */
export const STABILITY_ASPECT_RATIOS = ['16:9', '1:1', '21:9', '2:3', '3:2', '4:5', '5:4', '9:16', '9:21'] as const;
export type StabilityAspectRatio = (typeof STABILITY_ASPECT_RATIOS)[number];

/** The ratio Stability renders for each of ours: itself, or the nearest one it has. */
export const RENDERED_AS: Record<ImageAspectRatio, StabilityAspectRatio> = {
  '1:1': '1:1',
  '16:9': '16:9',
  '9:16': '9:16',
  '3:2': '3:2',
  '2:3': '2:3',
  '5:4': '5:4',
  '4:5': '4:5',
  '21:9': '21:9',
  '4:3': '5:4',
  '3:4': '4:5',
};

/** The InvokeModel body of Stable Image Core / Ultra / SD3.5 Large (text to image). */
export interface StabilityBody {
  prompt: string;
  aspect_ratio: StabilityAspectRatio;
  output_format: ImageFormat;
  seed: number;
}

export interface StabilityPlan {
  body: StabilityBody;
  aspectRatio: ImageAspectRatio;
  format: ImageFormat;
  extension: 'png' | 'jpg';
  contentType: 'image/png' | 'image/jpeg';
}

export function planStabilityRender(jobId: string, request: ImageRequest): StabilityPlan {
  const aspectRatio: ImageAspectRatio = request.aspectRatio ?? '1:1';
  const format: ImageFormat = request.outputFormat ?? 'png';
  return {
    body: { prompt: request.prompt, aspect_ratio: RENDERED_AS[aspectRatio], output_format: format, seed: seedFor(jobId) },
    aspectRatio,
    format,
    extension: format === 'jpeg' ? 'jpg' : 'png',
    contentType: format === 'jpeg' ? 'image/jpeg' : 'image/png',
  };
}

/** Stability's seed range is 0..4294967294. */
export function seedFor(jobId: string): number {
  return createHash('sha256').update(`bedrock-stability:${jobId}`).digest().readUInt32BE(0) % 4294967295;
}

/** The largest width×height of exactly `aspectRatio` inside a width×height picture (its own size when it already is). */
export function exactFrame(width: number, height: number, aspectRatio: string): { width: number; height: number } {
  const [w0, h0] = aspectRatio.split(':').map(Number);
  const g = gcd(w0, h0);
  const [w, h] = [w0 / g, h0 / g];
  const k = Math.min(Math.floor(width / w), Math.floor(height / h));
  if (k < 1) throw new Error(`a ${width}x${height} picture holds no ${aspectRatio} frame`);
  return { width: w * k, height: h * k };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
