/**
 * The local gateway (lib/local/gateway.ts) over real sockets: what it answers before a function runs — a path no
 * route or asset matches, a body over Lambda's payload limit, headers over API Gateway's limit — reaches the client
 * as a status, never as a reset connection.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../lib/local/gateway.js';
import type { RouteDef } from '../../lambdas/surfaces/routes.js';

const route = (method: RouteDef['method'], path: string): RouteDef =>
  ({ id: `${method}${path}`, method, path, surface: 'generation', entry: 'unused' }) as RouteDef;
const MAX_BODY = 6 * 1024 * 1024;
const PIECE = 16 * 1024;

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway({
    port: 0,
    routes: [route('POST', '/agent/image'), route('GET', '/agent/image/{jobId}')],
    assets: async (key) => {
      if (key === 'ok.png') return { body: new Uint8Array([1, 2, 3]), contentType: 'image/png' };
      if (key.startsWith('renders')) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read`), { code: 'EISDIR' });
      return null;
    },
    invoke: async (_route, event) => ({ statusCode: 200, body: JSON.stringify({ path: (event as { rawPath: string }).rawPath }) }),
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
