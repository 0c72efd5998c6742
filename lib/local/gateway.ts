/**
 * The local gateway: a Node HTTP server that does what API Gateway (HTTP API, payload 2.0) does in front of the
 * Lambdas — match the route table, build the event, invoke the route's function, write the result, answer CORS
 * (lib/cors.ts), run the sign-in authorizer before the routes that take a sign-in (lib/surface-api.ts attaches it to
 * the same routes: payload 2.0, simple responses, no caching, lib/sign-in-authorizer.ts's identity source)
 * — plus an `/assets/` route standing in for the CloudFront distribution in front of the asset bucket (which, as
 * deployed, has no CORS configuration).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import { matchPath } from '../../lambdas/surfaces/paths.js';
import type { RouteDef } from '../../lambdas/surfaces/routes.js';
import { isPreflight, preflightHeaders, responseHeaders } from '../cors.js';
import { SIGN_IN_IDENTITY_SOURCES } from '../sign-in-authorizer.js';

export interface GatewayOptions {
  port: number;
  host?: string;
  routes: RouteDef[];
  /** Serves `GET /assets/<key>`; returns null when absent. */
  assets?: (key: string) => Promise<{ body: Uint8Array; contentType: string } | null>;
  /** Requests wait for this before being handled (the runtime finishes wiring after the port is known). */
  ready?: Promise<void>;
  maxBodyBytes?: number;
  /**
   * Answers requests that are no route of the API (the embedded default's dev wallet); true when it answered. It runs
   * before the routes and before CORS, once the runtime is ready: what it answers gets no CORS header from here.
   */
  local?: (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<boolean>;
  /** Invokes the route's function (in its own instances: lib/local/functions/) with the event built here. */
  invoke: (route: RouteDef, event: unknown) => Promise<unknown>;
  /** The stage's variables, in every event (the API's `surface`: lib/surface-api.ts). */
  stageVariables?: Record<string, string>;
  /** Invokes the sign-in authorizer's function with an authorizer event, for the routes that take a sign-in. */
  authorize?: (event: unknown) => Promise<unknown>;
  /** The authorizer's identity sources, as API Gateway selection expressions (default: lib/sign-in-authorizer.ts's). */
  authorizerIdentitySources?: readonly string[];
}

