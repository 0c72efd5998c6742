/**
 * The fetch the chain clients hand to viem's `http` transport (its `fetchFn`): one JSON-RPC POST over `node:http` /
 * `node:https` with a keep-alive agent per instance, answered as a plain response object with its body already read.
 *
 * Why not the global fetch: undici's fetch builds a Request, a web ReadableStream per body and a Response per call.
 * For the few hundred bytes a JSON-RPC answer is, that machinery was the largest single cost of a paid function
 * (about a sixth of its CPU time on the embedded default, six chain requests per paid call). viem only reads what this
 * answers: `ok`, `status`, `statusText`, `headers.get()` and `text()` (no `body`, so viem reads `text()` and applies
 * its size bound to it), and it aborts through `init.signal` on its time-out.
 *
 * Kept-alive connections: an idle one is closed by this side after 4 s (earlier still when the server announces a
 * shorter Keep-Alive time-out), and a request that meets a reused connection the server closed in the meantime
 * (ECONNRESET, EPIPE before any answer) is sent once more on a new connection, as Node's documentation advises for
 * `request.reusedSocket`. Sending a JSON-RPC request twice is harmless for every call the payment code makes: reads,
 * and `eth_sendRawTransaction` of one signed transaction, which can land only once.
 *
 * What it does not do, because no chain request of ours needs it: redirects, compression (it asks for none),
 * proxies (Lambda has none; the global fetch ignores HTTP_PROXY too), request bodies other than a string.
 */
import http from 'node:http';
import https from 'node:https';

/** Bounded like viem's default response size limit (10 MiB), so a runaway answer cannot fill the instance. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** An idle kept-alive connection is closed after this long (load balancers in front of RPC providers drop them). */
const IDLE_MS = 4_000;

/** Each protocol's module and its kept-alive connections. */
const transports = {
  'http:': { client: http, agent: new http.Agent({ keepAlive: true, maxSockets: 64, timeout: IDLE_MS }) },
  'https:': { client: https, agent: new https.Agent({ keepAlive: true, maxSockets: 64, timeout: IDLE_MS }) },
};
type Transport = (typeof transports)['http:'] | (typeof transports)['https:'];

/** A reused connection the server had already closed: nothing was answered, so the request may go again. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** The part of a fetch Response viem's HTTP transport reads. */
export interface RpcResponse {
  ok: boolean;
  status: number;
  statusText: string;
  headers: Headers;
  body: null;
  text(): Promise<string>;
}

export interface RpcRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal | null;
}

export async function rpcFetch(input: string | URL, init: RpcRequestInit = {}): Promise<RpcResponse> {
  const url = typeof input === 'string' ? new URL(input) : input;
  const transport: Transport | undefined = transports[url.protocol as keyof typeof transports];
  if (!transport) throw new TypeError(`Unsupported RPC URL protocol ${url.protocol}`);
  const body = typeof init.body === 'string' ? init.body : init.body === undefined ? undefined : String(init.body);
  const signal = init.signal ?? undefined;
  try {
    return await send(transport, url, body, init, signal);
  } catch (error) {
    if (!(error instanceof StaleConnectionError)) throw error;
    return send(transport, url, body, init, signal);
  }
}

class StaleConnectionError extends Error {}

function send({ client, agent }: Transport, url: URL, body: string | undefined, init: RpcRequestInit, signal: AbortSignal | undefined): Promise<RpcResponse> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<RpcResponse>((resolve, reject) => {
    let answered = false;
    const headers: Record<string, string | number> = { ...(init.headers ?? {}) };
    if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
    const request = client.request(url, { method: init.method ?? 'GET', headers, agent });
    const onAbort = () => request.destroy(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    request.on('error', (error) => {
      done();
      const code = (error as NodeJS.ErrnoException).code;
      if (request.reusedSocket && !answered && !signal?.aborted && code !== undefined && STALE_CONNECTION.has(code)) {
        reject(new StaleConnectionError(error.message, { cause: error }));
      } else reject(error);
    });
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          request.destroy(new Error(`RPC response larger than ${MAX_BODY_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', (error) => {
        done();
        reject(error);
      });
      response.on('close', () => {
        if (response.complete) return;
        done();
        reject(new Error('RPC response ended before it was complete'));
      });
      response.on('end', () => {
        done();
        const text = Buffer.concat(chunks).toString('utf8');
        const status = response.statusCode ?? 0;
        const answer = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        resolve({
          ok: status >= 200 && status < 300,
          status,
          statusText: response.statusMessage ?? '',
          headers: answer,
          body: null,
          text: async () => text,
        });
      });
    });
    request.end(body);
  });
}
