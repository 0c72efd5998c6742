/**
 * The song adapters (lambdas/render/minimax-music, lambdas/render/google-lyria) against their wire-level fakes on
 * loopback: no mock of fetch or of an SDK. Each request's mapping is read from what the fake received; the files are
 * decoded (ffprobe, PNG header); each failure marker ends as the port promises (RenderError: failed with a message a
 * buyer may read; TransientRenderError: retried by the state machine).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MusicRequest } from '../../lambdas/products/catalog.js';
import { LocalRenderProvider } from '../../lambdas/render/local/provider.js';
import { ContentRefusedError, RenderError, TransientRenderError, type RenderProvider } from '../../lambdas/render/provider.js';
import { create as createMiniMax } from '../../lambdas/render/minimax-music/provider.js';
import { create as createLyria } from '../../lambdas/render/google-lyria/provider.js';
import { FAILURE } from '../../lambdas/render/song.js';
import { FileAssetStore } from '../../lambdas/store/file-assets.js';
import { logger } from '../../lambdas/shared/logger.js';
import { startMiniMaxFake, type MiniMaxFake } from '../../lib/local/providers/minimax.js';
import { startGeminiFake, type GeminiFake } from '../../lib/local/providers/gemini.js';
import { ffprobe, pngSize } from '../support/media.js';

const KEY = 'component-test-minimax-key';
let dir: string;
let store: FileAssetStore;
let minimax: MiniMaxFake;
let gemini: GeminiFake;
let jobs = 0;
const jobId = () => `job-${process.pid}-${++jobs}`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'music-adapters-'));
  store = new FileAssetStore(dir, 'http://assets.test');
  minimax = await startMiniMaxFake({ stateDir: dir, apiKey: KEY, log: () => {} });
  gemini = await startGeminiFake({ stateDir: dir, apiKey: KEY, log: () => {} });
});
afterAll(async () => {
  await minimax?.stop();
  await gemini?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The adapter as the composition root builds it, with the local synthesiser as the configured image provider. */
function minimaxAdapter(options: { key?: string; timeoutMs?: number; imageProvider?: RenderProvider } = {}): RenderProvider {
  const image = options.imageProvider ?? new LocalRenderProvider(store);
  return createMiniMax({
    store,
    secret: async () => options.key ?? KEY,
    imageProvider: async () => image,
    env: { MINIMAX_API_BASE_URL: minimax.url, MUSIC_CALL_TIMEOUT_MS: String(options.timeoutMs ?? 60_000) },
  });
}

function lyriaAdapter(options: { key?: string; timeoutMs?: number } = {}): RenderProvider {
  const image = new LocalRenderProvider(store);
  return createLyria({
    store,
    secret: async () => options.key ?? KEY,
    imageProvider: async () => image,
    env: { GEMINI_API_BASE_URL: gemini.url, MUSIC_CALL_TIMEOUT_MS: String(options.timeoutMs ?? 60_000) },
  });
}

const song = (request: Partial<MusicRequest>): MusicRequest => ({ prompt: 'a short folk tune about rain', ...request }) as MusicRequest;

async function render(provider: RenderProvider, request: MusicRequest) {
  const id = jobId();
  const { renderId } = await provider.submit({ jobId: id, product: 'create_music', request });
  const status = await provider.check(renderId, 'create_music');
  return { id, renderId, status };
}

async function failure(provider: RenderProvider, request: MusicRequest): Promise<Error> {
  const error = await provider.submit({ jobId: jobId(), product: 'create_music', request }).then(
    () => new Error('submit succeeded'),
    (e: Error) => e,
  );
  return error;
}

/** The body of the last music_generation request the fake received. */
const lastBody = () => minimax.requests.filter((r) => r.path === '/v1/music_generation').at(-1)!.body as Record<string, any>;

