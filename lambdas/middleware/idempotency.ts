/**
 * X-Idempotency-Key (at most 200 characters): the same key and body within the window returns the original
 * response without charging again, also when two requests race; the same key with another body is refused.
 * Keys belong to the party that pays (lambdas/payments/core/party.ts: the authorization's signer, or the token):
 * a replay goes only to the payer who bought the answer, never to a request without a payment or to another payer,
 * who are answered as anyone else would be (402, or their own purchase). Only paid requests take the key; only a 2xx
 * answer is kept (a 402, 422 or 5xx releases it, so the buyer's retry with the same key and a valid payment proceeds).
 */
import { createHash } from 'node:crypto';
import { IdempotencyInProgressError, IdempotentReplay, ValidationError } from '../shared/errors.js';
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

export interface IdempotencyOptions {
  store: IdempotencyPort;
  /** Scope of keys: the route (keys of different endpoints never collide). */
  scope: string | ((request: HttpRequest) => string);
  /** The paying party of a request that carries a payment (undefined: none can be read; the payment core refuses it). */
  party: (request: HttpRequest) => Promise<string | undefined>;
  /**
   * Where the key comes from (default: the X-Idempotency-Key header). A2A's message:send keys by the message's
   * `messageId` instead, the protocol's own duplicate key.
   */
  key?: { read: (request: HttpRequest) => string | undefined; name: string; loc: (string | number)[] };
  /** How long a concurrent duplicate waits for the first request's answer. */
  waitMs?: number;
  pollMs?: number;
}

const HEADER_KEY = { read: (request: HttpRequest) => header(request.event, 'x-idempotency-key'), name: 'X-Idempotency-Key', loc: ['header', 'X-Idempotency-Key'] };

export function idempotency(options: IdempotencyOptions): HttpMiddleware {
  const waitMs = options.waitMs ?? 25_000;
  const pollMs = options.pollMs ?? 100;

  const source = options.key ?? HEADER_KEY;
  const before = async (request: HttpRequest) => {
    const key = source.read(request);
    if (key === undefined) return;
    // Paid means what the rate limit and the payment mean: the header reads as a payment. An unreadable one gets its
    // 402 (with PAYMENT-REFERENCE) before anything is said about the key.
    const paid = carriesPayment(paymentHeaderOf(request));
    const tooShort = key.length === 0;
    if (tooShort || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      // A request without payment answers 402 whatever else is wrong with it (spec, asynchronous mode rule 6).
      if (!paid) return;
      throw new ValidationError([
        {
          loc: source.loc,
          msg: `${source.name} must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
          type: tooShort ? 'string_too_short' : 'string_too_long',
        },
      ]);
    }
    if (!paid) return; // a request that pays nothing is answered as such (402); it never sees a paid answer
    const party = await options.party(request);
    if (party === undefined) return;
    const scope = typeof options.scope === 'string' ? options.scope : options.scope(request);
    const pk = `${scope}#${party}#${key}`;
    const bodyHash = createHash('sha256').update(rawBody(request.event)).digest('hex');

    const known = await options.store.get(pk);
    if (known) {
      assertSameBody(known, bodyHash, source);
      if (known.status === 'completed' && known.response) throw new IdempotentReplay(known.response);
    }

    const deadline = Date.now() + waitMs;
    for (;;) {
      const begun = await options.store.begin(pk, bodyHash);
      if (begun.taken) {
        request.internal.idempotencyPk = pk;
        return;
      }
      assertSameBody(begun.existing, bodyHash, source);
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

function assertSameBody(record: IdempotencyRecord, bodyHash: string, source: { name: string; loc: (string | number)[] }): void {
  if (record.bodyHash !== bodyHash) {
    throw new ValidationError([
      {
        loc: source.loc,
        msg: `${source.name} was already used with a different request body; use a new key for a new request`,
        type: 'idempotency_key_reused',
      },
    ]);
  }
}
