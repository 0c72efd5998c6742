/**
 * Unpaid probe rate limit: unpaid requests count against a fixed window per client (20 per 60 s). Unpaid means no
 * payment that pays: no PAYMENT-SIGNATURE, one that reads as neither an x402 payload nor an agent-payment token, or
 * one the payment core refused (counted when its 402 goes out). A request that carries a payment is verified only
 * while its client is within quota, so the verification work (a signature recovery, chain reads) a client can cause
 * with refused payments is bounded too. Counted responses carry the IETF RateLimit headers and the X-RateLimit-*
 * trio; a request over quota gets 429 `rate_limited` with Retry-After.
 */
import { PaymentRequiredError, RateLimitedError } from '../shared/errors.js';
import { clientId } from '../shared/http.js';
import { carriesPayment } from '../payments/core/header.js';
import { paymentHeaderOf } from './payment.js';
import { addResponseHeaders, type HttpMiddleware, type HttpRequest } from './types.js';

/** The unpaid-probe quota: requests per client per window (the CloudFront edge's per-IP rule derives from it, lib/config.ts). */
export const PROBE_LIMIT = 20;
export const PROBE_WINDOW_SECONDS = 60;

export interface RateWindowCounter {
  hit(client: string, policy: string, windowStart: number, windowSeconds: number): Promise<number>;
  peek(client: string, policy: string, windowStart: number): Promise<number>;
}

export interface ProbeRateLimitOptions {
  counter: RateWindowCounter;
  limit?: number;
  windowSeconds?: number;
  policy?: string;
  now?: () => number;
}

export function probeRateLimit(options: ProbeRateLimitOptions): HttpMiddleware {
  const limit = options.limit ?? PROBE_LIMIT;
  const windowSeconds = options.windowSeconds ?? PROBE_WINDOW_SECONDS;
  const policy = options.policy ?? 'probe';
  const now = options.now ?? Date.now;

  const windowOf = () => {
    const nowS = Math.floor(now() / 1000);
    const windowStart = nowS - (nowS % windowSeconds);
    return { nowS, windowStart, reset: windowStart + windowSeconds };
  };

  /** Counts this request as unpaid; over quota it is refused with 429. */
  const count = async (request: HttpRequest) => {
    const { nowS, windowStart, reset } = windowOf();
    const count = await options.counter.hit(clientId(request.event), policy, windowStart, windowSeconds);
    const remaining = Math.max(0, limit - count);
    const secondsLeft = Math.max(1, reset - nowS);
    addResponseHeaders(request, {
      'RateLimit-Policy': `"${policy}";q=${limit};w=${windowSeconds}`,
      RateLimit: `"${policy}";r=${remaining};t=${secondsLeft}`,
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(reset),
    });
    if (count > limit) throw new RateLimitedError(secondsLeft);
  };

  const before = async (request: HttpRequest) => {
    if (!carriesPayment(paymentHeaderOf(request))) return count(request);
    // A payment is verified only while the client is within quota (its refused payments counted below).
    const { nowS, windowStart, reset } = windowOf();
    if ((await options.counter.peek(clientId(request.event), policy, windowStart)) >= limit) {
      throw new RateLimitedError(Math.max(1, reset - nowS));
    }
  };

  /** A payment the core refused makes this an unpaid request: it counts (and past the quota answers 429). */
  const onError = async (request: HttpRequest) => {
    const error = request.error;
    if (!(error instanceof PaymentRequiredError) || !carriesPayment(paymentHeaderOf(request))) return;
    // Back-pressure (every settlement key busy: 402 with Retry-After) refuses no payment: the buyer retries it.
    if (error.extraHeaders['Retry-After'] !== undefined) return;
    try {
      await count(request);
    } catch (error) {
      if (error instanceof RateLimitedError) request.error = error;
      // a failed count leaves the 402 as it is
    }
  };
  return { name: 'probeRateLimit', before, onError };
}
