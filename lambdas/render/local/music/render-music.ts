/**
 * Music product: plan → backing band (+ voice unless instrumental) → 16-bit PCM piped to ffmpeg → MP3 with
 * ID3 tags and the cover art as an attached picture.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MusicRequest } from '../../../products/catalog.js';
import { SAMPLE_RATE, addMono, toPcm16 } from '../dsp.js';
import { runFfmpeg } from '../ffmpeg.js';
import { renderCover } from '../image/render-image.js';
import { seedFrom } from '../seed.js';
import { cleanTag } from '../text.js';
import { withWorkDir } from '../workdir.js';
import { arrangeBacking } from './arrange.js';
import { planSong } from './plan.js';
import { sing, writeMelody } from './voice.js';

export const MUSIC_MODEL_VERSION = 'local-synth-1';
export const MUSIC_ARTIST = 'Local Synth';
export const MP3_BITRATE = '128k';
/** Headroom before the soft clipper: the full band peaks around 1.0, tanh then rounds the peaks off. */
const MASTER_GAIN = 0.8;

export interface RenderedSong {
  audio: Buffer;
  cover: Buffer;
  title: string;
  /** Length of the encoded PCM, in seconds. */
  durationSeconds: number;
  genre?: string;
}

/** The mixed song as interleaved s16le stereo PCM at SAMPLE_RATE (exported for tests and tuning). */
export function synthesizeSong(request: MusicRequest, plan = planSong(request)): { pcm: Buffer; frames: number } {
  const bus = arrangeBacking(plan);
  if (plan.voice) {
    const voice = sing(writeMelody(plan, plan.voice.gender), plan.voice.gender, bus.left.length, plan.seed);
    addMono(bus, voice, 0, 1);
  }
  for (let i = 0; i < bus.left.length; i++) {
    bus.left[i] *= MASTER_GAIN;
    bus.right[i] *= MASTER_GAIN;
  }
  // The last bar fades out so the song ends rather than stops.
  return { pcm: toPcm16(bus, 0.02, Math.min(plan.barSeconds, 2.5)), frames: bus.left.length };
}

export function id3Comment(request: MusicRequest): string {
  const tags = (request.tags ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  if (request.make_instrumental && !tags.some((t) => t.toLowerCase() === 'instrumental')) tags.push('instrumental');
  return cleanTag(tags.join(', '), 250);
}

export async function renderMusic(request: MusicRequest, ffmpegPath: string): Promise<RenderedSong> {
  const plan = planSong(request);
  const { pcm, frames } = synthesizeSong(request, plan);
  const cover = renderCover(`${request.style ?? ''} ${request.prompt}`, seedFrom('cover', request.prompt, request.style));
  const tags: [string, string | undefined][] = [
    ['title', plan.title],
    ['artist', MUSIC_ARTIST],
    ['genre', plan.genre ? cleanTag(plan.genre, 60) : undefined],
    ['comment', id3Comment(request) || undefined],
  ];
  return withWorkDir(async (dir) => {
    const coverPath = join(dir, 'cover.png');
    const outPath = join(dir, 'audio.mp3');
    await writeFile(coverPath, cover);
    const args = [
      '-f', 's16le', '-ar', String(SAMPLE_RATE), '-ac', '2', '-i', 'pipe:0',
      '-i', coverPath,
      '-map', '0:a', '-map', '1:v',
      // LAME quality 7 ("fast, ok quality") halves encode time against the default 3; at 128k the
      // difference is inaudible for synthesised material and the render budget is 2 cores.
      '-c:a', 'libmp3lame', '-b:a', MP3_BITRATE, '-compression_level', '7',
      '-c:v', 'copy', '-disposition:v', 'attached_pic',
      '-metadata:s:v', 'title=Album cover', '-metadata:s:v', 'comment=Cover (front)',
      '-id3v2_version', '3',
      ...tags.flatMap(([k, v]) => (v ? ['-metadata', `${k}=${v}`] : [])),
      '-f', 'mp3', outPath,
    ];
    await runFfmpeg(ffmpegPath, args, { stdin: pcm, failure: 'Audio encoding failed' });
    return { audio: await readFile(outPath), cover, title: plan.title, durationSeconds: frames / SAMPLE_RATE, genre: plan.genre };
  });
}
