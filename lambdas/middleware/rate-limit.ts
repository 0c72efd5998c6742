/**
 * Unpaid probe rate limit: requests to a paid route that carry no payment (no PAYMENT-SIGNATURE, or one that reads
 * as neither an x402 payload nor an agent-payment token) count against a fixed window per client (20 per 60 s).
 * Requests carrying a payment are not limited here. Counted responses carry the IETF RateLimit headers
 * and the X-RateLimit-* trio; a request over quota gets 429 `rate_limited` with Retry-After.
 */
import { RateLimitedError } from '../shared/errors.js';
import { clientId } from '../shared/http.js';
import { carriesPayment } from '../payments/core/header.js';
import { paymentHeaderOf } from './payment.js';
import { addResponseHeaders, type HttpMiddleware, type HttpRequest } from './types.js';

export interface RateWindowCounter {
  hit(client: string, policy: string, windowStart: number, windowSeconds: number): Promise<number>;
}

export interface ProbeRateLimitOptions {
  counter: RateWindowCounter;
  limit?: number;
  windowSeconds?: number;
  policy?: string;
  now?: () => number;
}

export function probeRateLimit(options: ProbeRateLimitOptions): HttpMiddleware {
  const limit = options.limit ?? 20;
  const windowSeconds = options.windowSeconds ?? 60;
  const policy = options.policy ?? 'probe';
  const now = options.now ?? Date.now;

  const before = async (request: HttpRequest) => {
    if (carriesPayment(paymentHeaderOf(request))) return;
    const nowS = Math.floor(now() / 1000);
    const windowStart = nowS - (nowS % windowSeconds);
    const reset = windowStart + windowSeconds;
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
  return { name: 'probeRateLimit', before };
}
