/**
 * A wire-level fake of fal.ai's queue API (queue.fal.run) on loopback, for the fal-veo adapter, whose
 * `@fal-ai/client` is pointed here by FAL_QUEUE_BASE_URL. The routes and shapes the SDK uses (provider notes §5;
 * fal.ai/docs/api-reference/inference-api):
 *
 *   POST /{owner}/{app}[/{path}]              submit: the model's input as JSON → 200 {status: "IN_QUEUE", request_id,
 *                                             response_url, status_url, cancel_url, queue_position}
 *   GET  /{owner}/{app}/requests/{id}/status  202 {status: "IN_QUEUE", queue_position} | 202 {status: "IN_PROGRESS",
 *                                             logs} until done, then 200 {status: "COMPLETED", logs, metrics}
 *   GET  /{owner}/{app}/requests/{id}         the output: {video: {url, content_type, file_name, file_size}}, or the
 *                                             model's error ({detail: [{loc, msg, type, url}]}, 422); 400 before done
 *   PUT  /{owner}/{app}/requests/{id}/cancel  202 before processing, 400 after
 *   GET  /files/{id}.mp4                      the media (fal's CDN on the real service; no key)
 *
 * (the status, result and cancel URLs name only the owner and app, never the endpoint path, as the real API's do).
 * Every queue route checks `Authorization: Key <key>`. Only `fal-ai/veo3.1/fast` and `fal-ai/veo3.1` are hosted; their
 * input is validated as fal's schema does (prompt; aspect_ratio 16:9 | 9:16; duration 4s | 6s | 8s; resolution 720p |
 * 1080p; generate_audio boolean), a bad value answered 422 with Pydantic's detail array. The video is a real 8 s
 * H.264/AAC MP4 made by the local synthesiser at the requested frame.
 *
 * Markers in the prompt: `[fake:content-filter]` completes and its result is a 422 content_policy_violation;
 * `[fake:429]` / `[fake:500]` refuse the submit with that status; `[fake:hang]` stays IN_PROGRESS forever;
 * `[fake:malformed]` completes with a truncated JSON result.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { VideoRequest } from '../../../lambdas/products/catalog.js';
import { defaultFfmpegPath } from '../../../lambdas/render/local/ffmpeg.js';
import { renderVideo } from '../../../lambdas/render/local/video/render-video.js';
import { fakeMarker, type FakeMarker } from './gemini.js';
import type { FakeOptions, ProviderFake } from './index.js';

/** The models this fake hosts (model id → the app whose status/result routes serve it). */
const MODELS = new Set(['fal-ai/veo3.1/fast', 'fal-ai/veo3.1']);
const ASPECT_RATIOS = ['16:9', '9:16'];
const DURATIONS = ['4s', '6s', '8s'];
const RESOLUTIONS = ['720p', '1080p'];
const MAX_FILES = 50;

export interface FalFakeOptions extends FakeOptions {
  /** Status polls answered IN_QUEUE / IN_PROGRESS before a finished render reports COMPLETED (default 2). */
  pollsBeforeDone?: number;
}

export interface RecordedFalRequest {
  method: string;
  path: string;
  /** Whether an Authorization header was sent, and whether it carried the expected key (the key is not kept). */
  sentKey: boolean;
  authorized: boolean;
  /** A submit's JSON input. */
  input?: Record<string, unknown>;
  status?: number;
}

export interface FalFake extends ProviderFake {
  url: string;
  requests: RecordedFalRequest[];
  /** Milliseconds the fake spent serving and rendering (a bench subtracts it from the adapter's time). */
  busyMs(): number;
  /** Resolves once no render started by the fake is still running. */
  idle(): Promise<void>;
}

interface QueuedRequest {
  id: string;
  app: string;
  prompt: string;
  marker?: FakeMarker;
  polls: number;
  video?: Buffer;
  failed?: unknown;
  cancelled?: boolean;
}

type Reply = { status: number; json?: unknown; body?: string | Uint8Array; contentType?: string; headers?: Record<string, string> };

