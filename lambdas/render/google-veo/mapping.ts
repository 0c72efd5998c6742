/**
 * How an agent_video request becomes a Veo call, and what the buyer gets back (issue 10; provider notes §7):
 *
 *   prompt          → instances[0].prompt (the spec asks buyers to name the sounds: Veo generates audio from it)
 *   durationSeconds → always 8 (the product is the 8 s clip; Veo also does 4 and 6, never 3–15); the requested value
 *                     stays on the job's request and the rendered one is the job's durationSeconds
 *   aspectRatio     → 16:9 and 9:16 as is; 1:1 (which Veo does not make) is rendered 16:9 and centre-cropped to 720x720
 *   resolution      → "720p"
 *   audio           → not sent: the Gemini API refuses `generateAudio` and always generates audio
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GenerateVideosParameters } from '@google/genai';
import type { VideoRequest } from '../../products/catalog.js';
import { runFfmpeg } from '../local/ffmpeg.js';
import { withWorkDir } from '../local/workdir.js';

export type VideoAspectRatio = NonNullable<VideoRequest['aspectRatio']>;

/** The one length Veo renders for this product. */
export const VEO_SECONDS = 8;
export const VEO_RESOLUTION = '720p';

export interface VeoPlan {
  /** The SDK call's parameters (model filled in by the adapter). */
  params: Omit<GenerateVideosParameters, 'model'>;
  /** The frame shape the buyer asked for, and whether the 16:9 render must be cropped to it. */
  aspectRatio: VideoAspectRatio;
  crop: boolean;
  requestedDurationSeconds: number;
  durationSeconds: number;
  width: number;
  height: number;
}

export function planVeoRender(request: VideoRequest): VeoPlan {
  const aspectRatio: VideoAspectRatio = request.aspectRatio ?? '16:9';
  const crop = aspectRatio === '1:1';
  const { width, height } = aspectRatio === '9:16' ? { width: 720, height: 1280 } : aspectRatio === '1:1' ? { width: 720, height: 720 } : { width: 1280, height: 720 };
  return {
    params: {
      source: { prompt: request.prompt },
      config: { aspectRatio: crop ? '16:9' : aspectRatio, durationSeconds: VEO_SECONDS, resolution: VEO_RESOLUTION, numberOfVideos: 1 },
    },
    aspectRatio,
    crop,
    requestedDurationSeconds: request.durationSeconds ?? VEO_SECONDS,
    durationSeconds: VEO_SECONDS,
    width,
    height,
  };
}

export const CROP_TIMEOUT_MS = 90_000;

/**
 * The centre 720x720 of a 16:9 clip (any height scaled to 720), audio copied untouched. ultrafast: the crop runs in
 * the check task, whose CPU is a fraction of a core, and CRF 20 keeps the re-encode close to the source.
 */
export async function cropToSquare(video: Uint8Array, ffmpegPath: string): Promise<Buffer> {
  return withWorkDir(async (dir) => {
    const input = join(dir, 'source.mp4');
    const output = join(dir, 'square.mp4');
    await writeFile(input, video);
    await runFfmpeg(
      ffmpegPath,
      [
        '-i', input,
        '-vf', 'crop=ih:ih,scale=720:720,setsar=1',
        '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '20', '-pix_fmt', 'yuv420p',
        '-c:a', 'copy',
        '-movflags', '+faststart',
        '-f', 'mp4', output,
      ],
      { failure: 'Video cropping failed', timeoutMs: CROP_TIMEOUT_MS },
    );
    return readFile(output);
  });
}
