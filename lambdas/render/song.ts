/**
 * What the song adapters (minimax-music, google-lyria) share: a vendor renders the MP3 synchronously inside Submit
 * render (both APIs answer in one call); this module stores it, reads its length from the file, gets the cover art
 * from the configured image provider and answers Check render from a manifest in the asset store, as the local
 * synthesiser does. Only keys ride in Step Functions state, never bytes.
 *
 * Store layout per job: renders/<jobId>/{audio.mp3, manifest.json}; the cover is the image provider's render of job
 * `<jobId>-cover` (or renders/<jobId>/cover.png when that provider refused the cover prompt).
 *
 * Submit, in order: (1) a manifest already past the audio step → nothing to render again (a retried submit after a
 * vendor call that finished never pays for a second song); (2) the vendor call under one deadline; (3) the MP3 checked
 * and measured, stored, the manifest written; (4) the cover submitted and, when the image provider is synchronous,
 * finished. A refusal (RenderError) is written to the manifest; a transient error is not, so the state machine's
 * retry starts again from the last step that finished.
 */
import type { MusicRequest, ProductId } from '../products/catalog.js';
import { MAX_PROMPT_CHARS } from '../products/products.js';
import { logger } from '../shared/logger.js';
import type { AdapterDeps } from './adapter.js';
import { renderCover } from './local/image/render-image.js';
import { manifestKey, renderPrefix } from './local/provider.js';
import { seedFrom } from './local/seed.js';
import { titleFrom } from './local/text.js';
import { NotMp3Error, mp3DurationSeconds } from './mp3.js';
import {
  ContentRefusedError,
  RenderError,
  TransientRenderError,
  type RenderMetadata,
  type RenderOutput,
  type RenderProvider,
  type RenderRequest,
  type RenderStatus,
} from './provider.js';

/** What a vendor's model gave back for one song. */
export interface VendorSong {
  /** The MP3 file. */
  audio: Uint8Array;
  /** The model that rendered it (the job's `model_version`). */
  modelVersion: string;
  /** Text the model returned with the audio (Lyria: lyrics and structure), used for the title. */
  text?: string;
}

export interface SongVendor {
  readonly name: string;
  /**
   * One render. Throws RenderError for a refusal the buyer should read (content filter, lyrics too long) and
   * TransientRenderError for what a retry may cure (429, 5xx); an abort of `signal` is the per-call deadline.
   */
  render(request: MusicRequest, signal: AbortSignal): Promise<VendorSong>;
}

/** Default deadline of one vendor call (MUSIC_CALL_TIMEOUT_MS): inside Submit render's 300 s, leaving time to store. */
export const DEFAULT_CALL_TIMEOUT_MS = 240_000;

type SongManifest =
  | { state: 'done'; outputs: RenderOutput[]; metadata: RenderMetadata }
  | { state: 'failed'; error: string; refusal?: 'content' }
  /** The audio is stored; the cover is not asked for yet (its submit failed transiently). */
  | { state: 'audio'; audio: RenderOutput; metadata: RenderMetadata }
  /** The audio is stored and the image provider is still rendering the cover. */
  | { state: 'cover'; audio: RenderOutput; metadata: RenderMetadata; coverRenderId: string };

export const FAILURE = {
  filtered: 'The music model declined this request (content policy). Try a different prompt.',
  unreadable: 'The music service returned an unreadable response',
  noAudio: 'The music service returned no playable audio',
  cover: 'The cover art could not be made',
} as const;

/**
 * One prompt from the request: the directives first (a vendor's length cap then trims the buyer's free text, not
 * them): instrumental or the lead vocal's gender, the style, the tags; then the prompt. Lyrics are added by the
 * Lyria adapter only (MiniMax takes them in their own field).
 */
