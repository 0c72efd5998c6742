/**
 * Idempotency keys of paid requests: X-Idempotency-Key (at most 200 characters), or, when a request has none, the
 * x402 `payment-identifier` extension's `id` inside the payment payload (every 402 declares it,
 * lambdas/payments/core/challenge.ts). The same key and request within the window returns the original response
 * without charging again, also when two requests race; the same key with another request is refused (X-Idempotency-Key:
 * 422 `idempotency_key_reused`; a payment identifier: 409 `payment_identifier_conflict`, the extension's own rule).
 * Keys belong to the party that pays (lambdas/payments/core/party.ts: the authorization's signer, or the token):
 * a replay goes only to the payer who bought the answer, never to a request without a payment or to another payer,
 * who are answered as anyone else would be (402, or their own purchase). Only paid requests take the key; only a 2xx
 * answer is kept (a 402, 422 or 5xx releases it, so the buyer's retry with the same key and a valid payment proceeds).
 *
 * A payment identifier binds the request as the extension asks ("Request Binding"): the body, the route (the scope),
 * and the payment terms the payload accepted (scheme, network, asset, amount, payTo), so a client that retries with a
 * freshly signed authorization and the same `id` gets the first answer, and one that reuses an `id` for another
 * question or price gets a 409. The signer must be the same: another wallet's `id` is another key.
 */
