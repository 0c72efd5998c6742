/**
 * The payment backend chosen by configuration, built once per process: self-settlement with a gas key (the
 * embedded default and a self-hosted deployment) or a remote x402 facilitator.
 */
import { paymentConfig } from '../shared/config.js';
import type { PaymentTerms } from './challenge.js';
import type { PaymentSettler, PaymentVerifier } from './types.js';
import { ViemPaymentVerifier } from './verify.js';
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
        },
      }),
    };
  }
  return backend;
}

export function paymentTerms(): PaymentTerms {
  const config = paymentConfig();
  return { network: config.network, usdcAddress: config.usdcAddress, payTo: config.payTo };
}
