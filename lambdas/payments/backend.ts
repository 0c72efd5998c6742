/**
 * The payment backends chosen by configuration, built once per process: x402 self-settlement with a gas key (the
 * embedded default and a self-hosted deployment) or a remote x402 facilitator; agent-payment tokens when an issuer
 * is configured. `paymentCore()` is the one payment core every paid entry point uses.
 */
import { paymentConfig } from '../shared/config.js';
import type { PaymentSettler, PaymentVerifier } from './types.js';
import { paymentTerms } from './terms.js';
import { PaymentCore } from './core/server.js';
import { DynamoSettlerLeases } from '../store/settler-leases.js';
import { tokenConfig } from './token/config.js';
import { TokenVerifier } from './token/verify.js';
import { TokenCharger } from './token/charge.js';
import { publicClientFor, ViemPaymentVerifier } from './verify.js';
import { SelfSettler, RemoteFacilitatorSettler, RemoteFacilitatorVerifier } from './settle.js';

export interface PaymentBackend {
  verifier: PaymentVerifier;
  settler: PaymentSettler;
}

let backend: PaymentBackend | undefined;

export function paymentBackend(): PaymentBackend {
  if (backend) return backend;
  const config = paymentConfig();
  if (config.facilitatorMode === 'remote') {
    const options = { url: config.facilitatorUrl!, chainId: config.chainId };
    backend = { verifier: new RemoteFacilitatorVerifier(options), settler: new RemoteFacilitatorSettler(options) };
  } else {
    backend = {
      verifier: new ViemPaymentVerifier({ config: { chainId: config.chainId, rpcUrl: config.rpcUrl } }),
      settler: new SelfSettler({
        config: {
          chainId: config.chainId,
          rpcUrl: config.rpcUrl,
          settlerKeyFile: config.settlerKeyFile,
          settlerKeySecretId: config.settlerKeySecretId,
          gasFloorWei: config.settlerGasFloorWei,
          receiptPollMs: config.receiptPollMs,
          blockTimeMs: config.blockTimeMs,
        },
        leases: new DynamoSettlerLeases(),
        ...(config.preconfRpcUrl ? { preconfReader: publicClientFor(config.preconfRpcUrl) } : {}),
      }),
    };
  }
  return backend;
}

export { paymentTerms };

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
