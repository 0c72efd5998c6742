/**
 * MiniMax Music through its HTTP API (no official Node SDK): one synchronous `POST /v1/music_generation` per song,
 * `Authorization: Bearer <key>`, the MP3 fetched from the URL the answer names (`output_format: "url"`, valid for
 * hours) and stored by the song base (lambdas/render/song.ts), which also makes the cover and answers checks.
 *
 * Mapping: prompt + style + tags + vocal gender ("female lead vocals") → `prompt` (≤ 2000 characters);
 * `custom_mode` → `lyrics` as supplied (a `[Verse]` tag added when they carry no section tags; ≤ 3500 characters);
 * no custom lyrics → `lyrics_optimizer: true` (the model writes them); `make_instrumental` → `is_instrumental: true`
 * and no lyrics; `audio_setting.format: "mp3"`.
 *
 * Errors ride in `base_resp.status_code` (HTTP 200) or in the HTTP status: 1026/1027 (sensitive input/output) →
 * ContentRefusedError with the content-policy message; 1002/1039 (rate limits), 1000/1001/1024 (vendor errors, timeouts),
 * HTTP 429 and 5xx → TransientRenderError; anything else (auth, balance, parameters) → RenderError with a generic
 * message. The full vendor answer goes to the logs (the song base logs it); the key never does.
 */
import type { MusicRequest } from '../../products/catalog.js';
import type { AdapterDeps } from '../adapter.js';
import { ContentRefusedError, RenderError, TransientRenderError, type RenderProvider } from '../provider.js';
import { FAILURE, SongProvider, songPrompt, type SongVendor, type VendorSong } from '../song.js';

export const DEFAULT_MINIMAX_BASE_URL = 'https://api.minimax.io';
export const DEFAULT_MINIMAX_MODEL = 'music-2.6';
const MAX_PROMPT = 2000;
const MAX_LYRICS = 3500;
const TRANSIENT_CODES = new Set([1000, 1001, 1002, 1024, 1033, 1039]);
const FILTERED_CODES = new Set([1026, 1027]);

/** The body of `POST /v1/music_generation` (exported for the fake and the tests). */
export interface MiniMaxMusicBody {
  model: string;
  prompt: string;
  lyrics?: string;
  lyrics_optimizer?: boolean;
  is_instrumental: boolean;
  audio_setting: { sample_rate: number; bitrate: number; format: 'mp3' };
  output_format: 'url' | 'hex';
}

export interface MiniMaxMusicAnswer {
  data?: { audio?: string; status?: number };
  extra_info?: { music_duration?: number; music_sample_rate?: number; music_channel?: number; bitrate?: number; music_size?: number };
  trace_id?: string;
  base_resp?: { status_code?: number; status_msg?: string };
}

/** The lyrics MiniMax sings: the buyer's, with a section tag when they have none (its lyrics are tag-structured). */
export function minimaxLyrics(lyrics: string): string {
  const text = lyrics.trim();
  return /^\s*\[[^\]\n]+\]\s*$/m.test(text) ? text : `[Verse]\n${text}`;
}

export function minimaxBody(request: MusicRequest, model: string): MiniMaxMusicBody {
  const instrumental = request.make_instrumental === true;
  const sings = !instrumental && request.custom_mode === true && Boolean(request.lyrics?.trim());
  const body: MiniMaxMusicBody = {
    model,
    prompt: songPrompt(request, { lyricsInPrompt: false, maxChars: MAX_PROMPT }),
    is_instrumental: instrumental,
    audio_setting: { sample_rate: 44100, bitrate: 256000, format: 'mp3' },
    output_format: 'url',
  };
  if (sings) body.lyrics = minimaxLyrics(request.lyrics!);
  else if (!instrumental) body.lyrics_optimizer = true;
  return body;
}

class MiniMaxVendor implements SongVendor {
  readonly name = 'minimax-music';

  constructor(
    private readonly baseUrl: string,
    private readonly model: string,
    private readonly apiKey: () => Promise<string>,
  ) {}

  async render(request: MusicRequest, signal: AbortSignal): Promise<VendorSong> {
    const body = minimaxBody(request, this.model);
    if (body.lyrics && body.lyrics.length > MAX_LYRICS) {
      throw new RenderError(`The lyrics are longer than this music model sings (${MAX_LYRICS} characters)`);
    }
    const response = await fetch(`${this.baseUrl}/v1/music_generation`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await this.apiKey()}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
    const text = await response.text();
    const vendorError = (message: string) => Object.assign(new Error(`${message}: HTTP ${response.status} ${text.slice(0, 2000)}`), { status: response.status });
    if (response.status === 429 || response.status >= 500) {
      throw new TransientRenderError('The music service is busy', { cause: vendorError('MiniMax answered') });
    }
    let answer: MiniMaxMusicAnswer;
    try {
      answer = JSON.parse(text) as MiniMaxMusicAnswer;
    } catch (cause) {
      throw new RenderError(FAILURE.unreadable, { cause: vendorError(`MiniMax answered with no JSON (${String(cause)})`) });
    }
    const code = answer.base_resp?.status_code ?? (response.ok ? 0 : -1);
    if (FILTERED_CODES.has(code)) throw new ContentRefusedError(FAILURE.filtered, { cause: vendorError('MiniMax refused') });
    if (TRANSIENT_CODES.has(code)) throw new TransientRenderError('The music service is busy', { cause: vendorError('MiniMax answered') });
    if (code !== 0 || !response.ok) throw new RenderError('The music service could not render this request', { cause: vendorError('MiniMax refused') });
    const audio = answer.data?.audio;
    if (typeof audio !== 'string' || audio === '') throw new RenderError(FAILURE.unreadable, { cause: vendorError('MiniMax answered without audio') });
    return { audio: await this.download(audio, signal), modelVersion: this.model };
  }

  /** `output_format: "url"`: the file is fetched from MiniMax's storage (no key: the URL is the grant). */
  private async download(location: string, signal: AbortSignal): Promise<Uint8Array> {
    if (!/^https?:\/\//.test(location)) {
      // A hex answer (output_format "hex") is the file itself.
      if (/^(?:[0-9a-f]{2})+$/i.test(location)) return Buffer.from(location, 'hex');
      throw new RenderError(FAILURE.unreadable, { cause: new Error(`MiniMax audio is neither a URL nor hex: ${location.slice(0, 80)}`) });
    }
    const response = await fetch(location, { signal });
    if (!response.ok) {
      const detail = Object.assign(new Error(`download of ${new URL(location).pathname} answered HTTP ${response.status}`), { status: response.status });
      throw new TransientRenderError('The music file could not be downloaded', { cause: detail });
    }
    return new Uint8Array(await response.arrayBuffer());
  }
}

/** Built once per process (lambdas/workflow/render-function.ts): endpoint, model and key reader fixed at cold start. */
export function create(deps: AdapterDeps): RenderProvider {
  const baseUrl = (deps.env.MINIMAX_API_BASE_URL || DEFAULT_MINIMAX_BASE_URL).replace(/\/+$/, '');
  const model = deps.env.MINIMAX_MUSIC_MODEL || DEFAULT_MINIMAX_MODEL;
  return new SongProvider(new MiniMaxVendor(baseUrl, model, () => deps.secret('minimax')), deps);
}
