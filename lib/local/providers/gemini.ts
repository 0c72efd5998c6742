/**
 * A wire-level fake of the Gemini API (generativelanguage.googleapis.com) on loopback, for the adapters that talk to
 * it through `@google/genai` with `httpOptions.baseUrl` pointed here (GEMINI_API_BASE_URL). One server, one route
 * table: each model family contributes its routes (Veo: gemini-veo.ts; Lyria's `models/{model}:generateContent`:
 * gemini-lyria.ts). Every route but the media download checks `x-goog-api-key` as the real API does, and errors have
 * Google's shape (`{ error: { code, message, status } }`), which the SDK turns into its ApiError.
 *
 * Failure markers in a prompt (`[fake:content-filter]`, `[fake:429]`, `[fake:500]`, `[fake:hang]`, `[fake:malformed]`)
 * are honoured here only; the service never reads them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeOptions, ProviderFake } from './index.js';
import { veoRoutes, type VeoFakeOptions } from './gemini-veo.js';
import { lyriaRoutes } from './gemini-lyria.js';

export type FakeMarker = 'content-filter' | '429' | '500' | 'hang' | 'malformed';
const MARKERS: FakeMarker[] = ['content-filter', '429', '500', 'hang', 'malformed'];

/** The failure a prompt asks the fake for, if any. */
export function fakeMarker(prompt: string): FakeMarker | undefined {
  return MARKERS.find((marker) => prompt.includes(`[fake:${marker}]`));
}

export interface GeminiRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface GeminiReply {
  status: number;
  /** A JSON body (application/json). */
  json?: unknown;
  /** A raw body (media, or a deliberately broken JSON text). */
  body?: Uint8Array | string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface GeminiRoute {
  method: 'GET' | 'POST';
  /** Matched against the path (no query); groups are passed to `handle`. */
  path: RegExp;
  /** Whether the API key is required (default true; media behind a redirect is fetched without it). */
  authenticated?: boolean;
  handle(request: GeminiRequest, match: RegExpExecArray): Promise<GeminiReply> | GeminiReply;
}

/** What a model family's routes are given. */
export interface GeminiContext {
  /** The fake's base URL (what GEMINI_API_BASE_URL is set to). */
  baseUrl: string;
  log: (line: string) => void;
}

/** Google's error body. */
export function googleError(code: number, status: string, message: string): GeminiReply {
  return { status: code, json: { error: { code, message, status } } };
}

export interface GeminiFakeOptions extends FakeOptions {
  veo?: VeoFakeOptions;
}

export interface GeminiFake extends ProviderFake {
  url: string;
  /** Every request served, in order (method, path and a POST's body), for tests. */
  requests: { method: string; path: string; body?: string }[];
  /** Milliseconds the fake spent in its handlers and renders (a bench subtracts it from the adapter's time). */
  busyMs(): number;
  /** Resolves once no render started by the fake is still running. */
  idle(): Promise<void>;
}

export async function startGeminiFake(options: GeminiFakeOptions): Promise<GeminiFake> {
  const requests: { method: string; path: string; body?: string }[] = [];
  let busy = 0;
  let routes: GeminiRoute[] = [];
  const veo = { value: undefined as ReturnType<typeof veoRoutes> | undefined };

  const server = createServer((req, res) => {
    void serve(req, res);
  });
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? 'GET', path: url.pathname, ...(req.method === 'POST' ? { body: body.toString('utf8') } : {}) });
      const reply = await route({ method: req.method ?? 'GET', url, headers: req.headers, body });
      send(res, reply);
    } catch (error) {
      options.log(`[gemini-fake] ${(error as Error).stack ?? error}`);
      send(res, googleError(500, 'INTERNAL', 'Internal error encountered.'));
    } finally {
      busy += performance.now() - started;
    }
  }

  async function route(request: GeminiRequest): Promise<GeminiReply> {
    for (const candidate of routes) {
      const match = candidate.path.exec(request.url.pathname);
      if (!match) continue;
      if (candidate.method !== request.method) return googleError(405, 'METHOD_NOT_ALLOWED', `Method ${request.method} not allowed.`);
      if (candidate.authenticated !== false) {
        const key = request.headers['x-goog-api-key'];
        if (!key) return googleError(403, 'PERMISSION_DENIED', "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
        if (key !== options.apiKey) return googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
      }
      return candidate.handle(request, match);
    }
    return googleError(404, 'NOT_FOUND', `The requested URL ${request.url.pathname} was not found on this server.`);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const context: GeminiContext = { baseUrl: url, log: options.log };
  veo.value = veoRoutes(context, { ...options.veo, onRenderMs: (ms) => (busy += ms) });
  // The route table: one entry per model family.
  routes = [...veo.value.routes, ...lyriaRoutes(context).routes];

  return {
    url,
    env: { GEMINI_API_BASE_URL: url },
    requests,
    busyMs: () => busy,
    idle: () => veo.value!.idle(),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, reply: GeminiReply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let body: Uint8Array | string | undefined = reply.body;
  if (reply.json !== undefined) {
    body = JSON.stringify(reply.json);
    headers['content-type'] = 'application/json; charset=UTF-8';
  } else if (reply.contentType) {
    headers['content-type'] = reply.contentType;
  }
  res.writeHead(reply.status, headers);
  res.end(body);
}