import { createHash } from 'node:crypto';
import { extractPaymentIdentifier, isValidPaymentId, PAYMENT_ID_MAX_LENGTH, PAYMENT_ID_MIN_LENGTH, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import { IdempotencyConflictError, IdempotencyInProgressError, IdempotentReplay, ValidationError } from '../shared/errors.js';
import { header, rawBody } from '../shared/http.js';
import { carriesPayment } from '../payments/core/header.js';
import { paymentHeaderOf } from './payment.js';
import type { IdempotencyRecord, BeginResult } from '../store/idempotency.js';
import type { StoredResponse } from '../shared/errors.js';
import type { HttpMiddleware, HttpRequest } from './types.js';
import { logger } from '../shared/logger.js';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

export interface IdempotencyPort {
  get(pk: string): Promise<IdempotencyRecord | undefined>;
  begin(pk: string, bodyHash: string): Promise<BeginResult>;
  complete(pk: string, response: StoredResponse): Promise<void>;
  release(pk: string): Promise<void>;
}

/** Where a key comes from, how it is checked, and what a reuse with another request is answered. */
export interface KeySource {
  read: (request: HttpRequest) => string | undefined;
  name: string;
  loc: (string | number)[];
  /** The key's problem, if it is malformed (a 422 naming `loc`). */
  check: (key: string) => { msg: string; type: string } | undefined;
  /** Namespace in the record's key, so keys of two sources never meet. */
  prefix: string;
  /** What the request is bound to, beside the body (hashed with it). */
  binding?: (request: HttpRequest) => string;
  /** Same key, another request. */
  reused: () => Error;
}

export interface IdempotencyOptions {
  store: IdempotencyPort;
  /** Scope of keys: the route (keys of different endpoints never collide). */
  scope: string | ((request: HttpRequest) => string);
  /** The paying party of a request that carries a payment (undefined: none can be read; the payment core refuses it). */
  party: (request: HttpRequest) => Promise<string | undefined>;
  /**
   * Where the key comes from (default: the X-Idempotency-Key header). A2A's message:send keys by the message's
   * `messageId` instead, the protocol's own duplicate key. The payment identifier is read when this gives none.
   */
  key?: { read: (request: HttpRequest) => string | undefined; name: string; loc: (string | number)[] };
  /** What else makes a request the same one besides its body (the top-up's tier, from its query). */
  binding?: (request: HttpRequest) => string;
  /** How long a concurrent duplicate waits for the first request's answer. */
  waitMs?: number;
  pollMs?: number;
}

function namedKey(source: { read: (request: HttpRequest) => string | undefined; name: string; loc: (string | number)[] }): KeySource {
  return {
    ...source,
    prefix: '',
    check: (key) =>
      key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH
        ? { msg: `${source.name} must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`, type: key.length === 0 ? 'string_too_short' : 'string_too_long' }
        : undefined,
    reused: () =>
      new ValidationError([
        { loc: source.loc, msg: `${source.name} was already used with a different request body; use a new key for a new request`, type: 'idempotency_key_reused' },
      ]),
  };
}

const HEADER_KEY = namedKey({ read: (request: HttpRequest) => header(request.event, 'x-idempotency-key'), name: 'X-Idempotency-Key', loc: ['header', 'X-Idempotency-Key'] });

/** The x402 v2 payment payload's `extensions["payment-identifier"].info.id` (read with @x402/extensions). */
export const PAYMENT_ID_KEY: KeySource = {
  read: (request) => {
    const payment = paymentHeaderOf(request);
    if (payment.kind !== 'x402' || payment.legacy) return undefined;
    return extractPaymentIdentifier(payment.payload as never, false) ?? undefined;
  },
  name: 'payment-identifier id',
  loc: ['header', 'PAYMENT-SIGNATURE', 'extensions', PAYMENT_IDENTIFIER, 'info', 'id'],
  prefix: 'pid:',
  check: (key) =>
    isValidPaymentId(key)
      ? undefined
      : { msg: `a payment identifier is ${PAYMENT_ID_MIN_LENGTH} to ${PAYMENT_ID_MAX_LENGTH} letters, digits, hyphens and underscores`, type: 'payment_identifier_invalid' },
  // The extension's request binding: the terms the payload accepted (the route is the scope, the body is hashed).
  binding: (request) => {
    const payment = paymentHeaderOf(request);
    if (payment.kind !== 'x402') return '';
    const { scheme, network, asset, amount, maxAmountRequired, payTo } = payment.payload.accepted;
    return JSON.stringify([scheme, network, asset.toLowerCase(), amount ?? maxAmountRequired ?? '', payTo.toLowerCase()]);
  },
  reused: () => new IdempotencyConflictError(),
};

export function idempotency(options: IdempotencyOptions): HttpMiddleware {
  const waitMs = options.waitMs ?? 25_000;
  const pollMs = options.pollMs ?? 100;

  const primary = options.key ? namedKey(options.key) : HEADER_KEY;
  const before = async (request: HttpRequest) => {
    // The request's own key, else its payment identifier: one key per request.
    let source = primary;
    let key = primary.read(request);
    if (key === undefined) {
      key = PAYMENT_ID_KEY.read(request);
      source = PAYMENT_ID_KEY;
    }
    if (key === undefined) return;
    // Paid means what the rate limit and the payment mean: the header reads as a payment. An unreadable one gets its
    // 402 (with PAYMENT-REFERENCE) before anything is said about the key.
    const paid = carriesPayment(paymentHeaderOf(request));
    const problem = source.check(key);
    if (problem) {
      // A request without payment answers 402 whatever else is wrong with it (spec, asynchronous mode rule 6).
      if (!paid) return;
      throw new ValidationError([{ loc: source.loc, ...problem }]);
    }
    if (!paid) return; // a request that pays nothing is answered as such (402); it never sees a paid answer
    const party = await options.party(request);
    if (party === undefined) return;
    const scope = typeof options.scope === 'string' ? options.scope : options.scope(request);
    const pk = `${scope}#${party}#${source.prefix}${key}`;
    // The body alone for X-Idempotency-Key on a route without a binding (as recorded before bindings existed).
    const bindings = [options.binding?.(request), source.binding?.(request)].filter((b): b is string => b !== undefined);
    const hash = createHash('sha256').update(rawBody(request.event));
    for (const binding of bindings) hash.update(`\n${binding}`);
    const bodyHash = hash.digest('hex');

    const known = await options.store.get(pk);
    if (known) {
      assertSameRequest(known, bodyHash, source);
      if (known.status === 'completed' && known.response) throw new IdempotentReplay(known.response);
    }

    const deadline = Date.now() + waitMs;
    for (;;) {
      const begun = await options.store.begin(pk, bodyHash);
      if (begun.taken) {
        request.internal.idempotencyPk = pk;
        return;
      }
      assertSameRequest(begun.existing, bodyHash, source);
      if (begun.existing.status === 'completed' && begun.existing.response) {
        throw new IdempotentReplay(begun.existing.response);
      }
      if (Date.now() >= deadline) throw new IdempotencyInProgressError();
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };

  const after = async (request: HttpRequest) => {
    const pk = request.internal.idempotencyPk;
    if (!pk || !request.response) return;
    const succeeded = request.response.statusCode >= 200 && request.response.statusCode < 300;
    try {
      if (succeeded) {
        await options.store.complete(pk, {
          statusCode: request.response.statusCode,
          headers: { ...request.response.headers, ...(request.internal.responseHeaders ?? {}) },
          body: typeof request.response.body === 'string' ? request.response.body : '',
        });
      } else {
        await options.store.release(pk);
      }
    } catch (error) {
      // The answer stands: a 2xx here means the buyer paid, and must not become a 5xx because the key could not be
      // written. The key's lock lapses after LOCK_SECONDS; the payment's nonce lock still stops a second charge.
      logger.error('idempotency key not recorded', { succeeded, error: (error as Error).message });
    }
  };

  const onError = async (request: HttpRequest) => {
    const pk = request.internal.idempotencyPk;
    if (!pk) return;
    try {
      await options.store.release(pk);
    } catch (error) {
      // Let the error middleware answer the original error; the lock lapses after LOCK_SECONDS.
      logger.error('idempotency key not released', { error: (error as Error).message });
    }
  };

  return { name: 'idempotency', before, after, onError };
}

function assertSameRequest(record: IdempotencyRecord, bodyHash: string, source: KeySource): void {
  if (record.bodyHash !== bodyHash) throw source.reused();
}
