/**
 * The one place the payment header is read and classified. Every consumer (the probe rate limit, idempotency,
 * the payment decision) uses this classification, so "paid" means one thing: the header reads as an x402 v2
 * payload or as an agent-payment token. Legacy x402 v1 (`X-PAYMENT`) joins here with the agent studio.
 */
import { paymentPayloadSchema, type PaymentPayload } from '../types.js';
import { looksLikeJwt } from '../token/claims.js';

export const PAYMENT_HEADER = 'PAYMENT-SIGNATURE';

export type PaymentHeader =
  | { kind: 'none' }
  /** Present but neither an x402 payload nor a token (junk, truncated base64, another protocol). */
  | { kind: 'unreadable'; length: number }
  | { kind: 'x402'; payload: PaymentPayload }
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
