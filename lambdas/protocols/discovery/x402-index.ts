/**
 * The x402 discovery index (`/.well-known/x402`, byte-identical at `/.well-known/x402.json`).
 * Each resource's `accepts` and `extensions.bazaar` are taken from the very challenge the endpoint's 402 answers
 * (lambdas/payments/challenge.ts), so the index cannot advertise terms the endpoint does not enforce. The bazaar
 * entry holds the contract's fields and, beside them, the official `info`/`schema` declaration @x402/extensions built
 * for the route (lambdas/payments/core/bazaar.source.ts).
 */
import { CATALOG_UPDATED_AT, PRODUCTS, PRODUCT_IDS, formatUsd, type ProductId } from '../../products/products.js';
import { paymentChallenge, productOffer } from '../../jobs/offers.js';
import { discoveryExtensions, discoveryRequirement, underLegacyName } from '../../payments/core/challenge.js';
import { X402_VERSION, type PaymentRequirement } from '../../payments/types.js';
import { SERVICE, links, offerReceiptMember, signInMember, type DiscoveryContext } from './context.js';
import { NETWORKS } from '../../shared/networks.js';

/** The third-party agent-payment token block: accepted in the same header in place of an x402 payload. */
export const TOKEN_PAYMENT = {
  header: 'PAYMENT-SIGNATURE',
  tokenTypes: ['pay+jwt', 'kya-pay+jwt'],
  description:
    'A third-party agent-payment token (pay+jwt or kya-pay+jwt, ES256, verified against the issuer key set) may be ' +
    'sent in PAYMENT-SIGNATURE instead of an x402 payment payload; it is charged through the issuer.',
} as const;

/**
 * The legacy network alias some x402 v1 clients match on. The duplicate entry is identical to the CAIP-2 one
 * apart from `network`, so whichever a client picks, it signs the same terms.
 */
/** The x402 v1 name of Base mainnet (each network's own name comes from lambdas/shared/networks.ts). */
export const LEGACY_NETWORK_ALIAS = NETWORKS['eip155:8453'].name;

/** The escrow-based agent-commerce rail: listed for completeness, paused, and not payable here. */
export const ACP_OFFERS = [
  {
    id: 'product_showcase_video_10s',
    title: 'Product showcase video (10 s)',
    priceUsd: '$10.00',
    description: 'A 10-second product showcase video, delivered through the escrow rail.',
  },
  {
    id: 'suede_music_generation',
    title: 'Music generation',
    priceUsd: '$2.00',
    description: 'An original song generated from a brief, delivered through the escrow rail.',
  },
  {
    id: 'general_video',
    title: 'General video',
    priceUsd: '$8.00',
    description: 'A general-purpose generated video, delivered through the escrow rail.',
  },
  {
    id: 'product_showcase_video',
    title: 'Product showcase video',
    priceUsd: '$6.00',
    description: 'A product showcase video, delivered through the escrow rail.',
  },
] as const;

export function acpBlock() {
  return {
    rail: 'acp',
    agent: SERVICE.provider,
    settlement: 'escrow',
    status: 'paused',
    acceptingJobs: false,
    note:
      'The escrow-based agent-commerce rail is paused and not accepting jobs. Its offers are not x402 resources and ' +
      'are not payable over HTTP on this service; use the x402 resources above.',
    offers: ACP_OFFERS.map((o) => ({ ...o })),
  };
}

/** A requirement, then the same requirement named by its network's x402 v1 name (`base`, `base-sepolia`). */
export function networkAliases(requirement: PaymentRequirement): PaymentRequirement[] {
  return [requirement, underLegacyName(requirement)];
}

export function discoveryResource(product: ProductId, ctx: DiscoveryContext) {
  const p = PRODUCTS[product];
  // The reason is irrelevant here: only the challenge's accepts and extensions are published.
  const challenge = paymentChallenge(product, ctx.base, ctx.terms, '');
  return {
    resource: challenge.resource.url,
    method: 'POST',
    type: 'http',
    serviceName: SERVICE.name,
    title: p.title,
    description: p.description,
    category: p.category,
    tags: p.tags,
    providerName: SERVICE.provider,
    providerUrl: ctx.base,
    docsUrl: links(ctx.base).openapi,
    lastUpdated: CATALOG_UPDATED_AT,
    mimeType: 'application/json',
    accepts: networkAliases(discoveryRequirement(productOffer(product, ctx.base), ctx.terms)),
    extensions: { ...discoveryExtensions(productOffer(product, ctx.base)), skyfire: TOKEN_PAYMENT },
    priceUsd: formatUsd(p.amount),
  };
}

export function discoveryIndex(ctx: DiscoveryContext) {
  return {
    x402Version: X402_VERSION,
    settledBy: ctx.settledBy,
    ...offerReceiptMember(ctx),
    ...signInMember(ctx, 'generation'),
    // This service is its own upstream: the index is generated from the catalog it serves at /api/v1/catalog.
    catalogSource: { upstream: links(ctx.base).catalog, servedFrom: links(ctx.base).discovery, fetchedAt: CATALOG_UPDATED_AT },
    count: PRODUCT_IDS.length,
    resources: PRODUCT_IDS.map((id) => discoveryResource(id, ctx)),
    acp: acpBlock(),
  };
}
