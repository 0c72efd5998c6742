/**
 * The x402 v2 payment requirement and 402 challenge of an Offer. Everything in them comes from the offer (price,
 * resource, schema) and the seller's terms (network, asset, payTo), so a document built from the same offer
 * cannot disagree with what the route charges.
 */
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import { formatUsd } from '../../shared/money.js';
import { NETWORKS, networkOf, type NetworkId } from '../../shared/networks.js';
import { USDC_DOMAIN, X402_VERSION, type PaymentChallenge, type PaymentRequirement } from '../types.js';
import type { Offer } from './types.js';

export interface PaymentTerms {
  network: string;
  usdcAddress: `0x${string}`;
  payTo: `0x${string}`;
}

export const REASON_MISSING = 'PAYMENT-SIGNATURE header is required';
export const REASON_UNREADABLE = 'Payment authorization missing';
export const REASON_TOKENS_NOT_ACCEPTED = 'Agent-payment tokens are not accepted here';

/**
 * An offer's x402 requirement as its 402 carries it: the contract's fields (spec, "Payment requirement"), no more.
 * The official client echoes the requirement it accepts inside PAYMENT-SIGNATURE (`accepted`), so what the buyer
 * needs only to discover the route (the body schema and an output example) is the discovery documents'
 * (`discoveryRequirement`) and the bazaar declaration's, not the 402's.
 */
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
    // The token's EIP-712 domain name is the network's (`USD Coin` on Base, `USDC` on Base Sepolia).
    extra: { name: networkOf(terms.network).tokenName, version: USDC_DOMAIN.version, decimals: USDC_DOMAIN.decimals, priceUsd: formatUsd(offer.amount) },
  };
}

/**
 * What a discovery document says of an offer's call beyond its terms: the request (method, JSON body schema) and an
 * example answer. The same pair is a requirement's `outputSchema` and the contract's bazaar `input`/`output`.
 */
export function callShape(offer: Offer) {
  return {
    input: { type: 'http', method: offer.method, bodyType: 'json', body: offer.inputSchema },
    output: { type: 'json', example: offer.outputExample },
  };
}

/** The requirement as the discovery documents list it: the 402's, with an `outputSchema` (input body shape, output example). */
export function discoveryRequirement(offer: Offer, terms: PaymentTerms): PaymentRequirement {
  return { ...paymentRequirement(offer, terms), outputSchema: callShape(offer) };
}

export function paymentChallenge(offer: Offer, terms: PaymentTerms, error: string): PaymentChallenge {
  return {
    x402Version: X402_VERSION,
    error,
    resource: {
      url: offer.resource,
      description: offer.description,
      mimeType: offer.mimeType,
      // The bazaar extension's service metadata (@x402/extensions' sanitizeResourceServiceMetadata keeps both).
      ...(offer.serviceName ? { serviceName: offer.serviceName } : {}),
      ...(offer.bazaar?.tags.length ? { tags: offer.bazaar.tags } : {}),
    },
    accepts: offer.legacyV1 ? [paymentRequirement(offer, terms), legacyRequirement(offer, terms)] : [paymentRequirement(offer, terms)],
    extensions: challengeExtensions(offer),
  };
}

/** A 402's `extensions`, by name (x402 v2: each `{ info, schema }`; bazaar also carries the contract's fields). */
export type Extensions = Record<string, unknown> & { bazaar?: Record<string, unknown> };

/**
 * The extensions every 402 declares. The official client (@x402/core's x402Client) echoes all of them into the
 * payment payload, so they ride back in PAYMENT-SIGNATURE, and API Gateway refuses a request whose request line and
 * header values pass 10240 bytes: the 402 carries each thing once (test/unit/payments/header-budget.test.ts holds
 * every route's echo inside the budget). So bazaar here is the official declaration (`info` + `schema`, which
 * @x402/extensions' validateDiscoveryExtension reads) with the contract's `discoverable`, `category` and `tags`; the
 * contract's `input` and `output` are the discovery documents' (`discoveryExtensions`), as `outputSchema` is.
 * `payment-identifier` is declared by @x402/extensions (optional).
 */
export function challengeExtensions(offer: Offer): Extensions {
  return {
    ...(offer.bazaar ? { bazaar: bazaarOf(offer.bazaar, {}) } : {}),
    // Optional: a payload's `id` is an idempotency key (lambdas/middleware/idempotency.ts).
    [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false),
  };
}

/**
 * The extensions as the discovery documents publish them (`/.well-known/x402` on both surfaces): the 402's, with the
 * contract's own bazaar `input` and `output` beside the official form.
 */
export function discoveryExtensions(offer: Offer): Extensions {
  const extensions = challengeExtensions(offer);
  return offer.bazaar ? { ...extensions, bazaar: bazaarOf(offer.bazaar, callShape(offer)) } : extensions;
}

/** The bazaar member: the contract's fields (`call`: its input/output, in discovery documents only), then the official declaration. */
function bazaarOf(bazaar: NonNullable<Offer['bazaar']>, call: Partial<ReturnType<typeof callShape>>): Record<string, unknown> {
  return { discoverable: true, category: bazaar.category, tags: bazaar.tags, ...call, ...bazaar.declaration };
}

/**
 * The x402 v1 entry of an offer: the same terms under the network's v1 name (`base`), with the v1 fields
 * (`maxAmountRequired`, the resource URL, `mimeType`, `maxTimeoutSeconds`, `asset`, `payTo`, `extra`), for a v1
 * client (x402-fetch 1.x). It belongs in the 402 body only, never in PAYMENT-REQUIRED: see `headerChallenge`.
 */
export function legacyRequirement(offer: Offer, terms: PaymentTerms): PaymentRequirement {
  return underLegacyName(paymentRequirement(offer, terms));
}

/** The same requirement with its network named as x402 v1 names it (`base`, `base-sepolia`). */
export function underLegacyName(requirement: PaymentRequirement): PaymentRequirement {
  return { ...requirement, network: NETWORKS[requirement.network as NetworkId]?.name ?? requirement.network };
}

/** A CAIP-2 chain id (`namespace:reference`, e.g. `eip155:8453`): how x402 v2 names a network. */
const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/;

export function isCaip2(network: string): boolean {
  return CAIP2.test(network);
}

/**
 * The challenge as PAYMENT-REQUIRED carries it: pure x402 v2, only the entries on a CAIP-2 network. A strict v2
 * client validates every entry of that header and throws the whole challenge away over one `base` entry
 * (x402-conformance RS-PR-006).
 */
export function headerChallenge(challenge: PaymentChallenge): PaymentChallenge {
  return { ...challenge, accepts: challenge.accepts.filter((entry) => isCaip2(entry.network)) };
}

/**
 * The challenge as an x402 v1 client reads it from the 402 body: only the entries it can parse. Every published
 * x402-fetch 1.x parses every body entry with the v1 schema and throws on a CAIP-2 network.
 */
export function v1BodyChallenge(challenge: PaymentChallenge): PaymentChallenge {
  return { ...challenge, accepts: challenge.accepts.filter((entry) => !isCaip2(entry.network)) };
}
