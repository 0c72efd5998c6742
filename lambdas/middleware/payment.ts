/**
 * The Middy adapter of the payment core for HTTP routes. It runs before body validation (the spec's 402 comes
 * first): the core decides on the offer and the classified header, and this adapter only switches on the
 * decision — a refusal becomes the 402, a verified payment (and the offer it pays) is left in `request.internal` for
 * the purchase use case, which locks and settles it after validation (docs/decisions/0001).
 */
import { DependencyError, PaymentRequiredError } from '../shared/errors.js';
import { header } from '../shared/http.js';
import { classifyLegacyHeader, classifyPaymentHeader, LEGACY_PAYMENT_HEADER, PAYMENT_HEADER, type PaymentHeader } from '../payments/core/header.js';
import type { PaymentCore } from '../payments/core/server.js';
import { headerChallenge, v1BodyChallenge } from '../payments/core/challenge.js';
import type { Offer, PaymentRefusal } from '../payments/core/types.js';
import type { HttpMiddleware, HttpRequest } from './types.js';
import { chainChecksOf, chainRefusal } from '../payments/core/chain-checks.js';
import { mark, startMarks, writeTiming } from '../payments/settlement-timing.js';

/**
 * The request's payment header, read and classified once; the rate limit, idempotency and payment share it. Where
 * a surface accepts x402 v1 (`request.internal.legacyV1`), `X-PAYMENT` is read when PAYMENT-SIGNATURE is absent.
 */
export function paymentHeaderOf(request: HttpRequest): PaymentHeader {
  if (!request.internal.paymentHeader) {
    const current = header(request.event, PAYMENT_HEADER);
    const legacy = current === undefined && request.internal.legacyV1 ? header(request.event, LEGACY_PAYMENT_HEADER) : undefined;
    request.internal.paymentHeader = legacy !== undefined ? classifyLegacyHeader(legacy) : classifyPaymentHeader(current);
  }
  return request.internal.paymentHeader;
}

/** The one place a refusal of the payment core becomes an HTTP 402 (the frame's presenter writes the body). */
export function paymentRequired(refusal: PaymentRefusal): PaymentRequiredError {
  const { challenge } = refusal;
  return new PaymentRequiredError(challenge, refusal.headers, { header: headerChallenge(challenge), body: v1BodyChallenge(challenge) });
}

/**
 * The one HTTP mapping of a purchase that moved no money (the purchase skeleton's `refused` and `unavailable`,
 * lambdas/payments/core/purchase.ts), for every paid route: a refusal is the offer's 402 with the reason (and
 * `Retry-After` when the settler is back-pressured); an unavailable settler is a 503 (nothing was charged and the
 * authorization is free again: the buyer retries the same payment).
 */
export function refusedPurchase(
  outcome: { type: 'refused'; reason: string; retryAfterSeconds?: number } | { type: 'unavailable'; reason: string },
  offer: Offer,
  core: () => PaymentCore,
): never {
  if (outcome.type === 'unavailable') throw new DependencyError(`Settlement unavailable: ${outcome.reason}`);
  const headers: Record<string, string> = outcome.retryAfterSeconds ? { 'Retry-After': String(outcome.retryAfterSeconds) } : {};
  throw paymentRequired(core().refusal(offer, outcome.reason, headers));
}

export interface PaymentOptions {
  /** The offer this request pays for (its resource URL depends on the request's base URL). */
  offer: (request: HttpRequest) => Offer;
  core: () => PaymentCore;
}

export function payment(options: PaymentOptions): HttpMiddleware {
  const before = async (request: HttpRequest) => {
    const offer = options.offer(request);
    request.internal.offer = offer;
    // Where the time before the send goes, on a DEBUG line (payments/settlement-timing.ts); undefined otherwise.
    const marks = startMarks();
    // The chain reads are left in flight to overlap the purchase's ledger lock (payments/core/chain-checks.ts).
    const decision = await options.core().decide(offer, paymentHeaderOf(request), { deferChainChecks: true });
    switch (decision.type) {
      case 'challenge':
      case 'invalid':
        throw paymentRequired(decision);
      case 'verified':
        request.internal.payment = decision.payment;
    }
    if (marks) {
      // The gateway's arrival (API Gateway's requestContext.timeEpoch); the chain reads end beside the purchase's lock.
      marks.arrived = (request.event.requestContext as { timeEpoch?: number } | undefined)?.timeEpoch;
      mark(marks, 'offChain');
      void chainChecksOf(decision.payment).then(() => {
        mark(marks, 'chainRead');
        writeTiming('verify', marks);
      });
    }
  };
  /**
   * A request that failed after its payment was verified but before any purchase (its body refused, a webhook URL
   * refused): if the chain refuses the payment, that is the answer — 402 comes first, as when it was all checked
   * before — and a chain that could not be read is a 503. Any other answer stands.
   */
  const onError = async (request: HttpRequest) => {
    const error = request.error;
    if (!request.internal.payment || !request.internal.offer || error instanceof PaymentRequiredError || error instanceof DependencyError) return;
    const checks = await chainChecksOf(request.internal.payment);
    if (checks.ok) return;
    const refusal = chainRefusal(checks);
    request.error = 'refused' in refusal ? paymentRequired(options.core().refusal(request.internal.offer, refusal.refused)) : new DependencyError(refusal.unavailable);
  };
  return { name: 'payment', before, onError };
}