export async function startFalFake(options: FalFakeOptions): Promise<FalFake> {
  const pollsBeforeDone = options.pollsBeforeDone ?? 2;
  const requests: RecordedFalRequest[] = [];
  const queue = new Map<string, QueuedRequest>();
  const files = new Map<string, Buffer>();
  const renders = new Map<string, Promise<Buffer>>();
  const pending = new Set<Promise<unknown>>();
  let busy = 0;
  let baseUrl = '';

  const server = createServer((req, res) => void serve(req, res));
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const authorization = req.headers.authorization;
      const record: RecordedFalRequest = { method: req.method ?? 'GET', path, sentKey: authorization !== undefined, authorized: authorization === `Key ${options.apiKey}` };
      requests.push(record);
      const reply = route(req.method ?? 'GET', path, record, Buffer.concat(chunks));
      record.status = reply.status;
      send(res, reply);
    } catch (error) {
      options.log(`[fal-fake] ${(error as Error).stack ?? error}`);
      send(res, detail(500, 'Internal Server Error'));
    } finally {
      busy += performance.now() - started;
    }
  }

  function route(method: string, path: string, record: RecordedFalRequest, body: Buffer): Reply {
    const media = /^\/files\/([a-z0-9]+)\.mp4$/.exec(path);
    if (media) {
      const video = method === 'GET' ? files.get(media[1]) : undefined;
      return video ? { status: 200, contentType: 'video/mp4', body: video } : { status: 404, contentType: 'text/plain', body: 'Not Found' };
    }
    const request = /^\/([^/]+\/[^/]+)\/requests\/([0-9a-f-]{36})(\/status|\/cancel)?$/.exec(path);
    const app = request?.[1] ?? path.slice(1);
    if (![...MODELS].some((model) => model === app || model.startsWith(`${app}/`))) return detail(404, `Application '${app}' not found`);
    if (!record.sentKey) return detail(401, `Cannot access application '${app}'. Authentication is required to access this application.`);
    if (!record.authorized) return detail(401, 'Invalid API key');
    if (!request) return method === 'POST' ? submit(app, record, body) : detail(405, 'Method Not Allowed');

    const queued = queue.get(request[2]);
    if (!queued || (queued.app !== request[1] && !queued.app.startsWith(`${request[1]}/`))) return detail(404, `Request ${request[2]} not found`);
    if (request[3] === '/status') return method === 'GET' ? status(queued) : detail(405, 'Method Not Allowed');
    if (request[3] === '/cancel') return method === 'PUT' ? cancel(queued) : detail(405, 'Method Not Allowed');
    return method === 'GET' ? result(queued) : detail(405, 'Method Not Allowed');
  }

  function submit(model: string, record: RecordedFalRequest, body: Buffer): Reply {
    if (!MODELS.has(model)) return detail(404, `Endpoint '${model}' not found`);
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      return validation([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }]);
    }
    record.input = input;
    const invalid = validate(input);
    if (invalid.length) return validation(invalid);
    const prompt = String(input.prompt);
    const marker = fakeMarker(prompt);
    if (marker === '429') return detail(429, 'Too many requests: the concurrent request limit of this key has been reached');
    if (marker === '500') return detail(500, 'Internal Server Error');

    const id = randomUUID();
    const queued: QueuedRequest = { id, app: model, prompt, marker, polls: 0 };
    queue.set(id, queued);
    if (!marker) {
      const work = render(prompt, (input.aspect_ratio as '16:9' | '9:16' | undefined) ?? '16:9').then(
        (video) => void (queued.video = video),
        (error) => void (queued.failed = error),
      );
      pending.add(work);
      void work.finally(() => pending.delete(work));
    }
    options.log(`[fal-fake] ${model} request ${id} queued${marker ? ` (marker ${marker})` : ''}`);
    return { status: 200, json: { status: 'IN_QUEUE', request_id: id, ...urls(queued), queue_position: 0 } };
  }

  function status(queued: QueuedRequest): Reply {
    queued.polls += 1;
    if (queued.cancelled) return { status: 200, json: { status: 'COMPLETED', request_id: queued.id, ...urls(queued), logs: [], metrics: {} } };
    const ready = queued.marker ? queued.marker !== 'hang' : queued.video !== undefined || queued.failed !== undefined;
    if (!ready || queued.polls <= pollsBeforeDone) {
      if (queued.polls === 1) return { status: 202, json: { status: 'IN_QUEUE', request_id: queued.id, ...urls(queued), queue_position: 0 } };
      return { status: 202, json: { status: 'IN_PROGRESS', request_id: queued.id, ...urls(queued), logs: [] } };
    }
    return { status: 200, json: { status: 'COMPLETED', request_id: queued.id, ...urls(queued), logs: [], metrics: { inference_time: 41.7 } } };
  }

  function result(queued: QueuedRequest): Reply {
    const done = queued.cancelled || (queued.marker ? queued.marker !== 'hang' : queued.video !== undefined || queued.failed !== undefined);
    if (!done || queued.polls <= pollsBeforeDone) return detail(400, 'Request is still in progress');
    const headers = { 'x-fal-request-id': queued.id };
    if (queued.cancelled) return { ...detail(400, 'Request was cancelled'), headers };
    if (queued.marker === 'malformed') return { status: 200, headers, contentType: 'application/json', body: '{"video": {"url": "http://127.0.0.1/files/' };
    if (queued.marker === 'content-filter') {
      return {
        status: 422,
        headers: { ...headers, 'x-fal-retryable': 'false' },
        json: {
          detail: [
            {
              loc: ['body', 'prompt'],
              msg: 'The content could not be processed because it contained material flagged by a content checker. (fake: content filter)',
              type: 'content_policy_violation',
              url: 'https://docs.fal.ai/errors#content_policy_violation',
            },
          ],
        },
      };
    }
    if (queued.failed !== undefined) return { ...detail(500, 'Internal error while generating the video'), headers };
    const file = randomBytes(8).toString('hex');
    files.set(file, queued.video!);
    while (files.size > MAX_FILES) files.delete(files.keys().next().value!);
    return {
      status: 200,
      headers,
      json: { video: { url: `${baseUrl}/files/${file}.mp4`, content_type: 'video/mp4', file_name: `${file}.mp4`, file_size: queued.video!.length } },
    };
  }

  function cancel(queued: QueuedRequest): Reply {
    if (queued.polls > 1) return { status: 400, json: { status: 'ALREADY_COMPLETED' } };
    queued.cancelled = true;
    return { status: 202, json: { status: 'CANCELLATION_REQUESTED' } };
  }

  /** Renders are deterministic: one per prompt and frame. */
  function render(prompt: string, aspectRatio: '16:9' | '9:16'): Promise<Buffer> {
    const key = `${aspectRatio}\n${prompt}`;
    let made = renders.get(key);
    if (!made) {
      const started = performance.now();
      made = renderVideo({ prompt, aspectRatio, durationSeconds: 8 } as VideoRequest, defaultFfmpegPath()).then((video) => {
        busy += performance.now() - started;
        return video.video;
      });
      renders.set(key, made);
      made.catch(() => renders.delete(key));
    }
    return made;
  }

  function urls(queued: QueuedRequest): Record<string, string> {
    const app = queued.app.split('/').slice(0, 2).join('/');
    const base = `${baseUrl}/${app}/requests/${queued.id}`;
    return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    env: { FAL_QUEUE_BASE_URL: baseUrl },
    requests,
    busyMs: () => busy,
    idle: async () => void (await Promise.all([...pending])),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** fal's input validation (its schema for Veo 3.1 Fast), as Pydantic reports it. */
function validate(input: Record<string, unknown>): { loc: string[]; msg: string; type: string }[] {
  const problems: { loc: string[]; msg: string; type: string }[] = [];
  const literal = (field: string, allowed: string[]) => {
    if (input[field] !== undefined && !allowed.includes(input[field] as string)) {
      problems.push({ loc: ['body', field], msg: `Input should be ${allowed.map((v) => `'${v}'`).join(', ')}`, type: 'literal_error' });
    }
  };
  if (typeof input.prompt !== 'string' || !input.prompt) problems.push({ loc: ['body', 'prompt'], msg: 'Field required', type: 'missing' });
  literal('aspect_ratio', ASPECT_RATIOS);
  literal('duration', DURATIONS);
  literal('resolution', RESOLUTIONS);
  if (input.generate_audio !== undefined && typeof input.generate_audio !== 'boolean') problems.push({ loc: ['body', 'generate_audio'], msg: 'Input should be a valid boolean', type: 'bool_type' });
  return problems;
}

function detail(status: number, message: string): Reply {
  return { status, json: { detail: message } };
}

function validation(detail: { loc: string[]; msg: string; type: string }[]): Reply {
  return { status: 422, json: { detail } };
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let body = reply.body;
  if (reply.json !== undefined) {
    body = JSON.stringify(reply.json);
    headers['content-type'] = 'application/json';
  } else if (reply.contentType) {
    headers['content-type'] = reply.contentType;
  }
  res.writeHead(reply.status, headers);
  res.end(body);
}
