/**
 * The x402 backend chosen by configuration, built once per process: self-settlement with a gas key (the embedded
 * default and a self-hosted deployment) or a remote x402 facilitator; and the payment core of the entries whose
 * offers take x402 alone (the agent studio's runs, A2A sends and top-ups: `accepts: ['x402']`), which carries no
 * agent-payment token code. backend.ts adds the tokens for the generation surface's core.
 */
import { paymentConfig } from '../shared/config.js';
import type { PaymentSettler, PaymentVerifier } from './types.js';
import { paymentTerms } from './terms.js';
import { PaymentCore } from './core/server.js';
import { DynamoSettlerLeases } from '../store/settler-leases.js';
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

let core: PaymentCore | undefined;

/**
 * The payment core of an entry whose offers accept x402 alone. The same decisions as backend.ts paymentCore() for
 * such an offer (the core asks for the token backend only when the offer accepts tokens; a token is refused as not
 * accepted here either way), without bundling the token verifier and charger.
 */
export function x402PaymentCore(): PaymentCore {
  core ??= new PaymentCore({ terms: paymentTerms, x402: paymentBackend, tokens: () => null });
  return core;
}
