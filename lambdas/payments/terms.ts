/** The payment terms of every 402 and document (network, token, pay-to), from configuration alone: no backend. */
import { paymentConfig } from '../shared/config.js';
import type { PaymentTerms } from './core/challenge.js';

export function paymentTerms(): PaymentTerms {
  const config = paymentConfig();
  return { network: config.network, usdcAddress: config.usdcAddress, payTo: config.payTo };
}
