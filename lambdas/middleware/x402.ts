/**
 * x402 v2 `exact`: no PAYMENT-SIGNATURE → 402 challenge; unreadable → 402 `Payment authorization missing` with a
 * PAYMENT-REFERENCE; otherwise the payload is verified (signature, terms, window, balance) and the verified
 * payment is left in `request.internal.payment` for the use case, which locks and settles it after validation.
 * Runs before body validation, as the spec requires. A JWT in the header is an agent-payment token instead:
 * verified against the issuer's key set here, charged by the use case after validation.
 */
import { randomUUID } from 'node:crypto';
import { PaymentRequiredError } from '../shared/errors.js';
import { baseUrl, header } from '../shared/http.js';
import { logger } from '../shared/logger.js';
import { paymentChallenge, paymentRequirement, REASON_MISSING, REASON_UNREADABLE, type PaymentTerms } from '../payments/challenge.js';
import { paymentPayloadSchema, type PaymentVerifier, type PaymentPayload } from '../payments/types.js';
import { PRODUCTS, type ProductId } from '../products/catalog.js';
import { looksLikeJwt } from '../payments/token/claims.js';
import type { TokenVerifier } from '../payments/token/verify.js';
import type { HttpMiddleware, HttpRequest } from './types.js';

export interface X402Options {
  product: ProductId;
  terms: () => PaymentTerms;
  verifier: () => PaymentVerifier;
  /** Agent-payment tokens (pay+jwt, kya-pay+jwt); null when no issuer is configured. */
  tokens: () => Pick<TokenVerifier, 'verify'> | null;
}

export function x402Payment(options: X402Options): HttpMiddleware {
  const before = async (request: HttpRequest) => {
    const terms = options.terms();
    const base = baseUrl(request.event);
    const refuse = (reason: string, extraHeaders: Record<string, string> = {}) =>
      new PaymentRequiredError(paymentChallenge(options.product, base, terms, reason), extraHeaders);

    const signature = header(request.event, 'payment-signature');
    if (signature === undefined) throw refuse(REASON_MISSING);

    // A third-party agent-payment token travels in the same header in place of an x402 payload.
    if (looksLikeJwt(signature)) {
      const tokens = options.tokens();
      if (!tokens) throw refuse('Agent-payment tokens are not accepted here');
      const result = await tokens.verify(signature.trim(), { amount: PRODUCTS[options.product].amount, product: options.product });
      if (!result.ok) {
        logger.info('token refused', { reason: result.reason });
        throw refuse(result.reason);
      }
      request.internal.payment = result.payment;
      return;
    }

    const payload = decodePayload(signature);
    if (!payload) {
      const reference = randomUUID();
      logger.warn('unreadable payment header', { reference, length: signature.length });
      throw refuse(REASON_UNREADABLE, { 'PAYMENT-REFERENCE': reference });
    }
    const result = await options.verifier().verify(payload, paymentRequirement(options.product, base, terms));
    if (!result.ok) {
      logger.info('payment refused', { reason: result.reason, payer: payload.payload.authorization.from });
      throw refuse(result.reason);
    }
    request.internal.payment = result.payment;
  };
  return { name: 'x402Payment', before };
}

/** Whether a PAYMENT-SIGNATURE value reads as a payment at all (not whether it is valid): the probe limiter's test. */
export function carriesPayment(value: string | undefined): boolean {
  return value !== undefined && (looksLikeJwt(value) || decodePayload(value) !== undefined);
}

export function decodePayload(header: string): PaymentPayload | undefined {
  try {
    const decoded = JSON.parse(Buffer.from(header.trim(), 'base64').toString('utf8'));
    const parsed = paymentPayloadSchema.safeParse(decoded);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
