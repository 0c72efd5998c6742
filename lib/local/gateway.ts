/**
 * The local gateway: a Node HTTP server that does what API Gateway (HTTP API, payload 2.0) does in front of the
 * Lambdas — match the route table, build the event, invoke the route's function, write the result — plus an
 * `/assets/` route standing in for the CloudFront distribution in front of the asset bucket.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { matchPath, type RouteDef } from '../../lambdas/surfaces/routes.js';

export interface GatewayOptions {
  port: number;
  host?: string;
  routes: RouteDef[];
  /** Serves `GET /assets/<key>`; returns null when absent. */
  assets?: (key: string) => Promise<{ body: Uint8Array; contentType: string } | null>;
  /** Requests wait for this before being handled (the runtime finishes wiring after the port is known). */
  ready?: Promise<void>;
  maxBodyBytes?: number;
  /** Invokes the route's function (in its own instances: lib/local/functions/) with the event built here. */
  invoke: (route: RouteDef, event: unknown) => Promise<unknown>;
}

export interface Gateway {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

const TEXT_TYPES = /^(application\/(json|[\w.+-]+\+json|x-www-form-urlencoded|xml)|text\/)/i;

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  // Lambda's synchronous invocation payload limit (6 MB) binds before the HTTP API's (10 MB).
  const maxBody = options.maxBodyBytes ?? 6 * 1024 * 1024;

  const server = createServer((req, res) => {
    void (async () => {
      await options.ready;
      await serve(req, res);
    })().catch((error) => {
      console.error('[gateway] request failed', error);
      if (!res.headersSent) send(res, 500, { 'content-type': 'application/json' }, JSON.stringify({ message: 'Internal Server Error' }));
      else res.destroy();
    });
  });

  const bySpecificity = [...options.routes].sort((a, b) => parameters(a.path) - parameters(b.path));
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'GET' && url.pathname.startsWith('/assets/') && options.assets) {
      const asset = await options.assets(decodeURIComponent(url.pathname.slice('/assets/'.length)));
      if (!asset) return send(res, 404, { 'content-type': 'application/json' }, JSON.stringify({ message: 'Not Found' }));
      return send(res, 200, { 'content-type': asset.contentType, 'cache-control': 'public, max-age=86400' }, Buffer.from(asset.body));
    }
    let route: RouteDef | undefined;
    let params: Record<string, string> | null = null;
    // As API Gateway chooses: the most specific route (fewest path parameters) wins, e.g. a concrete agent's fixed
    // run route over /api/agents/{agent}/run.
    for (const candidate of bySpecificity) {
      if (candidate.method !== method) continue;
      params = matchPath(candidate.path, url.pathname);
      if (params) {
        route = candidate;
        break;
      }
    }
    if (!route || !params) return send(res, 404, { 'content-type': 'application/json' }, JSON.stringify({ message: 'Not Found' }));

    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > maxBody) return send(res, 413, { 'content-type': 'application/json' }, JSON.stringify({ message: 'Request Entity Too Large' }));
      chunks.push(chunk as Buffer);
    }
    const raw = Buffer.concat(chunks);
    const event = buildEvent(req, url, method, route, params, raw);
    let result: unknown;
    try {
      result = await options.invoke(route, event);
    } catch (error) {
      // What API Gateway answers when the integration times out, or when the function throws.
      const timedOut = (error as Error).name === 'Sandbox.Timedout';
      console.error(`[gateway] ${route.id}: ${(error as Error).name}: ${(error as Error).message}`);
      return send(res, timedOut ? 503 : 500, { 'content-type': 'application/json' }, JSON.stringify({ message: timedOut ? 'Service Unavailable' : 'Internal Server Error' }));
    }
    writeResult(res, result);
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      }),
  };
}

function buildEvent(req: IncomingMessage, url: URL, method: string, route: RouteDef, params: Record<string, string>, raw: Buffer) {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[key.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const sourceIp = req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1';
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${sourceIp}` : sourceIp;
  headers['x-forwarded-proto'] ??= 'http';
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = key in query ? `${query[key]},${value}` : value;
  const text = raw.length === 0 || TEXT_TYPES.test(headers['content-type'] ?? 'application/json');
  const now = new Date();
  return {
    version: '2.0',
    routeKey: `${route.method} ${route.path}`,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: headers.cookie ? headers.cookie.split(/;\s*/) : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    body: raw.length ? (text ? raw.toString('utf8') : raw.toString('base64')) : undefined,
    isBase64Encoded: !text,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0],
      http: { method, path: url.pathname, protocol: `HTTP/${req.httpVersion}`, sourceIp, userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey: `${route.method} ${route.path}`,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
  };
}

interface StructuredResult {
  statusCode?: number;
  headers?: Record<string, string | number | boolean>;
  multiValueHeaders?: Record<string, string[]>;
  body?: string;
  isBase64Encoded?: boolean;
  cookies?: string[];
}

/** Payload 2.0 response rules: a structured result is used as is; anything else is JSON with status 200. */
function writeResult(res: ServerResponse, result: unknown): void {
  const structured = result && typeof result === 'object' && 'statusCode' in result ? (result as StructuredResult) : undefined;
  if (!structured) {
    return send(res, 200, { 'content-type': 'application/json' }, typeof result === 'string' ? result : JSON.stringify(result ?? null));
  }
  const headers: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(structured.headers ?? {})) headers[key] = String(value);
  if (structured.cookies?.length) headers['set-cookie'] = structured.cookies;
  const body = structured.body === undefined ? '' : structured.isBase64Encoded ? Buffer.from(structured.body, 'base64') : structured.body;
  send(res, structured.statusCode ?? 200, headers, body);
}

function send(res: ServerResponse, status: number, headers: Record<string, string | string[]>, body: string | Buffer): void {
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

function parameters(path: string): number {
  return (path.match(/\{/g) ?? []).length;
}
