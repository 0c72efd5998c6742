/**
 * What every discovery document is built from besides the catalog: the request's base URL, the payment terms of
 * the 402 and how payments settle. The builders take this as an argument (pure, testable without env); the entry
 * files read it from configuration once per document.
 */
import { ROUTES, routePath, type SurfaceId } from '../../surfaces/routes.js';
import { GENERATION } from '../../surfaces/surface.js';
import { paymentTerms } from '../../payments/terms.js';
import type { PaymentTerms } from '../../payments/core/challenge.js';
import { paymentConfig } from '../../shared/config.js';

export interface DiscoveryContext {
  /** Absolute base URL of the generation surface, no trailing slash. */
  base: string;
  terms: PaymentTerms;
  /** `self` (the service submits the EIP-3009 transfer with its own gas key) or the remote facilitator's URL. */
  settledBy: string;
  /** The address that signs this service's x402 offers and receipts (the x402 indexes publish it). */
  offerSigner?: string;
}

/**
 * The x402 indexes' `offerReceipt` member: who signs this service's offers and receipts (x402 offer-receipt,
 * EIP-712), so a verifier can tie a recovered signer to the service (the extension's "signer authorization").
 */
export function offerReceiptMember(ctx: DiscoveryContext) {
  if (!ctx.offerSigner) return {};
  return {
    offerReceipt: {
      format: 'eip712',
      signer: ctx.offerSigner,
      kid: `did:pkh:eip155:1:${ctx.offerSigner}`,
      domains: { offer: 'x402 offer', receipt: 'x402 receipt' },
      receiptsIncludeTransaction: true,
    },
  };
}

/**
 * The x402 indexes' `signIn` member (docs/decisions/0020): the routes of the surface that take an x402 `sign-in-with-x` from the
 * paying wallet (the route table's `signIn`), the chain it signs on and the header it comes in. Each route's 402
 * carries the declaration itself (a fresh nonce each time); paid routes do not declare it (lambdas/sign-in/siwx.ts).
 */
export function signInMember(ctx: DiscoveryContext, surface: SurfaceId) {
  return {
    signIn: {
      extension: 'sign-in-with-x',
      header: 'SIGN-IN-WITH-X',
      supportedChains: [{ chainId: ctx.terms.network, type: 'eip191' }],
      routes: ROUTES.filter((route) => route.surface === surface && route.signIn).map((route) => `${ctx.base}${route.path}`),
    },
  };
}

export function discoveryContext(base: string): DiscoveryContext {
  const config = paymentConfig();
  return {
    base,
    terms: paymentTerms(),
    settledBy: config.facilitatorMode === 'remote' ? config.facilitatorUrl! : 'self',
  };
}

/** Who sells: the same names in every document (the generation surface's identity). */
export const SERVICE = GENERATION.identity;

export { routePath };

/** Absolute URLs of the documents and protocol endpoints, from the route table. */
export function links(base: string) {
  return {
    discovery: `${base}${routePath('DiscoveryX402')}`,
    openapi: `${base}${routePath('OpenApi')}`,
    catalog: `${base}${routePath('Catalog')}`,
    product: (id: string) => `${base}${routePath('Product').replace('{id}', encodeURIComponent(id))}`,
    agenticCommerce: `${base}${routePath('AgenticCommerce')}`,
    agentCard: `${base}${routePath('AgentCard')}`,
    aiPlugin: `${base}${routePath('AiPlugin')}`,
    llms: `${base}${routePath('LlmsTxt')}`,
    llmsFull: `${base}${routePath('LlmsFullTxt')}`,
    mcp: `${base}${routePath('Mcp')}`,
    a2a: `${base}${routePath('A2a')}`,
  };
}

/** `8453` from `eip155:8453`. */
export function chainIdOf(network: string): string {
  return network.split(':')[1] ?? network;
}

/** `0.50` from `$0.50`: the decimal USD (= USDC) price as a string, exact. */
export function decimalPrice(priceUsd: string): string {
  return priceUsd.replace(/^\$/, '');
}
