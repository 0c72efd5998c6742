/**
 * The Middy chain of a paid generation endpoint, in the order the architecture fixes:
 * version ▸ errors ▸ probe rate limit ▸ idempotency ▸ x402 (402 before validation) ▸ validation ▸ accept the job.
 */
import type { Context } from 'aws-lambda';
import middy from '@middy/core';
import { PRODUCTS, type ProductId } from '../products/catalog.js';
import { apiVersion, httpErrors } from '../middleware/http-frame.js';
import { probeRateLimit } from '../middleware/rate-limit.js';
import { idempotency } from '../middleware/idempotency.js';
import { x402Payment } from '../middleware/x402.js';
import { validateBody } from '../middleware/validation.js';
import type { HttpRequest } from '../middleware/types.js';
import { RateWindowStore } from '../store/rate-limit.js';
import { IdempotencyStore } from '../store/idempotency.js';
import { acceptPaidJob, PaymentRefused } from '../jobs/accept.js';
import { acceptDeps } from '../jobs/deps.js';
import { paymentChallenge } from '../payments/challenge.js';
import { paymentBackend, paymentTerms, tokenBackend } from '../payments/backend.js';
import { PaymentRequiredError } from '../shared/errors.js';
import { baseUrl, wantsBlocking, type HttpEvent, type HttpResult } from '../shared/http.js';
import { httpConfig } from '../shared/config.js';
import { urlsFor } from './urls.js';

export function paidEntry(product: ProductId) {
  const core = async (event: HttpEvent, request: HttpRequest, context: Partial<Context>): Promise<HttpResult> => {
    const payment = request.internal.payment!;
    const body = request.internal.body as Record<string, unknown>;
    const base = baseUrl(event);
    try {
      return await acceptPaidJob(
        acceptDeps(),
        {
          product,
          request: body,
          payment,
          urls: urlsFor(base),
          blocking: wantsBlocking(event, body as { asyncMode?: boolean }),
          blockingWaitMs: httpConfig().blockingWaitMs,
          deadline: answerDeadline(context),
        },
      );
    } catch (error) {
      if (error instanceof PaymentRefused) {
        throw new PaymentRequiredError(paymentChallenge(product, base, paymentTerms(), error.message));
      }
      throw error;
    }
  };

  const chain = middy<HttpEvent, HttpResult>()
    .use(apiVersion())
    .use(httpErrors())
    .use(probeRateLimit({ counter: new RateWindowStore() }))
    .use(idempotency({ store: new IdempotencyStore(), scope: product }))
    .use(x402Payment({ product, terms: paymentTerms, verifier: () => paymentBackend().verifier, tokens: () => tokenBackend()?.verifier ?? null }))
    .use(validateBody(PRODUCTS[product].schema));
  // Middy passes only (event, context) to the handler; the request (and its internal state) is found by its
  // event, which is unique per invocation even when one process serves many requests at once (local gateway).
  const requests = new WeakMap<HttpEvent, HttpRequest>();
  chain.before((request) => {
    requests.set(request.event, request as HttpRequest);
  });
  return chain.handler(async (event, context) => core(event, requests.get(event)!, context));
}

/** Time kept back from the function's time-out to record the answer (idempotency) and send it. */
export const ANSWER_MARGIN_MS = 3_000;

export function answerDeadline(context: Partial<Context>): number | undefined {
  const remaining = context.getRemainingTimeInMillis?.();
  return remaining === undefined ? undefined : Date.now() + remaining - ANSWER_MARGIN_MS;
}
