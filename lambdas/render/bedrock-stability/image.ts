/**
 * What the Bedrock adapter does to a returned image, pure JS (no native code in the task's bundle): tell PNG from
 * JPEG by their bytes, read the size from the header, and — only when the picture is not already the buyer's exact
 * frame and format — decode it, cut the centre out and encode it again (PNG with the local synthesiser's encoder,
 * JPEG with jpeg-js, the same ones the local renders use).
 *
 * The PNG reader covers what an image model writes: 8-bit greyscale, truecolour, palette, with or without alpha, not
 * interlaced. Anything else is refused (the adapter turns that into "unreadable result").
 */
import { inflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import { encodePng } from '../local/image/png.js';

export type ImageFormat = 'png' | 'jpeg';

/** A decoded picture, row-major RGBA. */
export interface Raster {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** Above this many pixels a "picture" is a decompression bomb, not a model's output (Stability's are ~1–4 MP). */
const MAX_PIXELS = 40_000_000;
export const JPEG_QUALITY = 92;

const PNG_SIGNATURE = '89504e470d0a1a0a';

export function sniffFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (bytes.length >= 8 && Buffer.from(bytes.subarray(0, 8)).toString('hex') === PNG_SIGNATURE) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return undefined;
}

/** Width and height from the header (PNG IHDR, JPEG SOFn), without decoding. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const format = sniffFormat(bytes);
  if (format === 'png') {
    if (buf.length < 24 || buf.toString('ascii', 12, 16) !== 'IHDR') return undefined;
    return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
  }
  if (format === 'jpeg') {
    for (let o = 2; o + 9 < buf.length; ) {
      if (buf[o] !== 0xff) return undefined;
      const marker = buf[o + 1];
      if (marker === 0xff) {
        o++;
        continue;
      }
      const length = buf.readUInt16BE(o + 2);
      // SOF0..SOF15 except DHT (c4), JPG (c8) and DAC (cc).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: buf.readUInt16BE(o + 7), height: buf.readUInt16BE(o + 5) };
      }
      o += 2 + length;
    }
  }
  return undefined;
}

export function decodeImage(bytes: Uint8Array): Raster {
  const format = sniffFormat(bytes);
  if (format === 'png') return decodePng(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (format === 'jpeg') {
    const size = imageSize(bytes);
    if (!size || size.width * size.height > MAX_PIXELS) throw new Error(`JPEG of ${size ? `${size.width}x${size.height}` : 'unknown size'}`);
    const decoded = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_PIXELS / 1e6, maxMemoryUsageInMB: 512 });
    return { width: decoded.width, height: decoded.height, rgba: decoded.data };
  }
  throw new Error('neither PNG nor JPEG');
}

/** The centred `width`×`height` window of the picture. */
export function cropCentre(raster: Raster, width: number, height: number): Raster {
  if (width > raster.width || height > raster.height || width < 1 || height < 1) throw new Error(`cannot crop ${raster.width}x${raster.height} to ${width}x${height}`);
  const left = Math.floor((raster.width - width) / 2);
  const top = Math.floor((raster.height - height) / 2);
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const from = ((top + y) * raster.width + left) * 4;
    rgba.set(raster.rgba.subarray(from, from + width * 4), y * width * 4);
  }
  return { width, height, rgba };
}

export function encodeImage(raster: Raster, format: ImageFormat): Buffer {
  const { width, height, rgba } = raster;
  if (format === 'jpeg') return Buffer.from(jpeg.encode({ data: rgba, width, height }, JPEG_QUALITY).data);
  let opaque = true;
  for (let i = 3; i < rgba.length && opaque; i += 4) opaque = rgba[i] === 255;
  if (!opaque) return encodePng(width, height, rgba, 4);
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    rgb[j] = rgba[i];
    rgb[j + 1] = rgba[i + 1];
    rgb[j + 2] = rgba[i + 2];
  }
  return encodePng(width, height, rgb);
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function decodePng(buf: Buffer): Raster {
  let width = 0;
  let height = 0;
  let colourType = -1;
  let palette: Buffer | undefined;
  let transparency: Buffer | undefined;
  const idat: Buffer[] = [];
  for (let o = 8; o + 8 <= buf.length; ) {
    const length = buf.readUInt32BE(o);
    const type = buf.toString('ascii', o + 4, o + 8);
    const data = buf.subarray(o + 8, o + 8 + length);
    if (data.length !== length) throw new Error(`PNG chunk ${type} is truncated`);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [bitDepth, colour, , , interlace] = data.subarray(8, 13);
      if (bitDepth !== 8 || !(colour in CHANNELS) || interlace !== 0) throw new Error(`PNG of bit depth ${bitDepth}, colour type ${colour}, interlace ${interlace}`);
      colourType = colour;
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') transparency = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    o += 12 + length;
  }
  if (colourType < 0 || !width || !height || width * height > MAX_PIXELS) throw new Error(`PNG header missing or ${width}x${height}`);
  if (colourType === 3 && !palette) throw new Error('palette PNG without PLTE');
  const channels = CHANNELS[colourType];
  const stride = width * channels;
  const raw = inflateSync(Buffer.concat(idat), { maxOutputLength: (stride + 1) * height });
  if (raw.length !== (stride + 1) * height) throw new Error('PNG image data does not match its header');
  const pixels = unfilter(raw, stride, height, channels);
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0, p = 0; i < width * height; i++, p += channels) {
    const o = i * 4;
    switch (colourType) {
      case 0:
        rgba[o] = rgba[o + 1] = rgba[o + 2] = pixels[p];
        rgba[o + 3] = 255;
        break;
      case 4:
        rgba[o] = rgba[o + 1] = rgba[o + 2] = pixels[p];
        rgba[o + 3] = pixels[p + 1];
        break;
      case 2:
        rgba[o] = pixels[p];
        rgba[o + 1] = pixels[p + 1];
        rgba[o + 2] = pixels[p + 2];
        rgba[o + 3] = 255;
        break;
      case 6:
        rgba.set(pixels.subarray(p, p + 4), o);
        break;
      case 3: {
        const index = pixels[p];
        rgba[o] = palette![index * 3] ?? 0;
        rgba[o + 1] = palette![index * 3 + 1] ?? 0;
        rgba[o + 2] = palette![index * 3 + 2] ?? 0;
        rgba[o + 3] = transparency?.[index] ?? 255;
        break;
      }
    }
  }
  return { width, height, rgba };
}

/** Undoes the per-row filters (None, Sub, Up, Average, Paeth) of PNG's filter method 0. */
function unfilter(raw: Buffer, stride: number, height: number, bpp: number): Uint8Array {
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[row + x - bpp] : 0;
      const b = y > 0 ? out[prev + x] : 0;
      const c = x >= bpp && y > 0 ? out[prev + x - bpp] : 0;
      let predictor: number;
      switch (filter) {
        case 0:
          predictor = 0;
          break;
        case 1:
          predictor = a;
          break;
        case 2:
          predictor = b;
          break;
        case 3:
          predictor = (a + b) >> 1;
          break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default:
          throw new Error(`PNG row filter ${filter}`);
      }
      out[row + x] = (line[x] + predictor) & 0xff;
    }
  }
  return out;
}
