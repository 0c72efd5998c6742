/** A verified x402 payment and its settlement receipt, as the purchase and run use cases receive them (unit tests). */
import type { VerifiedPayment } from '../../lambdas/payments/types.js';

export const X402_PAYMENT = {
  kind: 'x402',
  payer: '0xabc',
  amount: 150000n,
  nonceKey: 'k1',
  payload: { payload: { authorization: { validBefore: 1_900_000_000n } } },
} as unknown as VerifiedPayment;

export const RECEIPT = { success: true as const, transaction: '0xt', network: 'eip155:8453', payer: '0xabc' };
