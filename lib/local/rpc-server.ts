/**
 * JSON-RPC over HTTP in front of an in-process EIP-1193 provider, so viem http transports, other processes
 * (`npm run fund`) and wallets can reach the embedded chain. Loopback only; single and batch requests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Eip1193Like {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
}

export interface RpcServer {
  url: string;
  port: number;
  /** Requests answered so far by method, a batch's each counted (the bench reports the receipt polls per payment). */
  calls(): Record<string, number>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 5 * 1024 * 1024;

interface RpcRequest {
  jsonrpc?: string;
  id?: string | number | null;
  method?: unknown;
  params?: unknown;
}

export async function startRpcServer(provider: Eip1193Like, port: number, host = '127.0.0.1'): Promise<RpcServer> {
  const calls = new Map<string, number>();
  const counted: Eip1193Like = {
    request: (args) => {
      calls.set(args.method, (calls.get(args.method) ?? 0) + 1);
      return provider.request(args);
    },
  };
  const server = http.createServer((req, res) => {
    handle(counted, req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${actual}`,
    port: actual,
    calls: () => Object.fromEntries(calls),
    close: () =>
      new Promise<void>((resolve) => {
        // Keep-alive sockets from viem's fetch would otherwise hold close() open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(provider: Eip1193Like, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(req.method === 'OPTIONS' ? 204 : 405, { Allow: 'POST, OPTIONS' }).end();
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req));
  } catch (error) {
    send(res, failure(null, -32700, `Parse error: ${(error as Error).message}`));
    return;
  }
  if (Array.isArray(body)) {
    if (body.length === 0) {
      send(res, failure(null, -32600, 'Invalid request: empty batch'));
      return;
    }
    send(res, await Promise.all(body.map((one) => answer(provider, one))));
    return;
  }
  send(res, await answer(provider, body));
}

async function answer(provider: Eip1193Like, raw: unknown): Promise<object> {
  const request = (typeof raw === 'object' && raw !== null ? raw : {}) as RpcRequest;
  const id = request.id ?? null;
  if (typeof request.method !== 'string') return failure(id, -32600, 'Invalid request');
  try {
    const params = request.params ?? [];
    const result = await provider.request({ method: request.method, params: params as unknown[] });
    return { jsonrpc: '2.0', id, result: result ?? null };
  } catch (error) {
    const e = error as { code?: unknown; message?: string; data?: unknown };
    // Revert data must come back as `error.data` hex so clients can decode the reason.
    const code = typeof e.code === 'number' ? e.code : -32603;
    return failure(id, code, e.message ?? 'Internal error', revertData(e.data));
  }
}

function revertData(data: unknown): unknown {
  if (typeof data === 'string') return data;
  if (typeof data === 'object' && data !== null && 'data' in data) {
    const inner = (data as { data?: unknown }).data;
    if (typeof inner === 'string') return inner;
  }
  return undefined;
}

function failure(id: RpcRequest['id'], code: number, message: string, data?: unknown): object {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

function send(res: http.ServerResponse, payload: unknown): void {
  const text = JSON.stringify(payload, (_key, value: unknown) => (typeof value === 'bigint' ? `0x${value.toString(16)}` : value));
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
