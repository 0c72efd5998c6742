/**
 * A JSON-RPC proxy on loopback in front of a real node (the local chain), for tests of what the settler does when
 * the node is slow or refuses: per method, a rule can hold the answer (after forwarding the request, so the node
 * has acted on it), answer a JSON-RPC error or an HTTP status instead of forwarding, or forward and then answer an
 * error (the node took it, the answer says otherwise). Every request's method is recorded in `seen`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxyRule {
  /** Hold the answer this long (ms). */
  delayMs?: number;
  /** Answer this JSON-RPC error. */
  error?: { code: number; message: string };
  /** Answer this HTTP status (with a JSON-RPC error body of the same code). */
  httpStatus?: number;
  /** Forward the request to the node first (default: only when neither error nor httpStatus is set). */
  forward?: boolean;
  /** Apply to this many requests, then forward plainly (default: every request). */
  times?: number;
}

export interface RpcProxy {
  url: string;
  seen: string[];
  on(method: string, rule: ProxyRule): void;
  clear(): void;
  stop(): Promise<void>;
}

export async function startRpcProxy(upstream: string): Promise<RpcProxy> {
  const rules = new Map<string, ProxyRule>();
  const seen: string[] = [];
  const forward = async (body: string) =>
    (await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();

  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      const request = JSON.parse(body) as { id: number; method: string };
      seen.push(request.method);
      const active = rules.get(request.method);
      if (active?.times !== undefined && --active.times <= 0) rules.delete(request.method);
      try {
        const forwards = active ? (active.forward ?? (!active.error && !active.httpStatus)) : true;
        const answer = forwards ? await forward(body) : undefined;
        if (active?.delayMs) await new Promise((resolve) => setTimeout(resolve, active.delayMs));
        if (res.destroyed) return;
        res.setHeader('content-type', 'application/json');
        if (active?.httpStatus) {
          res.statusCode = active.httpStatus;
          res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: active.httpStatus, message: 'Too Many Requests' } }));
        } else if (active?.error) {
          res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, error: active.error }));
        } else res.end(answer);
      } catch (error) {
        res.destroy(error as Error);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    on: (method, rule) => void rules.set(method, { ...rule }),
    clear: () => {
      rules.clear();
      seen.length = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
