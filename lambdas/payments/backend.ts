/**
 * The payment backend chosen by configuration, built once per process: self-settlement with a gas key (the
 * embedded default and a self-hosted deployment) or a remote x402 facilitator.
 */
import { paymentConfig } from '../shared/config.js';
import type { PaymentTerms } from './challenge.js';
import type { AcceptedPayment, ChargeOptions, ChargeResult, PaymentSettler, PaymentVerifier } from './types.js';
import { tokenConfig } from './token/config.js';
import { TokenVerifier } from './token/verify.js';
import { TokenCharger } from './token/charge.js';
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

/** Moves the money of an accepted payment: settles an x402 authorization or charges a token. */
export function charge(payment: AcceptedPayment, options: ChargeOptions = {}): Promise<ChargeResult> {
  if (payment.kind === 'token') {
    const backend = tokenBackend();
    if (!backend) return Promise.resolve({ ok: false, reason: 'Agent-payment tokens are not accepted here', broadcast: false });
    return backend.charger.charge(payment);
  }
  return paymentBackend().settler.settle(payment, options);
}
