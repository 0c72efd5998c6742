/**
 * One webhook POST against real receivers on loopback: what counts as delivered, that redirects are not followed, the
 * timer and the unread body, and the guard refusing before any connection is made (each receiver counts its TCP
 * connections, so a guard that only refused after connecting would fail these tests).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postWebhook } from '../../../lambdas/webhooks/post.js';
import type { LookupAll } from '../../../lambdas/webhooks/address.js';

const embedded = { allowLoopback: true };
const aws = { allowLoopback: false };

interface Receiver {
  url: string;
  port: number;
  connections: number;
  seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[];
}

const servers: Server[] = [];
const rawServers: TcpServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
  for (const server of rawServers.splice(0)) await new Promise((done) => server.close(done));
});

/** A receiver on 127.0.0.1 that records every connection and every request body it reads, then calls `answer`. */
async function receiver(answer: RequestListener): Promise<Receiver> {
  const state: Receiver = { url: '', port: 0, connections: 0, seen: [] };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
      answer(req, res);
    });
  });
  server.on('connection', () => state.connections++);
  servers.push(server);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}`;
  return state;
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('a 2xx is delivered, the receiver gets the exact body and headers', () => {
  it('204: delivered, body and signature headers as sent, JSON content type and length added', async () => {
    const hook = await receiver((_req, res) => res.writeHead(204).end());
    const body = JSON.stringify({ jobId: 'j-1', status: 'succeeded', note: 'café' });
    const attempt = await postWebhook(`${hook.url}/done?k=v`, body, { 'x-paycall-signature': 't=1,v1=abc' }, embedded);
    expect(attempt).toEqual({ status: 204, delivered: true });
    expect(hook.seen).toHaveLength(1);
    const [seen] = hook.seen;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/done?k=v');
    expect(seen.body).toBe(body);
    expect(seen.headers['x-paycall-signature']).toBe('t=1,v1=abc');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it('keeps a content type the caller gives, and replaces a wrong content length', async () => {
    const hook = await receiver((_req, res) => res.writeHead(200).end('ok'));
    const attempt = await postWebhook(hook.url, '{"a":1}', { 'Content-Type': 'application/cloudevents+json', 'Content-Length': '999' }, embedded);
    expect(attempt).toEqual({ status: 200, delivered: true });
    expect(hook.seen[0].headers['content-type']).toBe('application/cloudevents+json');
    expect(hook.seen[0].headers['content-length']).toBe('7');
    expect(hook.seen[0].body).toBe('{"a":1}');
  });
});

describe('anything but a 2xx is not delivered', () => {
  it('500: not delivered, status kept', async () => {
    const hook = await receiver((_req, res) => res.writeHead(500).end('boom'));
    expect(await postWebhook(hook.url, '{}', {}, embedded)).toEqual({ status: 500, delivered: false });
  });

  it('302: a status, not followed; the redirect target gets nothing', async () => {
    const target = await receiver((_req, res) => res.writeHead(204).end());
    const hook = await receiver((_req, res) => res.writeHead(302, { location: `${target.url}/elsewhere` }).end());
    expect(await postWebhook(hook.url, '{}', {}, embedded)).toEqual({ status: 302, delivered: false });
    await pause(150);
    expect(hook.connections).toBe(1);
    expect(target.connections).toBe(0);
  });
});

describe('10 s per attempt, the answer body never read', () => {
  it('a receiver that never answers: timed out, settled soon after timeoutMs', { timeout: 3_000 }, async () => {
    const hook = await receiver(() => undefined);
    const started = Date.now();
    const attempt = await postWebhook(hook.url, '{}', {}, embedded, { timeoutMs: 300 });
    const elapsed = Date.now() - started;
    expect(attempt).toEqual({ delivered: false, error: 'timed out after 0.3 s' });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1_000);
  });

  it('a receiver streaming an endless body slowly: resolved at the status, connection dropped', { timeout: 5_000 }, async () => {
    let closed = false;
    const hook = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const drip = setInterval(() => res.write(chunk), 50);
      res.on('close', () => {
        closed = true;
        clearInterval(drip);
      });
    });
    const started = Date.now();
    const attempt = await postWebhook(hook.url, '{}', {}, embedded, { timeoutMs: 3_000 });
    expect(attempt).toEqual({ status: 200, delivered: true });
    expect(Date.now() - started).toBeLessThan(1_000);
    for (let waited = 0; !closed && waited < 1_000; waited += 25) await pause(25);
    expect(closed).toBe(true);
  });
});

describe('not a way into our network', () => {
  it('on AWS, http://127.0.0.1 is refused without connecting', async () => {
    const hook = await receiver((_req, res) => res.writeHead(204).end());
    const attempt = await postWebhook(hook.url, '{}', {}, aws);
    expect(attempt.delivered).toBe(false);
    expect(attempt.error).toBe('Webhook URL must use https');
    await pause(100);
    expect(hook.connections).toBe(0);
  });

  it('on AWS, an https IP literal on loopback is refused before connecting (Node never looks literals up)', async () => {
    const hook = await receiver((_req, res) => res.writeHead(204).end());
    const attempt = await postWebhook(`https://127.0.0.1:${hook.port}/hook?token=secret`, '{}', {}, aws);
    expect(attempt).toEqual({ delivered: false, error: 'Webhook URL resolves to a loopback address (127.0.0.1)' });
    await pause(100);
    expect(hook.connections).toBe(0);
  });

  it('on AWS, a name resolving to loopback at connect time is refused without connecting (DNS rebinding)', async () => {
    const hook = await receiver((_req, res) => res.writeHead(204).end());
    const asked: string[] = [];
    const rebind: LookupAll = async (hostname) => {
      asked.push(hostname);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const attempt = await postWebhook(`https://rebind.test:${hook.port}/`, '{}', {}, aws, { lookup: rebind, timeoutMs: 2_000 });
    expect(attempt).toEqual({ delivered: false, error: 'Webhook URL resolves to a loopback address (127.0.0.1)' });
    expect(asked).toEqual(['rebind.test']);
    await pause(100);
    expect(hook.connections).toBe(0);
  });

  it('a name is connected to the address the lookup gave and checked (loopback allowed on the embedded default)', async () => {
    const hook = await receiver((_req, res) => res.writeHead(204).end());
    const rebind: LookupAll = async () => [{ address: '127.0.0.1', family: 4 }];
    // http to a non-loopback name is refused by scheme, so the embedded default is asked over https; the plain
    // receiver then fails the TLS handshake, which proves the connection went to the looked-up address.
    const attempt = await postWebhook(`https://rebind.test:${hook.port}/`, '{}', {}, embedded, { lookup: rebind, timeoutMs: 2_000 });
    expect(attempt.delivered).toBe(false);
    expect(hook.connections).toBe(1);
  });

  it('refuses when any looked-up address is refused, even if the first is public', async () => {
    const mixed: LookupAll = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ];
    const attempt = await postWebhook('https://mixed.test/', '{}', {}, embedded, { lookup: mixed, timeoutMs: 2_000 });
    expect(attempt).toEqual({ delivered: false, error: 'Webhook URL resolves to a private address (10.0.0.1)' });
  });

  it('checks the address actually connected to and sends not one byte before it passes', async () => {
    // The policy allows loopback up to and including the lookup's check, then no longer: only the check of the
    // connected socket's remote address stands between the connection and the request. A raw TCP receiver counts
    // every byte that arrives.
    let connections = 0;
    let bytes = 0;
    const raw = createTcpServer((socket) => {
      connections++;
      socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    });
    rawServers.push(raw);
    await new Promise<void>((listening) => raw.listen(0, '127.0.0.1', listening));
    const port = (raw.address() as AddressInfo).port;
    let lookedUp = false;
    let readsAfterLookup = 0;
    const shifting = {
      get allowLoopback() {
        return !lookedUp || readsAfterLookup++ === 0;
      },
    };
    const loopback: LookupAll = async () => {
      lookedUp = true;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const attempt = await postWebhook(`http://localhost:${port}/hook`, '{"secret":1}', {}, shifting, { lookup: loopback, timeoutMs: 2_000 });
    expect(attempt).toEqual({ delivered: false, error: 'Webhook URL resolves to a loopback address (127.0.0.1)' });
    await pause(150);
    expect(connections).toBe(1);
    expect(bytes).toBe(0);
  });

  it('a name that does not resolve is an error, not a throw', async () => {
    const nowhere: LookupAll = async () => {
      throw new Error('getaddrinfo ENOTFOUND nowhere.test');
    };
    expect(await postWebhook('https://nowhere.test/', '{}', {}, aws, { lookup: nowhere })).toEqual({
      delivered: false,
      error: 'Webhook URL host does not resolve',
    });
  });
});

