/**
 * The one place the payment header is read and classified. Every consumer (the probe rate limit, idempotency,
 * the payment decision) uses this classification, so "paid" means one thing: the header reads as an x402 v2
 * payload or as an agent-payment token. Legacy x402 v1 (`X-PAYMENT`, agent studio only) is read here too.
 */
import * as z from '../../shared/zod.js';
import { paymentPayloadSchema, type PaymentPayload } from '../payload-schema.js';
import { looksLikeJwt } from '../token/claims.js';

export const PAYMENT_HEADER = 'PAYMENT-SIGNATURE';
/** x402 v1's header: deprecated, accepted on the agent studio during migration (spec, Authentication 4). */
export const LEGACY_PAYMENT_HEADER = 'X-PAYMENT';
export const LEGACY_RESPONSE_HEADER = 'X-PAYMENT-RESPONSE';

export type PaymentHeader =
  | { kind: 'none' }
  /** Present but neither an x402 payload nor a token (junk, truncated base64, another protocol). */
  | { kind: 'unreadable'; length: number }
  /** `legacy`: it came as an x402 v1 payload in `X-PAYMENT` (its `accepted` terms are filled in from the offer). */
  | { kind: 'x402'; payload: PaymentPayload; legacy?: true }
  /** A compact JWT (pay+jwt, kya-pay+jwt); its signature and claims are checked by the token verifier. */
  | { kind: 'token'; token: string };

export function classifyPaymentHeader(value: string | undefined): PaymentHeader {
  if (value === undefined) return { kind: 'none' };
  const trimmed = value.trim();
  if (looksLikeJwt(trimmed)) return { kind: 'token', token: trimmed };
  const payload = decodeX402Payload(trimmed);
  return payload ? { kind: 'x402', payload } : { kind: 'unreadable', length: value.length };
}

/** Whether the request carries something that reads as a payment (not whether it is valid). */
export function carriesPayment(header: PaymentHeader): boolean {
  return header.kind === 'x402' || header.kind === 'token';
}

export function decodeX402Payload(value: string): PaymentPayload | undefined {
  try {
    const parsed = paymentPayloadSchema.safeParse(JSON.parse(Buffer.from(value, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const legacyPayloadSchema = z.object({
  scheme: z.string(),
  network: z.string(),
  payload: paymentPayloadSchema.shape.payload,
});

/**
 * An `X-PAYMENT` value. A v1 payload is told by its shape (`scheme`, `network` and `payload` at the top, no
 * `accepted`), never by `x402Version`: v1 clients echo the number of the 402 body they answered. Its `accepted`
 * terms are left for the payment core to fill in from the offer; the signature still binds asset and amount.
 * A v2 payload sent under the old header name is read as v2.
 */
export function classifyLegacyHeader(value: string): PaymentHeader {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value.trim(), 'base64').toString('utf8'));
  } catch {
    return { kind: 'unreadable', length: value.length };
  }
  if (parsed && typeof parsed === 'object' && 'accepted' in parsed) {
    const v2 = paymentPayloadSchema.safeParse(parsed);
    return v2.success ? { kind: 'x402', payload: v2.data } : { kind: 'unreadable', length: value.length };
  }
  const v1 = legacyPayloadSchema.safeParse(parsed);
  if (!v1.success) return { kind: 'unreadable', length: value.length };
  const { scheme, network, payload } = v1.data;
  return {
    kind: 'x402',
    legacy: true,
    payload: { x402Version: 2, accepted: { scheme, network, asset: '', payTo: payload.authorization.to }, payload },
  };
}
