/**
 * What every agent_video adapter shares (docs/providers.md): the product is one 8 s 720p clip with audio,
 * whatever the vendor. The frame plan (16:9 and 9:16 native; 1:1, which the Veo family does not make, rendered 16:9
 * and centre-cropped to 720x720), the duration mapping recorded with the render, the stored file
 * (renders/<jobId>/video.mp4, written by the check task so the bytes never ride in Step Functions state), the
 * buyer-safe messages, and the errors that are transport faults rather than the vendor's answer.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { VideoRequest } from '../products/catalog.js';
import { assertExecutable, defaultFfmpegPath, runFfmpeg } from './local/ffmpeg.js';
import { withWorkDir } from './local/workdir.js';
import { RenderError, TransientRenderError, type AssetStore, type RenderStatus } from './provider.js';

export type VideoAspectRatio = NonNullable<VideoRequest['aspectRatio']>;

/** The one length rendered for this product (the models also do 4 and 6 s, never 3–15). */
export const VIDEO_SECONDS = 8;
export const VIDEO_RESOLUTION = '720p';
/** A clip larger than this is not a 720p 8 s clip. */
export const MAX_VIDEO_BYTES = 200 * 1024 * 1024;
export const CROP_TIMEOUT_MS = 90_000;

/** What the buyer sees when a video render fails (the job's `error`); the vendor's own words go to the logs. */
export const VIDEO_MESSAGES = {
  filtered: "The video model's safety filter refused this prompt; try describing the scene differently",
  failed: 'The video model could not render this prompt',
  refused: 'The video model refused the request',
  unavailable: 'The video service is not available',
  unreadable: 'The video service returned an unreadable result',
  busy: 'The video service is busy',
} as const;

/** The frame and length a request becomes, recorded with the render so the check needs nothing else. */
export interface VideoFrame {
  /** The frame shape the buyer asked for, and whether the 16:9 render must be cropped to it. */
  aspectRatio: VideoAspectRatio;
  crop: boolean;
  requestedDurationSeconds: number;
  durationSeconds: number;
  width: number;
  height: number;
}

export function planVideoFrame(request: VideoRequest): VideoFrame {
  const aspectRatio: VideoAspectRatio = request.aspectRatio ?? '16:9';
  const crop = aspectRatio === '1:1';
  const { width, height } = aspectRatio === '9:16' ? { width: 720, height: 1280 } : crop ? { width: 720, height: 720 } : { width: 1280, height: 720 };
  return { aspectRatio, crop, requestedDurationSeconds: request.durationSeconds ?? VIDEO_SECONDS, durationSeconds: VIDEO_SECONDS, width, height };
}

/** The frame the model is asked for: the buyer's, except a square one, which is rendered 16:9 and cropped. */
export function renderedAspectRatio(frame: VideoFrame): '16:9' | '9:16' {
  return frame.crop ? '16:9' : (frame.aspectRatio as '16:9' | '9:16');
}

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

const JOB_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function assertJobId(jobId: string): string {
  if (!JOB_ID.test(jobId)) throw new RenderError('Invalid render id');
  return jobId;
}

/** Where a job's clip is stored. */
export function videoKey(jobId: string): string {
  return `renders/${assertJobId(jobId)}/video.mp4`;
}

/** Where an adapter records a job's render (a retried submit finds it there and does not pay twice). */
export function jobRecordKey(provider: string, jobId: string): string {
  return `renders/${assertJobId(jobId)}/${provider}.json`;
}

export async function readRecord<T>(store: AssetStore, key: string): Promise<T | undefined> {
  const found = await store.get(key);
  return found ? (JSON.parse(Buffer.from(found.body).toString('utf8')) as T) : undefined;
}

/** The finished clip: cropped when the buyer asked for a square, stored under the job, reported by key. */
export async function storeVideo(store: AssetStore, record: VideoFrame & { jobId: string; model: string }, video: Uint8Array): Promise<{ status: RenderStatus; bytes: number }> {
  let bytes = video;
  if (record.crop) {
    const ffmpeg = defaultFfmpegPath();
    await assertExecutable(ffmpeg);
    bytes = await cropToSquare(bytes, ffmpeg);
  }
  const key = videoKey(record.jobId);
  await store.put(key, bytes, 'video/mp4');
  return { status: videoDone(record, key), bytes: bytes.byteLength };
}

export function videoDone(record: VideoFrame & { model: string }, key: string): RenderStatus {
  return {
    state: 'done',
    outputs: [{ role: 'video', contentType: 'video/mp4', key }],
    metadata: { width: record.width, height: record.height, durationSeconds: record.durationSeconds, modelVersion: record.model },
  };
}

/**
 * The errors that are the connection's, not the vendor's answer: no answer in time or an unreachable endpoint
 * (retried by the state machine), a body that is not JSON (not retried). Undefined for anything else.
 */
export function transportFailure(error: unknown): Error | undefined {
  const name = (error as { name?: string })?.name;
  if (name === 'AbortError' || name === 'TimeoutError') return new TransientRenderError(`${VIDEO_MESSAGES.busy} (no answer in time)`, { cause: error });
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) return new TransientRenderError(`${VIDEO_MESSAGES.busy} (unreachable)`, { cause: error });
  if (error instanceof SyntaxError) return new RenderError(VIDEO_MESSAGES.unreadable, { cause: error });
  return undefined;
}

/** `text` with every occurrence of the key replaced (for logging a vendor's error, which may echo a header). */
export function redactKey(text: string, key: string | undefined): string {
  return key ? text.split(key).join('[redacted]') : text;
}