describe('minimax-music: the request MiniMax receives', () => {
  it('a song with vocals: prompt + style + tags + "female lead vocals", lyrics written by the model, MP3 asked for, the key as Bearer', async () => {
    const { status } = await render(minimaxAdapter(), song({ style: 'indie folk', tags: 'rain, acoustic', vocal_gender: 'f' }));
    expect(status.state).toBe('done');
    const body = lastBody();
    expect(minimax.requests.filter((r) => r.path === '/v1/music_generation').at(-1)!.authorized).toBe(true);
    expect(body).toMatchObject({ model: 'music-2.6', is_instrumental: false, lyrics_optimizer: true, output_format: 'url', audio_setting: { format: 'mp3' } });
    expect(body.lyrics).toBeUndefined();
    expect(body.prompt).toContain('female lead vocals');
    expect(body.prompt).toContain('style: indie folk');
    expect(body.prompt).toContain('tags: rain, acoustic');
    expect(body.prompt).toContain('a short folk tune about rain');
  });

  it('custom_mode: the supplied lyrics in `lyrics`, exactly, under a section tag; "male lead vocals"', async () => {
    const lyrics = 'Rain on the window pane\nI hear you call my name';
    const { status } = await render(minimaxAdapter(), song({ custom_mode: true, lyrics, vocal_gender: 'm' }));
    const body = lastBody();
    expect(body.lyrics).toBe(`[Verse]\n${lyrics}`);
    expect(body.lyrics_optimizer).toBeUndefined();
    expect(body.prompt).toContain('male lead vocals');
    expect(body.prompt).not.toContain('female');
    expect(status.state === 'done' && status.metadata.title).toBe('Rain Window Pane');
  });

  it('lyrics that already carry section tags are sent as written', async () => {
    const lyrics = '[Chorus]\nRain rain rain\n[Bridge]\nSun comes out';
    await render(minimaxAdapter(), song({ custom_mode: true, lyrics }));
    expect(lastBody().lyrics).toBe(lyrics);
  });

  it('make_instrumental: is_instrumental, no lyrics (even custom ones), "instrumental, no vocals" and no vocal gender', async () => {
    await render(minimaxAdapter(), song({ make_instrumental: true, custom_mode: true, lyrics: 'not to be sung', vocal_gender: 'f' }));
    const body = lastBody();
    expect(body.is_instrumental).toBe(true);
    expect(body.lyrics).toBeUndefined();
    expect(body.lyrics_optimizer).toBeUndefined();
    expect(body.prompt).toContain('instrumental, no vocals');
    expect(body.prompt).not.toContain('lead vocals');
  });
});

