/** Decoding helpers for tests: what a file really is, not what it is called. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ffprobePath: string = require('@ffprobe-installer/ffprobe').path;

export function pngSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

export interface Probe {
  format: { format_name: string; duration: string; tags?: Record<string, string> };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; duration?: string }[];
}

export function ffprobe(bytes: Buffer, extension: string): Probe {
  const dir = mkdtempSync(join(tmpdir(), 'probe-'));
  const file = join(dir, `media.${extension}`);
  try {
    writeFileSync(file, bytes);
    const out = execFileSync(ffprobePath, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file], { encoding: 'utf8' });
    return JSON.parse(out) as Probe;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
