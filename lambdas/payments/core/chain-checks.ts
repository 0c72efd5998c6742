/**
 * The verification's chain reads, overlapped with the ledger lock: an x402 payment whose off-chain checks
 * pass (terms, window, signature) is verified with its chain reads (the payer's balance, the authorization unused)
 * still in flight (`VerifiedPayment.chainChecks`, lambdas/payments/verify.ts). Whoever acts on the payment first
 * awaits them: the purchase skeleton beside its lock (a refusal then releases the lock: nothing moved), or, when the
 * request fails before any purchase (its body refused, say), the payment middleware, so that a payment the chain
 * refuses is still answered 402 before anything else, as the spec orders (402 before 422).
 */
import type { ChainChecks } from '../types.js';
import type { AcceptedPayment } from './types.js';

/** What the chain said of `payment` (at once when nothing was deferred: a token, a remote facilitator). */
export function chainChecksOf(payment: AcceptedPayment | undefined): Promise<ChainChecks> {
  return payment?.kind === 'x402' && payment.chainChecks ? payment.chainChecks : Promise.resolve({ ok: true });
}

/** The reason a refusal or an unreadable chain gives. */
export function chainRefusal(checks: Exclude<ChainChecks, { ok: true }>): { refused: string } | { unavailable: string } {
  return 'reason' in checks ? { refused: checks.reason } : { unavailable: checks.unavailable };
}