export function songPrompt(request: MusicRequest, options: { lyricsInPrompt: boolean; maxChars?: number }): string {
  const directives: string[] = [];
  if (request.make_instrumental) directives.push('instrumental, no vocals');
  else if (request.vocal_gender) directives.push(request.vocal_gender === 'f' ? 'female lead vocals' : 'male lead vocals');
  if (request.style?.trim()) directives.push(`style: ${request.style.trim()}`);
  const tags = (request.tags ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  if (tags.length) directives.push(`tags: ${tags.join(', ')}`);
  let text = [directives.join('; '), request.prompt.trim()].filter(Boolean).join('\n');
  if (options.lyricsInPrompt && request.custom_mode && !request.make_instrumental && request.lyrics?.trim()) {
    text += `\n\nLyrics (sing exactly):\n${request.lyrics.trim()}`;
  }
  return options.maxChars ? text.slice(0, options.maxChars) : text;
}

/** A title from the model's text ("Title: …", a heading, else the first sung line), else from the prompt. */
export function songTitle(request: MusicRequest, text?: string): string {
  const lines = (text ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  for (const line of lines.slice(0, 3)) {
    const named = /^(?:#+\s*|\*\*)?(?:song\s+)?title\s*[:\-–]\s*(.+?)(?:\*\*)?$/i.exec(line) ?? /^#+\s*(.+)$/.exec(line);
    if (named) return titleFrom(named[1], 'Untitled', 8);
  }
  const sung = [...lines, ...(request.custom_mode ? (request.lyrics ?? '').split('\n') : [])]
    .map((l) => l.trim())
    .find((l) => l && !/^[[(].*[\])]$/.test(l) && !/^(?:title|lyrics|structure)\b/i.test(l));
  return sung ? titleFrom(sung, 'Untitled', 5) : titleFrom(request.prompt, 'Untitled Song');
}

export function callTimeoutMs(env: NodeJS.ProcessEnv): number {
  const configured = Number(env.MUSIC_CALL_TIMEOUT_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_CALL_TIMEOUT_MS;
}

/**
 * The deadline (an abort) and a network failure are transient; the vendor classifies its own answers; anything else
 * (a missing API key secret, a bug) goes on unchanged and fails the job with the generic message.
 */
function classify(error: unknown, signal: AbortSignal): unknown {
  if (error instanceof RenderError || error instanceof TransientRenderError) return error;
  if (signal.aborted) return new TransientRenderError('The music service did not answer in time', { cause: error });
  if (error instanceof TypeError && error.message === 'fetch failed') return new TransientRenderError('The music service could not be reached', { cause: error });
  return error;
}

/** The full provider error for the logs: name, message, status and body, never a request header (the key). */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { value: String(error).slice(0, 2000) };
  const cause = error.cause instanceof Error ? describeError(error.cause) : error.cause === undefined ? undefined : String(error.cause).slice(0, 2000);
  const status = (error as { status?: unknown }).status;
  return { name: error.name, message: error.message.slice(0, 4000), ...(status !== undefined ? { status } : {}), ...(cause ? { cause } : {}) };
}

export class SongProvider implements RenderProvider {
  readonly name: string;

  constructor(
    private readonly vendor: SongVendor,
    private readonly deps: Pick<AdapterDeps, 'store' | 'imageProvider' | 'env'>,
  ) {
    this.name = vendor.name;
  }

  async submit(job: RenderRequest): Promise<{ renderId: string }> {
    if (job.product !== 'create_music') throw new RenderError(`${this.name} renders songs only`);
    const prefix = renderPrefix(job.jobId);
    const existing = await this.readManifest(job.jobId);
    if (existing?.state === 'done' || existing?.state === 'cover') return { renderId: job.jobId };
    let song: SongManifest & { state: 'audio' };
    if (existing?.state === 'audio') song = existing;
    else {
      try {
        song = await this.renderAudio(job.jobId, prefix, job.request);
      } catch (error) {
        if (error instanceof RenderError) {
          const refusal = error instanceof ContentRefusedError ? { refusal: error.refusal } : {};
          await this.writeManifest(job.jobId, { state: 'failed', error: error.message, ...refusal }).catch(() => undefined);
        }
        throw error;
      }
    }
    await this.writeManifest(job.jobId, await this.coverStep(job.jobId, prefix, job.request, song));
    return { renderId: job.jobId };
  }

  async check(renderId: string, _product: ProductId): Promise<RenderStatus> {
    const manifest = await this.readManifest(renderId);
    if (!manifest || manifest.state === 'audio') return { state: 'running' };
    if (manifest.state === 'failed') return { state: 'failed', error: manifest.error, ...(manifest.refusal ? { refusal: manifest.refusal } : {}) };
    if (manifest.state === 'done') return { state: 'done', outputs: manifest.outputs, metadata: manifest.metadata };
    // An image provider that renders asynchronously: Check render finishes the song when the cover is ready. It only
    // reads (the Check task may not write), so this is asked again on every check until then.
    const status = await (await this.deps.imageProvider()).check(manifest.coverRenderId, 'agent_image');
    if (status.state === 'running') return { state: 'running' };
    if (status.state === 'failed') {
      logger.error('song cover failed', { renderId, provider: this.name, error: status.error });
      return { state: 'failed', error: FAILURE.cover };
    }
    const cover = coverOutput(status.outputs);
    if (!cover) return { state: 'failed', error: FAILURE.cover };
    return { state: 'done', outputs: [manifest.audio, cover], metadata: manifest.metadata };
  }

  private async renderAudio(jobId: string, prefix: string, request: MusicRequest): Promise<SongManifest & { state: 'audio' }> {
    const timeoutMs = callTimeoutMs(this.deps.env);
    const signal = AbortSignal.timeout(timeoutMs);
    const started = Date.now();
    let song: VendorSong;
    try {
      song = await this.vendor.render(request, signal);
    } catch (error) {
      const failure = classify(error, signal);
      logger.error('music provider call failed', { jobId, provider: this.name, outcome: (failure as Error).name, timeoutMs, ms: Date.now() - started, error: describeError(error) });
      throw failure;
    }
    let durationSeconds: number;
    try {
      durationSeconds = mp3DurationSeconds(song.audio);
    } catch (error) {
      if (!(error instanceof NotMp3Error)) throw error;
      logger.error('music provider answered without an MP3', { jobId, provider: this.name, bytes: song.audio.length, head: Buffer.from(song.audio.subarray(0, 16)).toString('hex') });
      throw new RenderError(FAILURE.noAudio, { cause: error });
    }
    const audio: RenderOutput = { role: 'audio', contentType: 'audio/mpeg', key: `${prefix}/audio.mp3` };
    await this.deps.store.put(audio.key!, song.audio, 'audio/mpeg');
    const metadata: RenderMetadata = {
      title: songTitle(request, song.text),
      durationSeconds: Math.round(durationSeconds * 100) / 100,
      modelVersion: song.modelVersion,
    };
    logger.info('song rendered', { jobId, provider: this.name, modelVersion: song.modelVersion, bytes: song.audio.length, durationSeconds: metadata.durationSeconds, ms: Date.now() - started });
    const manifest = { state: 'audio' as const, audio, metadata };
    await this.writeManifest(jobId, manifest);
    return manifest;
  }

  /**
   * The cover from the configured image provider (job `<jobId>-cover`, a square PNG of the song's prompt). A provider
   * that refuses the cover prompt does not cost the buyer the song: the synthesiser's procedural cover stands in.
   */
  private async coverStep(jobId: string, prefix: string, request: MusicRequest, song: SongManifest & { state: 'audio' }): Promise<SongManifest> {
    const image = await this.deps.imageProvider();
    const prompt = `Album cover art for the song "${song.metadata.title}". ${request.style ? `${request.style}. ` : ''}${request.prompt}`.slice(0, MAX_PROMPT_CHARS);
    try {
      const { renderId } = await image.submit({ jobId: `${jobId}-cover`, product: 'agent_image', request: { prompt, aspectRatio: '1:1', outputFormat: 'png' } });
      const status = await image.check(renderId, 'agent_image');
      if (status.state === 'running') return { ...song, state: 'cover', coverRenderId: renderId };
      const cover = status.state === 'done' ? coverOutput(status.outputs) : undefined;
      if (cover) return { state: 'done', outputs: [song.audio, cover], metadata: song.metadata };
      logger.warn('image provider made no cover; using the procedural one', { jobId, provider: image.name, status });
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      logger.warn('image provider refused the cover; using the procedural one', { jobId, provider: image.name, error: describeError(error) });
    }
    const key = `${prefix}/cover.png`;
    await this.deps.store.put(key, renderCover(`${request.style ?? ''} ${request.prompt}`, seedFrom('cover', request.prompt, request.style)), 'image/png');
    return { state: 'done', outputs: [song.audio, { role: 'cover', contentType: 'image/png', key }], metadata: song.metadata };
  }

  private async readManifest(renderId: string): Promise<SongManifest | undefined> {
    const found = await this.deps.store.get(manifestKey(renderId));
    return found ? (JSON.parse(Buffer.from(found.body).toString('utf8')) as SongManifest) : undefined;
  }

  private async writeManifest(renderId: string, manifest: SongManifest): Promise<void> {
    await this.deps.store.put(manifestKey(renderId), Buffer.from(JSON.stringify(manifest)), 'application/json');
  }
}

function coverOutput(outputs: RenderOutput[]): RenderOutput | undefined {
  const image = outputs.find((o) => o.role === 'image');
  return image ? { ...image, role: 'cover' } : undefined;
}
