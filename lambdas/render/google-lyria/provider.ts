/**
 * Google Lyria 3 through `@google/genai`: one synchronous `models.generateContent` per song with the Lyria model
 * (LYRIA_MODEL, `lyria-3-pro-preview` by default); the answer carries the MP3 inline (base64) and text (the lyrics and
 * structure), which the song base (lambdas/render/song.ts) stores, measures, titles and gives a cover.
 *
 * Mapping (Lyria takes everything in the prompt): instrumental or "female/male lead vocals", `style`, `tags`, then the
 * buyer's prompt; `custom_mode` appends "Lyrics (sing exactly):" and the lyrics verbatim; `make_instrumental` writes
 * "instrumental, no vocals" and drops the lyrics.
 *
 * Outcomes: `promptFeedback.blockReason`, or a candidate finished for SAFETY / PROHIBITED_CONTENT / BLOCKLIST / SPII /
 * RECITATION → ContentRefusedError with the content-policy message; HTTP 429, 408 and 5xx → TransientRenderError (the SDK's
 * own retries are off: the state machine retries); another API error, a body that is not JSON, or an answer without
 * audio → RenderError. The key never reaches a log: errors are re-thrown with it redacted.
 */
import { ApiError, GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import type { MusicRequest } from '../../products/catalog.js';
import type { AdapterDeps } from '../adapter.js';
import { ContentRefusedError, RenderError, TransientRenderError, type RenderProvider } from '../provider.js';
import { FAILURE, SongProvider, songPrompt, type SongVendor, type VendorSong } from '../song.js';

export const DEFAULT_LYRIA_MODEL = 'lyria-3-pro-preview';
/** The Gemini API's public host (the SDK's default), unless GEMINI_API_BASE_URL points elsewhere (the local fake). */
const GEMINI_API_BASE_URL = 'https://generativelanguage.googleapis.com';
const BLOCKING_FINISH = new Set(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION', 'IMAGE_SAFETY']);

/** The one prompt Lyria is sent (exported for tests). */
export function lyriaPrompt(request: MusicRequest): string {
  return songPrompt(request, { lyricsInPrompt: true });
}

class LyriaVendor implements SongVendor {
  readonly name = 'google-lyria';
  private client?: Promise<{ ai: GoogleGenAI; apiKey: string }>;

  constructor(
    private readonly baseUrl: string,
    private readonly model: string,
    private readonly apiKey: () => Promise<string>,
  ) {}

  /** The SDK client, built once per process on first use (the key comes from Secrets Manager). */
  private sdk(): Promise<{ ai: GoogleGenAI; apiKey: string }> {
    this.client ??= this.apiKey().then((apiKey) => ({ apiKey, ai: new GoogleGenAI({ apiKey, httpOptions: { baseUrl: this.baseUrl } }) }));
    this.client.catch(() => (this.client = undefined));
    return this.client;
  }

  async render(request: MusicRequest, signal: AbortSignal): Promise<VendorSong> {
    const { ai, apiKey } = await this.sdk();
    let response: GenerateContentResponse;
    try {
      response = await ai.models.generateContent({ model: this.model, contents: lyriaPrompt(request), config: { abortSignal: signal } });
    } catch (error) {
      throw classify(error, apiKey, signal);
    }
    const summary = () => redacted(JSON.stringify({ promptFeedback: response.promptFeedback, candidates: response.candidates?.map((c) => ({ finishReason: c.finishReason, finishMessage: c.finishMessage, safetyRatings: c.safetyRatings })) }), apiKey);
    const candidate = response.candidates?.[0];
    if (response.promptFeedback?.blockReason || (candidate?.finishReason && BLOCKING_FINISH.has(candidate.finishReason))) {
      throw new ContentRefusedError(FAILURE.filtered, { cause: new Error(`Lyria blocked the request: ${summary()}`) });
    }
    const parts = candidate?.content?.parts ?? [];
    const audio = parts.find((p) => p.inlineData?.data && /^audio\//.test(p.inlineData.mimeType ?? ''))?.inlineData;
    if (!audio?.data) throw new RenderError(FAILURE.noAudio, { cause: new Error(`Lyria answered without audio: ${summary()}`) });
    const text = parts.filter((p) => typeof p.text === 'string' && !p.thought).map((p) => p.text).join('\n');
    return { audio: Buffer.from(audio.data, 'base64'), modelVersion: response.modelVersion || this.model, text };
  }
}

function redacted(text: string, apiKey: string): string {
  return apiKey ? text.split(apiKey).join('[redacted]') : text;
}

function classify(error: unknown, apiKey: string, signal: AbortSignal): unknown {
  if (signal.aborted) return error; // the song base turns the deadline into a TransientRenderError
  const message = redacted(error instanceof Error ? error.message : String(error), apiKey).slice(0, 4000);
  if (error instanceof ApiError) {
    const cause = Object.assign(new Error(`Gemini API answered HTTP ${error.status}: ${message}`), { status: error.status });
    if (error.status === 429 || error.status === 408 || error.status >= 500) return new TransientRenderError('The music service is busy', { cause });
    return new RenderError('The music service could not render this request', { cause });
  }
  // The body of a 200 that is not JSON (the SDK's response.json() throws).
  if (error instanceof SyntaxError) return new RenderError(FAILURE.unreadable, { cause: new Error(`Gemini API answered with no JSON: ${message}`) });
  if (error instanceof TypeError && error.message === 'fetch failed') return new TransientRenderError('The music service could not be reached', { cause: new Error(message) });
  return error;
}

/** Built once per process (lambdas/workflow/render-function.ts): endpoint, model and key reader fixed at cold start. */
export function create(deps: AdapterDeps): RenderProvider {
  const baseUrl = (deps.env.GEMINI_API_BASE_URL || GEMINI_API_BASE_URL).replace(/\/+$/, '');
  const model = deps.env.LYRIA_MODEL || DEFAULT_LYRIA_MODEL;
  return new SongProvider(new LyriaVendor(baseUrl, model, () => deps.secret('gemini')), deps);
}