export interface Gateway {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

const TEXT_TYPES = /^(application\/(json|[\w.+-]+\+json|x-www-form-urlencoded|xml)|text\/)/i;
/**
 * API Gateway (HTTP API) refuses a request whose request line and header values exceed 10240 bytes. Node counts
 * header names too, so the local limit binds a little earlier, never later.
 */
const MAX_HEADER_BYTES = 10_240;
/** How long a refused request may go on uploading before its socket is closed anyway (nginx's `lingering_time`). */
const LINGER_MS = 30_000;
const NOT_FOUND = { status: 404, message: 'Not Found' } as const;

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  // Lambda's synchronous invocation payload limit (6 MB) binds before the HTTP API's (10 MB).
  const maxBody = options.maxBodyBytes ?? 6 * 1024 * 1024;
  // Checked before the port opens: an identity source this gateway cannot evaluate is a configuration error.
  const identitySources = (options.authorizerIdentitySources ?? SIGN_IN_IDENTITY_SOURCES).map(identitySource);

  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    void (async () => {
      await options.ready;
      await serve(req, res);
    })().catch((error) => {
      console.error('[gateway] request failed', error);
      if (!res.headersSent) send(res, 500, { 'content-type': 'application/json' }, JSON.stringify({ message: 'Internal Server Error' }));
      else res.destroy();
    });
  });
  server.on('clientError', refuseUnparsed);

  // Set as soon as the server listens, before any request can reach `serve`.
  let ownHost = '127.0.0.1';
  const bySpecificity = [...options.routes].sort((a, b) => parameters(a.path) - parameters(b.path));
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = URL.parse(req.url ?? '/', 'http://local');
    if (!url) return refuse(req, res, NOT_FOUND);
    const method = (req.method ?? 'GET').toUpperCase();
    if (options.local && (await options.local(req, res, url.pathname))) return;
    if (method === 'GET' && url.pathname.startsWith('/assets/') && options.assets) {
      const asset = await readAsset(options.assets, url.pathname.slice('/assets/'.length));
      if (!asset) return refuse(req, res, NOT_FOUND);
      return send(res, 200, { 'content-type': asset.contentType, 'cache-control': 'public, max-age=86400' }, Buffer.from(asset.body));
    }
    // As API Gateway with a CORS configuration: a preflight is answered before routing, whatever the path, and every
    // other answer to a request with an Origin carries the policy's headers (its own 404/413/5xx included).
    if (isPreflight(method, req.headers)) {
      req.resume();
      res.writeHead(204, preflightHeaders());
      return void res.end();
    }
    for (const [name, value] of Object.entries(responseHeaders(req.headers))) res.setHeader(name, value);
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
    if (!route || !params) return refuse(req, res, NOT_FOUND);

    const raw = await readBody(req, maxBody);
    if (!raw) return refuse(req, res, { status: 413, message: 'Request Entity Too Large' });
    const event = buildEvent(req, url, method, route, params, raw, ownHost, options.stageVariables);
    if (route.signIn) {
      const refused = await authorize(route, event);
      if (refused) return send(res, refused.status, { 'content-type': 'application/json' }, JSON.stringify({ message: refused.message }));
    }
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

  /**
   * As API Gateway runs a REQUEST authorizer (payload 2.0, simple responses): its identity sources must all be present
   * and non-empty or the answer is 401 without calling it; a failure or a malformed answer is 500; `isAuthorized:
   * false` is 403; else its `context` reaches the route as `requestContext.authorizer.lambda`. Returns the refusal, if
   * any.
   */
  async function authorize(route: RouteDef, event: ReturnType<typeof buildEvent>): Promise<{ status: number; message: string } | undefined> {
    if (!options.authorize) throw new Error(`route ${route.id} takes a sign-in but the gateway has no authorizer`);
    const identity = identitySources.map((select) => select(event));
    if (!identity.every((value): value is string => !!value)) return { status: 401, message: 'Unauthorized' };
    const { body: _body, isBase64Encoded: _encoded, ...request } = event;
    let answer: unknown;
    try {
      answer = await options.authorize({ ...request, type: 'REQUEST', routeArn: `arn:aws:execute-api:local:local:local/$default/${route.method}${route.path}`, identitySource: identity });
    } catch (error) {
      console.error(`[gateway] ${route.id} authorizer: ${(error as Error).name}: ${(error as Error).message}`);
      return { status: 500, message: 'Internal Server Error' };
    }
    const simple = answer as { isAuthorized?: unknown; context?: unknown } | null;
    if (!simple || typeof simple.isAuthorized !== 'boolean') return { status: 500, message: 'Internal Server Error' };
    if (!simple.isAuthorized) return { status: 403, message: 'Forbidden' };
    (event.requestContext as Record<string, unknown>).authorizer = { lambda: simple.context ?? {} };
    return undefined;
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  ownHost = `127.0.0.1:${port}`;
  return {
    url: `http://${ownHost}`,
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

type GatewayEvent = ReturnType<typeof buildEvent>;

/** The `$context` variables an identity source may name here (API Gateway has more; none is used as one). */
const CONTEXT_VARIABLES: Record<string, (event: GatewayEvent) => string | undefined> = {
  routeKey: (event) => event.requestContext.routeKey,
  requestId: (event) => event.requestContext.requestId,
  stage: (event) => event.requestContext.stage,
  httpMethod: (event) => event.requestContext.http.method,
  'identity.sourceIp': (event) => event.requestContext.http.sourceIp,
};

/**
 * An identity source (an API Gateway selection expression) as the value it selects from a request: a header (names
 * case-insensitive), a query string parameter (case-sensitive), a stage variable or a context variable. One this
 * gateway cannot evaluate fails the start, never a request.
 */
function identitySource(expression: string): (event: GatewayEvent) => string | undefined {
  const [, kind, name] = /^\$(request\.header|request\.querystring|stageVariables|context)\.(.+)$/.exec(expression) ?? [];
  if (kind === 'request.header') return (event) => event.headers[name.toLowerCase()];
  if (kind === 'request.querystring') return (event) => event.queryStringParameters?.[name];
  if (kind === 'stageVariables') return (event) => event.stageVariables?.[name];
  if (kind === 'context' && Object.hasOwn(CONTEXT_VARIABLES, name)) return CONTEXT_VARIABLES[name];
  throw new Error(`gateway: identity source ${expression} is not one this gateway evaluates`);
}

/** A key that does not decode, or an asset that cannot be read (a directory, say), is no asset: 404 as S3 answers. */
async function readAsset(assets: NonNullable<GatewayOptions['assets']>, encodedKey: string) {
  try {
    return await assets(decodeURIComponent(encodedKey));
  } catch {
    return null;
  }
}

/**
 * The body, or null once it passes `limit`. Past the limit the rest is read and discarded rather than the request
 * destroyed (as leaving a `for await` over it would): a socket closed with unread bytes is reset, and a client still
 * uploading would see ECONNRESET instead of the 413.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      chunks.length = 0;
      req.off('data', onData);
      req.resume();
      resolveBody(null);
    };
    req.on('data', onData);
    req.once('end', () => resolveBody(Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => reject(new Error('the client closed the request before its body ended')));
  });
}

/**
 * Answers without the function. A request whose body is still coming (and any 413) is answered with
 * `Connection: close`: the answer is written in full at once, but the socket ends only once the client has sent the
 * rest of its request (bounded by LINGER_MS), so the status is what it reads rather than a reset.
 */
function refuse(req: IncomingMessage, res: ServerResponse, answer: { status: number; message: string }): void {
  const body = JSON.stringify({ message: answer.message });
  if (req.complete && answer.status !== 413) return send(res, answer.status, { 'content-type': 'application/json' }, body);
  res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), connection: 'close' });
  res.write(body);
  if (req.complete) return void res.end();
  const linger = setTimeout(() => res.destroy(), LINGER_MS).unref();
  const finish = () => (clearTimeout(linger), res.end());
  req.once('end', finish).once('close', finish).resume();
}

