/**
 * The local gateway (lib/local/gateway.ts) over real sockets: what it answers before a function runs — a path no
 * route or asset matches, a body over Lambda's payload limit, headers over API Gateway's limit — reaches the client
 * as a status, never as a reset connection — and CORS, answered as API Gateway answers it for the APIs' configuration.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../lib/local/gateway.js';
import type { RouteDef } from '../../lambdas/surfaces/routes.js';
import { CORS_POLICY } from '../../lib/cors.js';

const route = (method: RouteDef['method'], path: string): RouteDef =>
  ({ id: `${method}${path}`, method, path, surface: 'generation', entry: 'unused' }) as RouteDef;
const MAX_BODY = 6 * 1024 * 1024;
const PIECE = 16 * 1024;

let gateway: Gateway;
let invocations = 0;
beforeAll(async () => {
  gateway = await startGateway({
    port: 0,
    routes: [route('POST', '/agent/image'), route('GET', '/agent/image/{jobId}')],
    assets: async (key) => {
      if (key === 'ok.png') return { body: new Uint8Array([1, 2, 3]), contentType: 'image/png' };
      if (key.startsWith('renders')) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read`), { code: 'EISDIR' });
      return null;
    },
    invoke: async (_route, event) => {
      invocations++;
      // A function's own CORS header, which API Gateway ignores once the API has a CORS configuration.
      const headers = { 'PAYMENT-RESPONSE': 'receipt', 'Access-Control-Allow-Origin': 'https://function.example' };
      return { statusCode: 200, headers, body: JSON.stringify({ path: (event as { rawPath: string }).rawPath }) };
    },
  });
});
afterAll(() => gateway.close());

/** One raw HTTP/1.1 exchange: writes `head` and `bodyBytes` of body, ends its side and reads until the socket closes. */
function exchange(head: string, bodyBytes = 0): Promise<{ response: string; error?: NodeJS.ErrnoException }> {
  return new Promise((resolve) => {
    // Half-open, as a client still uploading is: the server's FIN does not stop it sending the rest of its request.
    const socket = connect({ port: gateway.port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let error: NodeJS.ErrnoException | undefined;
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (e) => (error = e));
    socket.on('close', () => resolve({ response: Buffer.concat(chunks).toString('latin1'), error }));
    socket.on('connect', async () => {
      // Sent in pieces, as a client on a real network does: still writing when the server has already answered.
      const bytes = Buffer.concat([Buffer.from(head, 'latin1'), Buffer.alloc(bodyBytes, 0x61)]);
      for (let sent = 0; sent < bytes.length && !socket.destroyed; sent += PIECE) {
        if (!socket.write(bytes.subarray(sent, sent + PIECE))) await new Promise((r) => socket.once('drain', r));
        await new Promise((r) => setImmediate(r));
      }
      socket.end();
    });
  });
}
const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
const headerOf = (response: string, name: string) => new RegExp(`^${name}: *(.*?)\r$`, 'im').exec(response)?.[1];

describe('A path no route matches answers 404, as API Gateway does', () => {
  it('malformed %-encoding in a route or asset path is 404 { message }', async () => {
    for (const path of ['/agent/image/%E0%A4%A', '/assets/%E0%A4%A', '/assets/%', '/%E0%A4%A']) {
      const response = await fetch(`${gateway.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ message: 'Not Found' });
    }
  });
  it('a body sent to a path no route matches gets its 404 with Connection: close, no reset', async () => {
    const size = 2 * 1024 * 1024;
    const { response, error } = await exchange(`POST /nowhere HTTP/1.1\r\nHost: local\r\nContent-Length: ${size}\r\n\r\n`, size);
    expect(error?.code).toBeUndefined();
    expect([statusOf(response), headerOf(response, 'connection')]).toEqual([404, 'close']);
  });
  it('an asset that is a directory or unreadable is 404; a readable one is served', async () => {
    for (const path of ['/assets/renders', '/assets/renders/x']) {
      const response = await fetch(`${gateway.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ message: 'Not Found' });
    }
    const ok = await fetch(`${gateway.url}/assets/ok.png`);
    expect([ok.status, ok.headers.get('content-type')]).toEqual([200, 'image/png']);
  });
});

describe('A body over the payload limit answers 413 and closes cleanly', () => {
  it('a client that sends the whole body without Expect: 100-continue reads 413 Connection: close, no reset', async () => {
    const size = MAX_BODY + 1024 * 1024;
    const head = `POST /agent/image HTTP/1.1\r\nHost: local\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`;
    const { response, error } = await exchange(head, size);
    expect(error?.code).toBeUndefined();
    expect(statusOf(response)).toBe(413);
    expect(headerOf(response, 'connection')).toBe('close');
    expect(response.endsWith('{"message":"Request Entity Too Large"}')).toBe(true);
  });
  it('fetch reads the 413 of a chunked upload over the limit', async () => {
    const chunk = new Uint8Array(256 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= MAX_BODY + 2 * chunk.length) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${gateway.url}/agent/image`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
  });
  it('a body at the limit still reaches the function', async () => {
    const response = await fetch(`${gateway.url}/agent/image`, { method: 'POST', body: new Uint8Array(MAX_BODY) });
    expect(response.status).toBe(200);
  });
});

describe("Headers over API Gateway's 10240-byte limit answer 431 and close cleanly", () => {
  const request = (headerBytes: number) =>
    `GET /agent/image/abc HTTP/1.1\r\nHost: local\r\nX-Padding: ${'p'.repeat(headerBytes)}\r\n\r\n`;
  it('headers over the limit (1 MiB and 12 KiB) read 431 Connection: close, no reset', async () => {
    for (const bytes of [1024 * 1024, 12 * 1024]) {
      const { response, error } = await exchange(request(bytes));
      expect(error?.code, `${bytes}`).toBeUndefined();
      expect(statusOf(response), `${bytes}`).toBe(431);
      expect(headerOf(response, 'connection')).toBe('close');
      expect(response.endsWith('{"message":"Request Header Fields Too Large"}')).toBe(true);
    }
  });
  it('headers under the limit are served', async () => {
    const response = await fetch(`${gateway.url}/agent/image/abc`, { headers: { 'x-padding': 'p'.repeat(9 * 1024) } });
    expect(response.status).toBe(200);
  });
});

describe("CORS is answered as API Gateway answers it with the APIs' configuration (lib/cors.ts)", () => {
  const ORIGIN = 'https://buyer.example';
  const preflight = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,payment-signature', ...headers },
    });

  it('a preflight is 204 with the allowed origin, methods, headers and max age, and invokes no function', async () => {
    const before = invocations;
    const response = await preflight('/agent/image');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')!.split(',')).toEqual(['GET', 'POST', 'DELETE']);
    const allowed = response.headers.get('access-control-allow-headers')!.toLowerCase().split(',');
    for (const name of ['payment-signature', 'x-payment', 'x-idempotency-key', 'service-api-version', 'authorization', 'content-type']) {
      expect(allowed, name).toContain(name);
    }
    expect(response.headers.get('access-control-max-age')).toBe(String(CORS_POLICY.maxAgeSeconds));
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(await response.text()).toBe('');
    expect(invocations).toBe(before);
  });

  it('a preflight on a path no route matches is answered too (before routing); an OPTIONS that is no preflight is routed: 404', async () => {
    const response = await preflight('/nowhere');
    expect([response.status, response.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
    const plain = await fetch(`${gateway.url}/agent/image`, { method: 'OPTIONS', headers: { origin: ORIGIN } });
    expect(plain.status).toBe(404);
    expect(plain.headers.get('access-control-allow-origin')).toBe('*');
  });

  it("an answer to a request with an Origin carries the allowed origin and the exposed headers, replacing the function's own", async () => {
    const response = await fetch(`${gateway.url}/agent/image/abc`, { headers: { origin: ORIGIN } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = response.headers.get('access-control-expose-headers')!.toLowerCase().split(',');
    for (const name of ['payment-required', 'payment-response', 'x-payment-response', 'location', 'retry-after', 'ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      expect(exposed, name).toContain(name);
    }
    expect(response.headers.get('payment-response')).toBe('receipt');
  });

  it("the gateway's own refusals carry them as well; a request without an Origin gets none", async () => {
    const missing = await fetch(`${gateway.url}/nowhere`, { headers: { origin: ORIGIN } });
    expect([missing.status, missing.headers.get('access-control-allow-origin')]).toEqual([404, '*']);
    const tooBig = await fetch(`${gateway.url}/agent/image`, { method: 'POST', headers: { origin: ORIGIN }, body: new Uint8Array(MAX_BODY + 1) });
    expect([tooBig.status, tooBig.headers.get('access-control-allow-origin')]).toEqual([413, '*']);
    const plain = await fetch(`${gateway.url}/agent/image/abc`);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    expect(plain.headers.get('access-control-expose-headers')).toBeNull();
  });

  it('what the local hook answers (the dev wallet) is left alone: its preflight is never granted', async () => {
    const withHook = await startGateway({
      port: 0,
      routes: [route('POST', '/agent/image')],
      local: async (_req, res, pathname) => {
        if (pathname !== '/_local/dev-wallet/sign') return false;
        res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"loopback pages only"}');
        return true;
      },
      invoke: async () => ({ statusCode: 200, body: '{}' }),
    });
    try {
      const response = await fetch(`${withHook.url}/_local/dev-wallet/sign`, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await withHook.close();
    }
  });
});

describe('the sign-in authorizer, run before a route that takes a sign-in as API Gateway runs a REQUEST authorizer (payload 2.0, simple responses)', () => {
  /**
   * A gateway with one sign-in route and one plain route; `answer` is what the authorizer answers (or throws), and
   * `identitySources` what the authorizer's identity sources are (lib/sign-in-authorizer.ts's unless given).
   */
  async function withAuthorizer(
    answer: (event: any) => unknown,
    { stageVariables = { surface: 'generation' }, identitySources }: { stageVariables?: Record<string, string> | null; identitySources?: string[] } = {},
  ) {
    const seen: { authorizer: any[]; route: any[] } = { authorizer: [], route: [] };
    const g = await startGateway({
      port: 0,
      routes: [{ ...route('GET', '/api/purchases'), signIn: true }, route('GET', '/agent/image/{jobId}')],
      ...(stageVariables ? { stageVariables } : {}),
      ...(identitySources ? { authorizerIdentitySources: identitySources } : {}),
      authorize: async (event) => {
        seen.authorizer.push(event);
        return answer(event);
      },
      invoke: async (_route, event) => {
        seen.route.push(event);
        return { statusCode: 200, body: '{}' };
      },
    });
    return { g, seen };
  }
  const accepted = () => ({ isAuthorized: true, context: { signIn: 'accepted', address: '0xabc' } });

  it('hands the route its context (requestContext.authorizer.lambda); the authorizer event has no body, its identity source is the route key', async () => {
    const { g, seen } = await withAuthorizer(accepted);
    try {
      expect((await fetch(`${g.url}/api/purchases?limit=2`, { headers: { 'sign-in-with-x': 'x' } })).status).toBe(200);
      expect(seen.route[0].requestContext.authorizer).toEqual({ lambda: { signIn: 'accepted', address: '0xabc' } });
      expect(seen.route[0].stageVariables).toEqual({ surface: 'generation' });
      const event = seen.authorizer[0];
      expect(event).toMatchObject({ version: '2.0', type: 'REQUEST', identitySource: ['GET /api/purchases'], rawPath: '/api/purchases', rawQueryString: 'limit=2', headers: { 'sign-in-with-x': 'x' } });
      expect(event.stageVariables).toEqual({ surface: 'generation' });
      expect(event.body).toBeUndefined();
      // A route that takes no sign-in never runs it.
      expect((await fetch(`${g.url}/agent/image/j1`)).status).toBe(200);
      expect(seen.authorizer).toHaveLength(1);
    } finally {
      await g.close();
    }
  });

  it('runs it on every request to the route: one with no sign-in, no header, no query and no stage variable still reaches it (the route answers the 402)', async () => {
    const { g, seen } = await withAuthorizer(() => ({ isAuthorized: true, context: { signIn: 'none' } }), { stageVariables: null });
    try {
      expect((await fetch(`${g.url}/api/purchases`)).status).toBe(200);
      expect(seen.authorizer).toHaveLength(1);
      expect(seen.authorizer[0].identitySource).toEqual(['GET /api/purchases']);
      expect(seen.route[0].requestContext.authorizer).toEqual({ lambda: { signIn: 'none' } });
    } finally {
      await g.close();
    }
  });

  it('isAuthorized false is 403, a throw or a malformed answer 500; the route never runs', async () => {
    const cases: [(event: any) => unknown, number][] = [
      [() => ({ isAuthorized: false }), 403],
      [() => { throw new Error('boom'); }, 500],
      [() => ({ context: {} }), 500],
    ];
    for (const [answer, status] of cases) {
      const { g, seen } = await withAuthorizer(answer, { stageVariables: { surface: 'agents' } });
      try {
        const response = await fetch(`${g.url}/api/purchases`);
        expect(response.status).toBe(status);
        expect(await response.json()).toEqual({ message: { 403: 'Forbidden', 500: 'Internal Server Error' }[status] });
        expect(seen.route).toHaveLength(0);
        expect(seen.authorizer).toHaveLength(1);
      } finally {
        await g.close();
      }
    }
  });

  it('an identity source that is missing or empty is 401 {"message":"Unauthorized"} without calling it, as API Gateway answers; each one present, it is called with their values', async () => {
    const { g, seen } = await withAuthorizer(accepted, { identitySources: ['$request.header.Sign-In-With-X', '$request.querystring.who', '$stageVariables.surface', '$context.routeKey'] });
    try {
      const ask = (query: string, headers: Record<string, string>) => fetch(`${g.url}/api/purchases${query}`, { headers });
      for (const [query, headers] of [
        ['?who=me', {}],
        ['?who=me', { 'sign-in-with-x': '' }],
        ['', { 'sign-in-with-x': 'x' }],
        ['?who=', { 'sign-in-with-x': 'x' }],
        ['?WHO=me', { 'sign-in-with-x': 'x' }],
      ] as const) {
        const response = await ask(query, headers);
        expect(response.status, `${query} ${JSON.stringify(headers)}`).toBe(401);
        expect(await response.json()).toEqual({ message: 'Unauthorized' });
      }
      expect(seen.authorizer).toHaveLength(0);
      expect(seen.route).toHaveLength(0);
      expect((await ask('?who=me', { 'Sign-In-With-X': 'x' })).status).toBe(200);
      expect(seen.authorizer.map((event) => event.identitySource)).toEqual([['x', 'me', 'generation', 'GET /api/purchases']]);
    } finally {
      await g.close();
    }
    // A stage variable the stage does not set is missing too.
    const unset = await withAuthorizer(accepted, { stageVariables: null, identitySources: ['$stageVariables.surface'] });
    try {
      expect((await fetch(`${unset.g.url}/api/purchases`)).status).toBe(401);
      expect(unset.seen.authorizer).toHaveLength(0);
    } finally {
      await unset.g.close();
    }
  });

  it('refuses to start with an identity source it cannot evaluate (never a 401 per request)', async () => {
    await expect(withAuthorizer(accepted, { identitySources: ['$context.authorizer.claims'] })).rejects.toThrow(/identity source \$context\.authorizer\.claims/);
    await expect(withAuthorizer(accepted, { identitySources: ['method.request.header.Auth'] })).rejects.toThrow(/identity source/);
  });
});
