/**
 * What a fake settler does with a settlement begun before the purchase is ready (SettleOptions.proceed): an x402
 * purchase begins it beside the lock, and it sends only once the purchase says to; told no, it sends nothing.
 */
import type { Settlement, SettleOptions } from '../../lambdas/payments/core/types.js';

/** The refusal a settlement told not to proceed answers (lambdas/payments/settle.ts). */
export const ABANDONED: Settlement = { type: 'refused', reason: 'Settlement abandoned before broadcast' };

/** True once the purchase says to send (at once when it was not begun early); false when it says no. */
export async function toldToSend(options?: SettleOptions): Promise<boolean> {
  return !options?.proceed || (await options.proceed.catch(() => false));
}
