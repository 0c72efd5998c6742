/**
 * The only place that starts ffmpeg: argument arrays (never a shell), a hard time limit, and failures turned
 * into a RenderError whose message is safe for a buyer while the encoder's stderr rides along as the cause.
 */
import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { renderConfig } from '../config.js';
import { RenderError } from '../provider.js';

export const FFMPEG_TIMEOUT_MS = 120_000;
const STDERR_TAIL = 4_000;

/** FFMPEG_PATH, else the binary shipped in @ffmpeg-installer (absent in a bare Lambda: then a RenderError). */
export function defaultFfmpegPath(): string {
  const configured = renderConfig().ffmpegPath;
  if (configured) return configured;
  try {
    const require = createRequire(import.meta.url);
    return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch (cause) {
    throw new RenderError('The media encoder is not available', { cause });
  }
}

/**
 * Checked before any synthesis so a misconfigured encoder fails in milliseconds instead of after seconds
 * of wasted CPU; spawn errors are still handled in runFfmpeg for a binary that vanishes in between.
 */
export async function assertExecutable(ffmpegPath: string): Promise<void> {
  try {
    await access(ffmpegPath, constants.X_OK);
  } catch (cause) {
    throw new RenderError('The media encoder is not available', { cause });
  }
}

/** Feeds stdin; resolves when the chunk source is exhausted. Backpressure is honoured per chunk. */
export type StdinSource = Uint8Array | (() => AsyncIterable<Uint8Array> | Iterable<Uint8Array>);

export interface FfmpegOptions {
  stdin?: StdinSource;
  timeoutMs?: number;
  /** Buyer-facing wording of a failure, e.g. 'Audio encoding failed'. */
  failure: string;
}

export async function runFfmpeg(ffmpegPath: string, args: string[], options: FfmpegOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? FFMPEG_TIMEOUT_MS;
  const child = spawn(ffmpegPath, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args], {
    stdio: [options.stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'],
  });

  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal }));
  });

  try {
    const feeding = options.stdin && child.stdin ? feed(child.stdin, options.stdin, exited) : Promise.resolve();
    // A dead encoder breaks the pipe; the exit status below is the better explanation, so EPIPE is ignored.
    const [{ code, signal }] = await Promise.all([exited, feeding.catch(() => undefined)]);
    if (timedOut) throw new RenderError(`${options.failure}: the encoder timed out`, { cause: new Error(stderr) });
    if (code !== 0) {
      throw new RenderError(options.failure, {
        cause: new Error(`ffmpeg exited with ${code ?? signal}: ${stderr.trim()}`),
      });
    }
  } catch (error) {
    if (error instanceof RenderError) throw error;
    throw new RenderError(`${options.failure}: the media encoder could not be started`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** Stops early (rejects) when the pipe breaks or the process ends, so a generator is never left waiting. */
async function feed(stdin: NodeJS.WritableStream, source: StdinSource, exited: Promise<unknown>): Promise<void> {
  const chunks = source instanceof Uint8Array ? [source] : source();
  let broken = false;
  // A permanent listener: after the first EPIPE, later writes may error again and must not crash the process.
  stdin.on('error', () => (broken = true));
  const stopped = new Promise<never>((_, reject) => {
    stdin.once('error', reject);
    exited.then(
      () => reject(new Error('encoder exited')),
      (error) => reject(error),
    );
  });
  stopped.catch(() => undefined);
  for await (const chunk of chunks) {
    if (broken) throw new Error('encoder input closed');
    if (!stdin.write(chunk)) {
      await Promise.race([new Promise<void>((resolve) => stdin.once('drain', () => resolve())), stopped]);
    }
  }
  await Promise.race([new Promise<void>((resolve) => stdin.end(() => resolve())), stopped]);
}