describe('minimax-music: what is stored', () => {
  it('a real MP3 at renders/<jobId>/audio.mp3 whose duration is the file’s, a PNG cover from the image provider, the model as model_version', async () => {
    const { id, status } = await render(minimaxAdapter(), song({ vocal_gender: 'f' }));
    if (status.state !== 'done') throw new Error(`not done: ${JSON.stringify(status)}`);
    const audio = status.outputs.find((o) => o.role === 'audio')!;
    const cover = status.outputs.find((o) => o.role === 'cover')!;
    expect(audio).toEqual({ role: 'audio', contentType: 'audio/mpeg', key: `renders/${id}/audio.mp3` });
    const mp3 = (await store.get(audio.key!))!;
    expect(mp3.contentType).toBe('audio/mpeg');
    const probe = ffprobe(Buffer.from(mp3.body), 'mp3');
    expect(probe.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('mp3');
    expect(status.metadata.durationSeconds).toBeCloseTo(Number(probe.format.duration), 1);
    expect(status.metadata.modelVersion).toBe('music-2.6');
    expect(status.metadata.title).toBe('Short Folk Rain');
    // The cover is the configured image provider's render of the derived job `<jobId>-cover`.
    expect(cover.key).toBe(`renders/${id}-cover/image.png`);
    const png = (await store.get(cover.key!))!;
    expect(cover.contentType).toBe('image/png');
    expect(pngSize(Buffer.from(png.body))).toEqual({ width: 1024, height: 1024 });
  });

  it('a retried submit after a finished render reuses the stored song: MiniMax is not asked twice', async () => {
    const provider = minimaxAdapter();
    const id = jobId();
    const request = song({ prompt: 'a short sea shanty' });
    await provider.submit({ jobId: id, product: 'create_music', request });
    const calls = minimax.requests.length;
    const first = await provider.check(id, 'create_music');
    await provider.submit({ jobId: id, product: 'create_music', request });
    expect(minimax.requests.length).toBe(calls);
    expect(await provider.check(id, 'create_music')).toEqual(first);
  });

  it('an image provider that refuses the cover prompt does not cost the song: the procedural cover stands in', async () => {
    const refusing: RenderProvider = {
      name: 'refusing',
      submit: async () => {
        throw new RenderError('The image model declined this request');
      },
      check: async () => ({ state: 'failed', error: 'unused' }),
    };
    const { id, status } = await render(minimaxAdapter({ imageProvider: refusing }), song({}));
    if (status.state !== 'done') throw new Error('not done');
    const cover = status.outputs.find((o) => o.role === 'cover')!;
    expect(cover.key).toBe(`renders/${id}/cover.png`);
    expect(pngSize(Buffer.from((await store.get(cover.key!))!.body))).toEqual({ width: 512, height: 512 });
  });
});

describe('minimax-music: failures', () => {
  it('[fake:content-filter] → ContentRefusedError (a RenderError) with the buyer-safe content-policy message, and check agrees', async () => {
    const provider = minimaxAdapter();
    const id = jobId();
    const error = await provider.submit({ jobId: id, product: 'create_music', request: song({ prompt: 'a song [fake:content-filter]' }) }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(ContentRefusedError);
    expect((error as Error).message).toBe(FAILURE.filtered);
    expect(await provider.check(id, 'create_music')).toEqual({ state: 'failed', error: FAILURE.filtered, refusal: 'content' });
  });

  it('a marker in the lyrics is seen too (MiniMax filters lyrics as well as the prompt)', async () => {
    const error = await failure(minimaxAdapter(), song({ custom_mode: true, lyrics: 'la la [fake:content-filter]' }));
    expect(error).toBeInstanceOf(RenderError);
  });

  it.each([
    ['[fake:429]', 'The music service is busy'],
    ['[fake:500]', 'The music service is busy'],
  ])('%s → TransientRenderError (retried by the state machine)', async (marker, message) => {
    const error = await failure(minimaxAdapter(), song({ prompt: `a song ${marker}` }));
    expect(error).toBeInstanceOf(TransientRenderError);
    expect(error.message).toBe(message);
  });

  it('[fake:hang] → the per-call deadline ends the call as a TransientRenderError', async () => {
    const error = await failure(minimaxAdapter({ timeoutMs: 1_000 }), song({ prompt: 'a song [fake:hang]' }));
    expect(error).toBeInstanceOf(TransientRenderError);
    expect(error.message).toBe('The music service did not answer in time');
  });

  it('[fake:malformed] → RenderError: an unreadable answer is not retried (a paid render is not bought twice)', async () => {
    const error = await failure(minimaxAdapter(), song({ prompt: 'a song [fake:malformed]' }));
    expect(error).toBeInstanceOf(RenderError);
    expect(error.message).toBe(FAILURE.unreadable);
  });

  it('a wrong key → RenderError with a generic message; the fake saw an unauthorised request; the log has the vendor’s answer, not the key', async () => {
    const lines: string[] = [];
    const streams = [process.stdout, process.stderr];
    const writes = streams.map((stream) => stream.write);
    for (const stream of streams) {
      const write = stream.write.bind(stream);
      stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        lines.push(String(chunk));
        return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write;
    }
    const level = logger.getLevelName();
    logger.setLogLevel('ERROR');
    let error: Error;
    try {
      error = await failure(minimaxAdapter({ key: 'not-the-key' }), song({}));
    } finally {
      logger.setLogLevel(level);
      streams.forEach((stream, i) => (stream.write = writes[i]));
    }
    expect(error).toBeInstanceOf(RenderError);
    expect(error.message).toBe('The music service could not render this request');
    expect(minimax.requests.at(-1)!.authorized).toBe(false);
    const logged = lines.join('');
    expect(logged).toContain('authorization failed');
    expect(logged).not.toContain('not-the-key');
  });

  it('lyrics longer than MiniMax sings → RenderError before any call', async () => {
    const calls = minimax.requests.length;
    const error = await failure(minimaxAdapter(), song({ custom_mode: true, lyrics: 'la '.repeat(1500) }));
    expect(error).toBeInstanceOf(RenderError);
    expect(minimax.requests.length).toBe(calls);
  });
});

/** The last generateContent request the Gemini fake received: its path and the one prompt text. */
function lastLyriaCall(): { path: string; prompt: string } {
  const call = gemini.requests.filter((r) => r.path.endsWith(':generateContent')).at(-1)!;
  const body = JSON.parse(call.body!) as { contents: { parts: { text: string }[] }[] };
  return { path: call.path, prompt: body.contents.flatMap((c) => c.parts).map((p) => p.text).join('\n') };
}

describe('google-lyria: the request Lyria receives (everything in one prompt)', () => {
  it('generateContent on the Lyria model with prompt + style + tags + "female lead vocals", no lyrics heading without custom_mode', async () => {
    const { status } = await render(lyriaAdapter(), song({ style: 'indie folk', tags: 'rain, acoustic', vocal_gender: 'f' }));
    expect(status.state).toBe('done');
    const { path: called, prompt } = lastLyriaCall();
    expect(called).toBe('/v1beta/models/lyria-3-pro-preview:generateContent');
    expect(prompt).toBe('female lead vocals; style: indie folk; tags: rain, acoustic\na short folk tune about rain');
  });

  it('custom_mode: the lyrics appended verbatim after "Lyrics (sing exactly):"; "male lead vocals"', async () => {
    const lyrics = 'Rain on the window pane\n  I hear you call my name';
    const { status } = await render(lyriaAdapter(), song({ custom_mode: true, lyrics, vocal_gender: 'm' }));
    const { prompt } = lastLyriaCall();
    expect(prompt).toBe(`male lead vocals\na short folk tune about rain\n\nLyrics (sing exactly):\n${lyrics.trim()}`);
    // The title comes from the lyrics the model returned with the audio.
    expect(status.state === 'done' && status.metadata.title).toBe('Rain Window Pane');
  });

  it('make_instrumental: "instrumental, no vocals", the lyrics dropped, no vocal gender', async () => {
    await render(lyriaAdapter(), song({ make_instrumental: true, custom_mode: true, lyrics: 'not to be sung', vocal_gender: 'f' }));
    const { prompt } = lastLyriaCall();
    expect(prompt).toBe('instrumental, no vocals\na short folk tune about rain');
  });
});

describe('google-lyria: what is stored', () => {
  it('the inline MP3 at renders/<jobId>/audio.mp3 with the file’s duration, the cover, model_version lyria-3-pro-preview', async () => {
    const { id, status } = await render(lyriaAdapter(), song({ custom_mode: true, lyrics: 'Tin roof singing\nall night long' }));
    if (status.state !== 'done') throw new Error(`not done: ${JSON.stringify(status)}`);
    const audio = status.outputs.find((o) => o.role === 'audio')!;
    expect(audio.key).toBe(`renders/${id}/audio.mp3`);
    const probe = ffprobe(Buffer.from((await store.get(audio.key!))!.body), 'mp3');
    expect(probe.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('mp3');
    expect(status.metadata.durationSeconds).toBeCloseTo(Number(probe.format.duration), 1);
    expect(status.metadata).toMatchObject({ modelVersion: 'lyria-3-pro-preview', title: 'Tin Roof Singing' });
    const cover = status.outputs.find((o) => o.role === 'cover')!;
    expect(pngSize(Buffer.from((await store.get(cover.key!))!.body))).toEqual({ width: 1024, height: 1024 });
  });

  it('a retried submit after a finished render does not call Lyria again', async () => {
    const provider = lyriaAdapter();
    const id = jobId();
    await provider.submit({ jobId: id, product: 'create_music', request: song({}) });
    const calls = gemini.requests.length;
    await provider.submit({ jobId: id, product: 'create_music', request: song({}) });
    expect(gemini.requests.length).toBe(calls);
    expect((await provider.check(id, 'create_music')).state).toBe('done');
  });
});

describe('google-lyria: failures', () => {
  it('[fake:content-filter] (promptFeedback.blockReason) → ContentRefusedError with the content-policy message, and check agrees', async () => {
    const provider = lyriaAdapter();
    const id = jobId();
    const error = await provider.submit({ jobId: id, product: 'create_music', request: song({ prompt: 'a song [fake:content-filter]' }) }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(ContentRefusedError);
    expect((error as Error).message).toBe(FAILURE.filtered);
    expect(await provider.check(id, 'create_music')).toEqual({ state: 'failed', error: FAILURE.filtered, refusal: 'content' });
  });

  it('a marker in custom lyrics reaches Lyria too (they are part of its prompt)', async () => {
    expect(await failure(lyriaAdapter(), song({ custom_mode: true, lyrics: 'la la [fake:content-filter]' }))).toBeInstanceOf(RenderError);
  });

  it.each(['[fake:429]', '[fake:500]'])('%s → TransientRenderError (the SDK does not retry; the state machine does)', async (marker) => {
    const calls = gemini.requests.length;
    const error = await failure(lyriaAdapter(), song({ prompt: `a song ${marker}` }));
    expect(error).toBeInstanceOf(TransientRenderError);
    expect(error.message).toBe('The music service is busy');
    expect(gemini.requests.length).toBe(calls + 1);
  });

  it('[fake:hang] → the per-call deadline ends the call as a TransientRenderError', async () => {
    const error = await failure(lyriaAdapter({ timeoutMs: 1_000 }), song({ prompt: 'a song [fake:hang]' }));
    expect(error).toBeInstanceOf(TransientRenderError);
    expect(error.message).toBe('The music service did not answer in time');
  });

  it('[fake:malformed] → RenderError (unreadable answer)', async () => {
    const error = await failure(lyriaAdapter(), song({ prompt: 'a song [fake:malformed]' }));
    expect(error).toBeInstanceOf(RenderError);
    expect(error.message).toBe(FAILURE.unreadable);
  });

  it('a wrong key → RenderError with a generic message (the fake answers 400 API key not valid)', async () => {
    const error = await failure(lyriaAdapter({ key: 'not-the-key' }), song({}));
    expect(error).toBeInstanceOf(RenderError);
    expect(error.message).toBe('The music service could not render this request');
    expect(String((error.cause as Error).message)).toContain('API key not valid');
  });
});
