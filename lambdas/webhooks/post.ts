/**
 * One attempt at POSTing a webhook, made so that the receiver cannot turn it against us:
 * - the address connected to is the address checked: request() resolves the name through our own `lookup`, which
 *   refuses if any resolved address is refused and hands back only the first one, so DNS rebinding between the check
 *   and the connect cannot slip through; IP literals (for which Node never calls `lookup`) are checked before;
 * - once connected, the socket's remote address is checked again and nothing, not even the headers, is written until
 *   it passes;
 * - no redirects (a 3xx is just a status), no body read (only the status counts), one timer for the whole attempt
 *   (DNS, connect, TLS, status), no keep-alive pool shared between receivers.
 * It never throws: every outcome, refusals included, is a WebhookAttempt, so the caller only records and retries.
 * `fetch` is not used: it follows redirects and hides the socket.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Socket } from 'node:net';
import {
  checkWebhookUrlForm,
  defaultLookup,
  ipLiteral,
  refusalMessage,
  refusedAddress,
  refusedAmong,
  type LookupAll,
  type WebhookPolicy,
} from './address.js';

export interface WebhookAttempt {
  status?: number;
  error?: string;
  delivered: boolean;
}

export const WEBHOOK_TIMEOUT_MS = 10_000;

/** A receiver address the policy refuses, found while connecting. */
export class WebhookRefusedError extends Error {
  override name = 'WebhookRefusedError';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The `lookup` option for request(): resolves with the given LookupAll, refuses when any address is refused, and
 * answers with the first address only, in the single or the `all` form (Node asks for `all` when it races families).
 */
function guardedLookup(lookupAll: LookupAll, policy: WebhookPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookupAll(hostname).then(
      (addresses) => {
        if (addresses.length === 0) return callback(new WebhookRefusedError('Webhook URL host does not resolve'), '');
        const refusal = refusedAmong(addresses, policy);
        if (refusal) return callback(new WebhookRefusedError(refusal), '');
        const first = addresses[0];
        if (options.all) return callback(null, [{ address: first.address, family: first.family }]);
        callback(null, first.address, first.family);
      },
      () => callback(new WebhookRefusedError('Webhook URL host does not resolve'), ''),
    );
  };
}

/** Calls `then` once the socket is connected, after checking the address it is connected to. */
function whenConnectedTo(socket: Socket, policy: WebhookPolicy, then: (refusal?: string) => void): void {
  const check = () => {
    const remote = socket.remoteAddress ?? '';
    const reason = refusedAddress(remote, policy);
    then(reason ? refusalMessage(reason, remote) : undefined);
  };
  if (socket.connecting) socket.once('connect', check);
  else if (socket.remoteAddress) check();
  else socket.once('connect', check);
}

function withBodyHeaders(headers: Record<string, string>, body: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'content-length') result[name] = value;
  }
  if (!Object.keys(result).some((name) => name.toLowerCase() === 'content-type')) result['content-type'] = 'application/json';
  result['content-length'] = String(Buffer.byteLength(body));
  return result;
}

/** A short error for the record: the host may appear, the query string (a receiver's token, perhaps) never does. */
function shortError(err: unknown, url: URL): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const text = code && !message.includes(code) ? `${code}: ${message}` : message;
  return url.search ? text.split(url.search).join('') : text;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

function startRequest(url: URL, body: string, headers: Record<string, string>, policy: WebhookPolicy, lookupAll: LookupAll): ClientRequest {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return send({
    method: 'POST',
    protocol: url.protocol,
    hostname: ipLiteral(url) ?? url.hostname,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    headers: withBodyHeaders(headers, body),
    agent: false,
    lookup: guardedLookup(lookupAll, policy),
  });
}

export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  policy: WebhookPolicy,
  options: { timeoutMs?: number; lookup?: LookupAll } = {},
): Promise<WebhookAttempt> {
  const form = checkWebhookUrlForm(url, policy);
  if (!form.ok) return { delivered: false, error: form.msg };
  const target = form.url;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;

  return new Promise<WebhookAttempt>((resolve) => {
    let req: ClientRequest | undefined;
    let settled = false;
    const settle = (attempt: WebhookAttempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req?.destroy();
      resolve(attempt);
    };
    const timer = setTimeout(() => settle({ delivered: false, error: `timed out after ${seconds(timeoutMs)}` }), timeoutMs);

    try {
      req = startRequest(target, body, headers, policy, options.lookup ?? defaultLookup);
    } catch (err) {
      return settle({ delivered: false, error: shortError(err, target) });
    }
    req.on('error', (err) => settle({ delivered: false, error: shortError(err, target) }));
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      res.destroy();
      settle({ status, delivered: status >= 200 && status <= 299 });
    });
    req.on('socket', (socket: Socket) =>
      whenConnectedTo(socket, policy, (refusal) => {
        if (refusal) return settle({ delivered: false, error: refusal });
        req?.end(body);
      }),
    );
  });
}
