/**
 * The payment core every generation-surface paid entry point uses: x402 (x402-backend.ts) and agent-payment tokens
 * when an issuer is configured. The agent studio's entries take x402 alone (x402PaymentCore, x402-backend.ts).
 */
import { tokenConfig } from './token/config.js';
import { TokenVerifier } from './token/verify.js';
import { TokenCharger } from './token/charge.js';
import { PaymentCore } from './core/server.js';
import { paymentBackend, paymentTerms } from './x402-backend.js';

export { paymentBackend, paymentTerms };
export type { PaymentBackend } from './x402-backend.js';

let tokens: { verifier: TokenVerifier; charger: TokenCharger } | null | undefined;

/** The agent-payment token backend, or null when no issuer is configured (tokens are then refused with 402). */
export function tokenBackend(): { verifier: TokenVerifier; charger: TokenCharger } | null {
  if (tokens !== undefined) return tokens;
  const config = tokenConfig();
  tokens = config
    ? { verifier: new TokenVerifier({ config }), charger: new TokenCharger({ chargeUrl: config.chargeUrl, sellerKey: config }) }
    : null;
  return tokens;
}

let core: PaymentCore | undefined;

/** The payment core of this process, over the configured backends. */
export function paymentCore(): PaymentCore {
  core ??= new PaymentCore({ terms: paymentTerms, x402: paymentBackend, tokens: tokenBackend });
  return core;
}