/**
 * A request Node's parser refused (headers over MAX_HEADER_BYTES, a malformed request line): a JSON answer with
 * `Connection: close`, then the same lingering close as `refuse` — the parser discards what the client still sends.
 */
const refused = new WeakSet<Socket>();
function refuseUnparsed(error: NodeJS.ErrnoException, socket: Socket): void {
  if (refused.has(socket)) return; // the errored parser reports again for each further chunk it discards
  refused.add(socket);
  if (!socket.writable) return void socket.destroy();
  const [status, reason] =
    error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large'] : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout'] : [400, 'Bad Request'];
  const body = JSON.stringify({ message: reason });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  const linger = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(linger));
}

function buildEvent(
  req: IncomingMessage,
  url: URL,
  method: string,
  route: RouteDef,
  params: Record<string, string>,
  raw: Buffer,
  ownHost: string,
  stageVariables?: Record<string, string>,
) {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[key.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const sourceIp = req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1';
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${sourceIp}` : sourceIp;
  // The scheme this gateway serves, over whatever the client sent.
  headers['x-forwarded-proto'] = 'http';
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
    stageVariables,
    body: raw.length ? (text ? raw.toString('utf8') : raw.toString('base64')) : undefined,
    isBase64Encoded: !text,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      // The API's own domain as the deployment knows it (API Gateway: the execute-api or custom domain the request
      // was routed by), here this gateway's listen address: never the client's Host header.
      domainName: ownHost,
      domainPrefix: ownHost.split('.')[0],
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
  for (const [key, value] of Object.entries(structured.headers ?? {})) {
    // API Gateway ignores the CORS headers of an integration once the API has a CORS configuration.
    if (!/^access-control-/i.test(key)) headers[key] = String(value);
  }
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
