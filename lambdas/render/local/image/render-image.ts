/** Image product: the procedural painting encoded as PNG (own encoder) or JPEG (jpeg-js), pure JS. */
import jpeg from 'jpeg-js';
import type { ImageRequest } from '../../../products/catalog.js';
import { IMAGE_ASPECT_RATIOS } from '../../../products/products.js';
import { seedFrom } from '../seed.js';
import { titleFrom } from '../text.js';
import { encodePng } from './png.js';
import { paint } from './painter.js';

export type ImageAspectRatio = (typeof IMAGE_ASPECT_RATIOS)[number];

export const IMAGE_LONG_SIDE = 1024;

/**
 * Pixel size of an aspect ratio: the long side is 1024 px and the short side is 1024 × short/long rounded to
 * the nearest multiple of 8 (encoders and buyers' pipelines like multiples of 8):
 *   1:1 → 1024×1024   16:9 → 1024×576   9:16 → 576×1024   4:3 → 1024×768   3:4 → 768×1024
 *   3:2 → 1024×680    2:3 → 680×1024    5:4 → 1024×816    4:5 → 816×1024   21:9 → 1024×440
 */
export function imageDimensions(aspectRatio: ImageAspectRatio): { width: number; height: number } {
  const [w, h] = aspectRatio.split(':').map(Number);
  const short = Math.round((IMAGE_LONG_SIDE * Math.min(w, h)) / Math.max(w, h) / 8) * 8;
  return w >= h ? { width: IMAGE_LONG_SIDE, height: short } : { width: short, height: IMAGE_LONG_SIDE };
}

export interface EncodedImage {
  body: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  extension: 'png' | 'jpg';
  width: number;
  height: number;
  title: string;
}

export const JPEG_QUALITY = 90;

export function renderImage(request: ImageRequest): EncodedImage {
  const aspectRatio = request.aspectRatio ?? '1:1';
  const format = request.outputFormat ?? 'png';
  const { width, height } = imageDimensions(aspectRatio);
  // The aspect ratio is not part of the seed, so one prompt paints the same scene in every frame shape.
  const painting = paint(width, height, request.prompt, seedFrom('image', request.prompt));
  const title = titleFrom(request.prompt, 'Untitled');
  if (format === 'jpeg') {
    const rgba = new Uint8Array(width * height * 4);
    for (let i = 0, j = 0; i < painting.rgb.length; i += 3, j += 4) {
      rgba[j] = painting.rgb[i];
      rgba[j + 1] = painting.rgb[i + 1];
      rgba[j + 2] = painting.rgb[i + 2];
      rgba[j + 3] = 255;
    }
    const body = jpeg.encode({ data: rgba, width, height }, JPEG_QUALITY).data;
    return { body: Buffer.from(body), contentType: 'image/jpeg', extension: 'jpg', width, height, title };
  }
  return { body: encodePng(width, height, painting.rgb), contentType: 'image/png', extension: 'png', width, height, title };
}

/** Square cover art for a song, from the same painter (512 px keeps ID3 tags and the MP3 small). */
export function renderCover(prompt: string, seed: number, size = 512): Buffer {
  const painting = paint(size, size, prompt, seed);
  return encodePng(size, size, painting.rgb);
}