/** A throwaway self-signed key and certificate for loopback https, made by openssl when it is there (none is kept). */
function throwawayCertificate(): { key: Buffer; cert: Buffer } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    const subject = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:rebind.test,IP:127.0.0.1'];
    const keyPair = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key];
    execFileSync('openssl', ['req', '-x509', ...keyPair, '-out', cert, '-days', '1', ...subject], { stdio: 'ignore' });
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const tls = throwawayCertificate();

describe('https receivers, the way production delivers', () => {
  /** Runs `body` with an https receiver answering 204, its certificate trusted for the duration only. */
  async function withTlsReceiver(body: (port: number, seen: string[]) => Promise<void>): Promise<void> {
    const seen: string[] = [];
    const server = createTlsServer({ key: tls?.key, cert: tls?.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push(Buffer.concat(chunks).toString());
        res.writeHead(204).end();
      });
    });
    servers.push(server);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    try {
      await body((server.address() as AddressInfo).port, seen);
    } finally {
      if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
    }
  }

  it.skipIf(!tls)('a name over https is delivered to the looked-up address, the body sent once the socket is checked', async () => {
    await withTlsReceiver(async (port, seen) => {
      const lookup: LookupAll = async () => [{ address: '127.0.0.1', family: 4 }];
      const attempt = await postWebhook(`https://rebind.test:${port}/hook`, '{"tls":true}', {}, embedded, { lookup, timeoutMs: 2_000 });
      expect(attempt).toEqual({ status: 204, delivered: true });
      expect(seen).toEqual(['{"tls":true}']);
    });
  });

  it.skipIf(!tls)('an IP literal over https is delivered', async () => {
    await withTlsReceiver(async (port, seen) => {
      expect(await postWebhook(`https://127.0.0.1:${port}/hook`, '{}', {}, embedded, { timeoutMs: 2_000 })).toEqual({ status: 204, delivered: true });
      expect(seen).toEqual(['{}']);
    });
  });
});

describe('errors are short and never carry the query string', () => {
  it('a refused connection names the failure and the host, not the token', async () => {
    const hook = await receiver((_req, res) => res.writeHead(204).end());
    const port = hook.port;
    for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
    const attempt = await postWebhook(`http://127.0.0.1:${port}/hook?token=s3cr3t`, '{}', {}, embedded);
    expect(attempt.delivered).toBe(false);
    expect(attempt.status).toBeUndefined();
    expect(attempt.error).toMatch(/ECONNREFUSED/);
    expect(attempt.error).not.toMatch(/s3cr3t/);
  });

  it('an invalid URL or header is an outcome, never a throw', async () => {
    expect(await postWebhook('not a url', '{}', {}, embedded)).toEqual({ delivered: false, error: 'Webhook URL is not a valid URL' });
    const hook = await receiver((_req, res) => res.writeHead(204).end());
    const attempt = await postWebhook(hook.url, '{}', { 'x-bad': 'a\r\nb' }, embedded);
    expect(attempt.delivered).toBe(false);
    expect(attempt.error).toBeTruthy();
  });
});
