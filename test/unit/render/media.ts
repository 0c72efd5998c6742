/**
 * Decoding helpers for the render tests: they look at what a file really contains (ffprobe, ffmpeg decode,
 * zlib, jpeg-js), never at its name. ffmpeg here is only a reader, independent of the renderer's own DSP.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, inflateSync } from 'node:zlib';

const require = createRequire(import.meta.url);
export const ffmpegPath: string = require('@ffmpeg-installer/ffmpeg').path;
const ffprobePath: string = require('@ffprobe-installer/ffprobe').path;

function withFile<T>(bytes: Uint8Array, extension: string, use: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'render-test-'));
  const file = join(dir, `media.${extension}`);
  try {
    writeFileSync(file, bytes);
    return use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ProbeStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  sample_rate?: string;
  disposition?: Record<string, number>;
}
export interface Probe {
  format: { format_name: string; duration: string; tags?: Record<string, string> };
  streams: ProbeStream[];
}

export function probe(bytes: Uint8Array, extension: string): Probe {
  return withFile(bytes, extension, (file) =>
    JSON.parse(execFileSync(ffprobePath, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file], { encoding: 'utf8' })),
  );
}

/** Mono 16-bit PCM at `rate`, optionally through an ffmpeg audio filter (e.g. a band-pass). */
export function decodeAudio(bytes: Uint8Array, extension: string, rate = 22_050, filter?: string): Int16Array {
  return withFile(bytes, extension, (file) => {
    const args = ['-v', 'error', '-i', file, '-vn', '-ac', '1', '-ar', String(rate), ...(filter ? ['-af', filter] : []), '-f', 's16le', 'pipe:1'];
    const out = execFileSync(ffmpegPath, args, { maxBuffer: 256 * 1024 * 1024 });
    return new Int16Array(out.buffer, out.byteOffset, out.length / 2);
  });
}

/** One grey frame at time t, scaled down, as bytes. */
export function decodeGreyFrame(bytes: Uint8Array, t: number, width = 160, height = 90): Uint8Array {
  return withFile(bytes, 'mp4', (file) =>
    execFileSync(ffmpegPath, ['-v', 'error', '-ss', String(t), '-i', file, '-frames:v', '1', '-vf', `scale=${width}:${height}`, '-pix_fmt', 'gray', '-f', 'rawvideo', 'pipe:1']),
  );
}

export function rms(samples: ArrayLike<number>, from = 0, to = samples.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += samples[i] * samples[i];
  return Math.sqrt(sum / Math.max(1, to - from));
}

export interface PngChunk {
  type: string;
  data: Buffer;
  crcOk: boolean;
}

/** Walks the chunks and checks each CRC with zlib's crc32 (independent of the encoder's own table). */
export function pngChunks(bytes: Buffer): PngChunk[] {
  if (bytes.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG signature');
  const chunks: PngChunk[] = [];
  for (let o = 8; o < bytes.length; ) {
    const length = bytes.readUInt32BE(o);
    const type = bytes.toString('ascii', o + 4, o + 8);
    const data = bytes.subarray(o + 8, o + 8 + length);
    const crc = bytes.readUInt32BE(o + 8 + length);
    chunks.push({ type, data, crcOk: crc32(bytes.subarray(o + 4, o + 8 + length)) === crc });
    o += 12 + length;
  }
  return chunks;
}

/** IHDR fields plus the inflated image data (filter bytes included). */
export function readPng(bytes: Buffer): { width: number; height: number; bitDepth: number; colourType: number; raw: Buffer; chunks: PngChunk[] } {
  const chunks = pngChunks(bytes);
  const ihdr = chunks[0].data;
  const idat = Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data));
  return { width: ihdr.readUInt32BE(0), height: ihdr.readUInt32BE(4), bitDepth: ihdr[8], colourType: ihdr[9], raw: inflateSync(idat), chunks };
}
