/** The refunder of failed paid jobs, built once per process: the refund wallet's authorization, settled by the settler. */
import { ChainRefunder, type Refunder } from '../payments/refund.js';
import { paymentBackend } from '../payments/backend.js';

let built: Refunder | undefined;
export function refunder(): Refunder {
  built ??= new ChainRefunder({ settler: paymentBackend().settler });
  return built;
}
