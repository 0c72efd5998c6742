/**
 * The x402 v2 payment requirement and 402 challenge of an Offer. Everything in them comes from the offer (price,
 * resource, schema) and the seller's terms (network, asset, payTo), so a document built from the same offer
 * cannot disagree with what the route charges.
 */
import { formatUsd } from '../../shared/money.js';
import { NETWORKS, type NetworkId } from '../../shared/networks.js';
import { USDC_DOMAIN, X402_VERSION, type PaymentChallenge, type PaymentRequirement } from '../types.js';
import type { Offer } from './types.js';

export interface PaymentTerms {
  network: string;
  usdcAddress: `0x${string}`;
  payTo: `0x${string}`;
  /** The token's EIP-712 domain name (`USD Coin` on Base, `USDC` on Base Sepolia); defaults to Base's. */
  tokenName?: string;
}

export const REASON_MISSING = 'PAYMENT-SIGNATURE header is required';
export const REASON_UNREADABLE = 'Payment authorization missing';
export const REASON_TOKENS_NOT_ACCEPTED = 'Agent-payment tokens are not accepted here';

export function paymentRequirement(offer: Offer, terms: PaymentTerms): PaymentRequirement {
  const amount = offer.amount.toString();
  return {
    scheme: 'exact',
    network: terms.network,
    maxAmountRequired: amount,
    amount,
    asset: terms.usdcAddress,
    payTo: terms.payTo,
    maxTimeoutSeconds: offer.timeoutSeconds,
    resource: offer.resource,
    description: offer.description,
    mimeType: offer.mimeType,
    ...(offer.docs ? { docs: offer.docs } : {}),
    extra: { name: terms.tokenName ?? USDC_DOMAIN.name, version: USDC_DOMAIN.version, decimals: USDC_DOMAIN.decimals, priceUsd: formatUsd(offer.amount) },
    outputSchema: {
      input: { type: 'http', method: offer.method, bodyType: 'json', body: offer.inputSchema },
      output: { type: 'json', example: offer.outputExample },
    },
  };
}

export function paymentChallenge(offer: Offer, terms: PaymentTerms, error: string): PaymentChallenge {
  return {
    x402Version: X402_VERSION,
    error,
    resource: { url: offer.resource, description: offer.description, mimeType: offer.mimeType },
    accepts: offer.legacyV1 ? [paymentRequirement(offer, terms), legacyRequirement(offer, terms)] : [paymentRequirement(offer, terms)],
    extensions: offer.bazaar
      ? {
          bazaar: {
            discoverable: true,
            category: offer.bazaar.category,
            tags: offer.bazaar.tags,
            input: { type: 'http', method: offer.method, bodyType: 'json', body: offer.inputSchema },
            output: { type: 'json', example: offer.outputExample },
          },
        }
      : {},
  };
}

/**
 * The x402 v1 entry of an offer: the same terms under the network's v1 name (`base`), with the v1 fields
 * (`maxAmountRequired`, the resource URL, `mimeType`, `maxTimeoutSeconds`, `asset`, `payTo`, `extra`). A v2 client
 * ignores it (its network is not a CAIP-2 id it registered); a v1 client (x402-fetch 1.x) picks it.
 */
export function legacyRequirement(offer: Offer, terms: PaymentTerms): PaymentRequirement {
  return underLegacyName(paymentRequirement(offer, terms));
}

/** The same requirement with its network named as x402 v1 names it (`base`, `base-sepolia`). */
export function underLegacyName(requirement: PaymentRequirement): PaymentRequirement {
  return { ...requirement, network: NETWORKS[requirement.network as NetworkId]?.name ?? requirement.network };
}
