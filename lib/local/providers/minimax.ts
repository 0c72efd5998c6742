/**
 * A wire-level fake of MiniMax's music API on loopback: `POST /v1/music_generation` as MiniMax documents it
 * (Bearer key, `model`, `prompt`, `lyrics`, `lyrics_optimizer`, `is_instrumental`, `audio_setting`, `output_format`
 * url|hex; the answer's `data.audio`, `extra_info`, `trace_id`, `base_resp`) and `GET /files/<id>.mp3` for the URLs it
 * hands out (no key, as a signed storage URL). The song is a real MP3 made by the local synthesiser from what was
 * sent: the prompt, the lyrics without their section tags, instrumental, and the lead vocal's gender read back from
 * the prompt ("female lead vocals"), so a test hears the mapping.
 *
 * Markers in the prompt or lyrics: `[fake:content-filter]` → base_resp 1026 (sensitive input); `[fake:429]` → HTTP
 * 429 with base_resp 1002 (rate limit); `[fake:500]` → HTTP 500; `[fake:hang]` → never answers; `[fake:malformed]` →
 * a truncated JSON body. A wrong key → HTTP 401 with base_resp 1004.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { MusicRequest } from '../../../lambdas/products/catalog.js';
import { defaultFfmpegPath } from '../../../lambdas/render/local/ffmpeg.js';
import { renderMusic } from '../../../lambdas/render/local/music/render-music.js';
import type { FakeOptions, ProviderFake } from './index.js';
import { text as bodyText } from 'node:stream/consumers';

export interface RecordedMiniMaxRequest {
  method: string;
  path: string;
  /** Whether the Authorization header carried the expected key (the key itself is not kept). */
  authorized: boolean;
  body: Record<string, unknown> | undefined;
  /** What the fake answered, and how long its own work (rendering included) took. */
  status?: number;
  fakeMs?: number;
}

export interface MiniMaxFake extends ProviderFake {
  url: string;
  requests: RecordedMiniMaxRequest[];
}

const MAX_FILES = 50;

export async function startMiniMaxFake(options: FakeOptions): Promise<MiniMaxFake> {
  const requests: RecordedMiniMaxRequest[] = [];
  const files = new Map<string, Buffer>();
  const sockets = new Set<Socket>();
  let baseUrl = '';

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.log(`[minimax-fake] ${String(error)}`);
      if (!res.headersSent) json(res, 500, { base_resp: { status_code: 1000, status_msg: 'unknown error' } });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (req.method === 'GET' && path.startsWith('/files/')) {
      const file = files.get(path.slice('/files/'.length));
      if (!file) return json(res, 404, { error: 'not found' });
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': file.length });
      res.end(file);
      return;
    }
    const raw = await bodyText(req);
    const record: RecordedMiniMaxRequest = {
      method: req.method ?? '',
      path,
      authorized: req.headers.authorization === `Bearer ${options.apiKey}`,
      body: parse(raw),
    };
    requests.push(record);
    const answer = (status: number, body: unknown) => {
      record.status = status;
      record.fakeMs = performance.now() - started;
      json(res, status, body);
    };
    if (req.method !== 'POST' || path !== '/v1/music_generation') return answer(404, { base_resp: { status_code: 2013, status_msg: `no route ${req.method} ${path}` } });
    if (!record.authorized) return answer(401, { base_resp: { status_code: 1004, status_msg: 'authorization failed: check the API key' } });
    const body = record.body;
    const problem = invalid(body);
    if (problem) return answer(200, { base_resp: { status_code: 2013, status_msg: `invalid params, ${problem}` } });
    const text = `${String(body!.prompt)}\n${String(body!.lyrics ?? '')}`;
    if (text.includes('[fake:content-filter]')) return answer(200, { trace_id: randomUUID(), base_resp: { status_code: 1026, status_msg: 'input new_sensitive' } });
    if (text.includes('[fake:429]')) return answer(429, { trace_id: randomUUID(), base_resp: { status_code: 1002, status_msg: 'rate limit exceeded' } });
    if (text.includes('[fake:500]')) {
      record.status = 500;
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal server error');
      return;
    }
    if (text.includes('[fake:hang]')) {
      record.status = 0; // never answered; the socket is destroyed at stop
      return;
    }
    if (text.includes('[fake:malformed]')) {
      record.status = 200;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":{"audio":"http://');
      return;
    }

    const song = await renderMusic(musicRequestOf(body!), defaultFfmpegPath());
    let audio: string;
    if (body!.output_format === 'hex') audio = song.audio.toString('hex');
    else {
      const id = `${randomUUID()}.mp3`;
      files.set(id, song.audio);
      while (files.size > MAX_FILES) files.delete(files.keys().next().value!);
      audio = `${baseUrl}/files/${id}`;
    }
    return answer(200, {
      data: { audio, status: 2 },
      extra_info: {
        music_duration: Math.round(song.durationSeconds * 1000),
        music_sample_rate: 44100,
        music_channel: 2,
        bitrate: 128000,
        music_size: song.audio.length,
      },
      trace_id: randomUUID(),
      base_resp: { status_code: 0, status_msg: 'success' },
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    env: { MINIMAX_API_BASE_URL: baseUrl },
    requests,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What MiniMax itself would refuse as parameters (2013). */
function invalid(body: Record<string, unknown> | undefined): string | null {
  if (!body) return 'body is not JSON';
  if (typeof body.model !== 'string' || !/^music-/.test(body.model)) return 'model';
  if (typeof body.prompt !== 'string' || body.prompt.length > 2000) return 'prompt';
  if (body.is_instrumental !== undefined && typeof body.is_instrumental !== 'boolean') return 'is_instrumental';
  const lyrics = body.lyrics;
  if (lyrics !== undefined && (typeof lyrics !== 'string' || lyrics.length > 3500)) return 'lyrics';
  if (body.is_instrumental === true && !body.prompt) return 'prompt is required for instrumental music';
  if (body.is_instrumental !== true && !lyrics && body.lyrics_optimizer !== true) return 'lyrics is required for a song with vocals';
  const setting = body.audio_setting as { format?: unknown } | undefined;
  if (setting && setting.format !== undefined && !['mp3', 'wav', 'pcm'].includes(String(setting.format))) return 'audio_setting.format';
  if (body.output_format !== undefined && !['url', 'hex'].includes(String(body.output_format))) return 'output_format';
  return null;
}

/** The synthesiser's request for what MiniMax was asked: section tags are not sung, the gender is in the prompt. */
function musicRequestOf(body: Record<string, unknown>): MusicRequest {
  const prompt = String(body.prompt);
  const instrumental = body.is_instrumental === true;
  const lyrics = typeof body.lyrics === 'string' ? body.lyrics.split('\n').filter((line) => !/^\s*\[[^\]]*\]\s*$/.test(line)).join('\n').trim() : '';
  const gender = /\bfemale lead vocals\b/i.test(prompt) ? 'f' : /\bmale lead vocals\b/i.test(prompt) ? 'm' : undefined;
  return {
    prompt,
    make_instrumental: instrumental,
    ...(lyrics && !instrumental ? { custom_mode: true, lyrics } : {}),
    ...(gender ? { vocal_gender: gender } : {}),
  } as MusicRequest;
}

function parse(raw: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(raw) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
