/**
 * The chain clients' fetch (lambdas/payments/rpc-fetch.ts) against a JSON-RPC server on loopback: what it answers,
 * and that viem's HTTP transport behaves with it exactly as with the global fetch (same results, same error classes
 * and messages), including its time-out.
 */
import http from 'node:http';
import https from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createClient, http as httpTransport } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcFetch } from '../../../lambdas/payments/rpc-fetch.js';

type Reply = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;

let server: http.Server;
let url: string;
let reply: Reply;
const sockets = new Set<unknown>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    sockets.add(req.socket);
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => reply(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const json = (res: http.ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
};

describe('rpcFetch', () => {
  it('posts the body with its length and answers status, headers and text', async () => {
    let seen: { method?: string; length?: string; type?: string; body?: string } = {};
    reply = (req, body, res) => {
      seen = { method: req.method, length: req.headers['content-length'], type: req.headers['content-type'], body };
      json(res, 200, { jsonrpc: '2.0', id: 1, result: '0x2105' });
    };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: ['é'] });
    const response = await rpcFetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(seen).toEqual({ method: 'POST', length: String(Buffer.byteLength(body)), type: 'application/json', body });
    expect(response.ok).toBe(true);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(response.body).toBeNull();
    expect(JSON.parse(await response.text())).toEqual({ jsonrpc: '2.0', id: 1, result: '0x2105' });
  });

  it('keeps the connection alive between requests', async () => {
    sockets.clear();
    reply = (_req, _body, res) => json(res, 200, { jsonrpc: '2.0', id: 1, result: null });
    for (let i = 0; i < 3; i++) await (await rpcFetch(url, { method: 'POST', body: '{}' })).text();
    expect(sockets.size).toBe(1);
  });

  it('sends again, on a new connection, a request that met a kept-alive connection the server had closed', async () => {
    sockets.clear();
    let requests = 0;
    reply = (req, _body, res) => {
      requests++;
      // The second request arrives on the reused connection, which the server drops unanswered.
      if (requests === 2) return void req.socket.destroy();
      json(res, 200, { jsonrpc: '2.0', id: 1, result: requests });
    };
    expect(JSON.parse(await (await rpcFetch(url, { method: 'POST', body: '{}' })).text()).result).toBe(1);
    expect(JSON.parse(await (await rpcFetch(url, { method: 'POST', body: '{}' })).text()).result).toBe(3);
    expect([requests, sockets.size]).toEqual([3, 2]);
  });

  it('does not send again when a new connection is dropped, nor after an answer began', async () => {
    let requests = 0;
    const fresh = http.createServer((req) => {
      requests++;
      req.socket.destroy();
    });
    await new Promise<void>((resolve) => fresh.listen(0, '127.0.0.1', resolve));
    try {
      const port = (fresh.address() as AddressInfo).port;
      await expect(rpcFetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'ECONNRESET' });
      expect(requests).toBe(1);
    } finally {
      await new Promise((resolve) => fresh.close(resolve));
    }
    requests = 0;
    reply = (_req, _body, res) => {
      requests++;
      if (requests === 1) return json(res, 200, { result: 1 });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '50' });
      res.write('{"res');
      setTimeout(() => res.socket?.destroy(), 10);
    };
    await (await rpcFetch(url, { method: 'POST', body: '{}' })).text();
    await expect(rpcFetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(requests).toBe(2);
  });

  it('answers a non-2xx status as not ok, with its body', async () => {
    reply = (_req, _body, res) => res.writeHead(503, 'Service Unavailable', { 'content-type': 'text/plain' }).end('overloaded');
    const response = await rpcFetch(url, { method: 'POST', body: '{}' });
    expect([response.ok, response.status, response.statusText, await response.text()]).toEqual([false, 503, 'Service Unavailable', 'overloaded']);
  });

  it('rejects with the signal reason when aborted, and the server sees the connection go', async () => {
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    reply = (req) => req.socket.on('close', closed); // never answers
    const controller = new AbortController();
    const pending = rpcFetch(url, { method: 'POST', body: '{}', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop now')), 20);
    await expect(pending).rejects.toThrow('stop now');
    await gone;
    const aborted = AbortSignal.abort(new Error('already'));
    await expect(rpcFetch(url, { method: 'POST', body: '{}', signal: aborted })).rejects.toThrow('already');
  });

  it('rejects an answer cut off before its end', async () => {
    reply = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"jsonrpc":');
      setTimeout(() => res.socket?.destroy(), 10);
    };
    await expect(rpcFetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('rejects an answer larger than 10 MiB', async () => {
    reply = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      for (let i = 0; i < 11; i++) res.write(chunk);
      res.end();
    };
    await expect(rpcFetch(url, { method: 'POST', body: '{}' })).rejects.toThrow('larger than');
  });

  it('refuses a URL that is neither http nor https, and a refused connection rejects', async () => {
    await expect(rpcFetch('ftp://127.0.0.1/rpc', { method: 'POST', body: '{}' })).rejects.toThrow('Unsupported RPC URL protocol ftp:');
    const closedPort = await new Promise<number>((resolve) => {
      const s = http.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    await expect(rpcFetch(`http://127.0.0.1:${closedPort}/`, { method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('speaks TLS to an https URL and verifies the certificate (a self-signed one is refused)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rpc-fetch-tls-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-days', '1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
      const tls = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => json(res, 200, { result: 1 }));
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      try {
        const port = (tls.address() as AddressInfo).port;
        await expect(rpcFetch(`https://127.0.0.1:${port}/`, { method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
      } finally {
        tls.closeAllConnections();
        await new Promise((resolve) => tls.close(resolve));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("viem's HTTP transport with rpcFetch behaves as with the global fetch", () => {
  const clientWith = (fetchFn?: unknown, timeout = 2_000) =>
    createClient({ transport: httpTransport(url, { retryCount: 0, timeout, ...(fetchFn ? { fetchFn: fetchFn as never } : {}) }) });
  /** What a request resolves to, or its error's class, name, message and JSON-RPC code/data. */
  const outcome = async (client: ReturnType<typeof clientWith>, method = 'eth_call') => {
    try {
      return { result: await client.request({ method, params: [] } as never) };
    } catch (error) {
      const e = error as { constructor: { name: string }; name: string; shortMessage?: string; details?: string; code?: number; cause?: { data?: unknown; code?: number } };
      return { error: e.constructor.name, name: e.name, shortMessage: e.shortMessage, details: e.details, code: e.code, data: e.cause?.data, causeCode: e.cause?.code };
    }
  };
  const revertData = '0x08c379a0' + '0'.repeat(62) + '20' + '0'.repeat(62) + '05' + Buffer.from('nope!').toString('hex').padEnd(64, '0');
  const cases: [string, Reply][] = [
    ['a result', (_q, body, res) => json(res, 200, { jsonrpc: '2.0', id: JSON.parse(body).id, result: '0x01' })],
    ['a revert with data', (_q, body, res) => json(res, 200, { jsonrpc: '2.0', id: JSON.parse(body).id, error: { code: 3, message: 'execution reverted: nope!', data: revertData } })],
    ['a JSON-RPC error on HTTP 500', (_q, body, res) => json(res, 500, { jsonrpc: '2.0', id: JSON.parse(body).id, error: { code: -32000, message: 'nonce too low' } })],
    ['an HTTP 502 with text', (_q, _b, res) => res.writeHead(502, 'Bad Gateway', { 'content-type': 'text/plain' }).end('upstream down')],
    ['a 200 that is not JSON', (_q, _b, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello')],
  ];
  for (const [name, answer] of cases) {
    it(`on ${name}`, async () => {
      reply = answer;
      const ours = await outcome(clientWith(rpcFetch));
      const theirs = await outcome(clientWith());
      expect(ours).toEqual(theirs);
    });
  }

  it('on a time-out: the same TimeoutError', async () => {
    reply = () => undefined; // never answers
    const ours = await outcome(clientWith(rpcFetch, 150));
    const theirs = await outcome(clientWith(undefined, 150));
    expect(ours).toEqual(theirs);
    expect(ours.error).toBe('TimeoutError');
  });
});
