/**
 * The payment pointer: what an MCP x402 tool and an A2A skill answer instead of running a job. It tells an agent
 * where and how to pay over HTTP; the paid POST itself stays the only place a job is created or money moves.
 * One function for both protocols, built from the catalog and the same payment terms the 402 challenge uses.
 */
import * as z from '../shared/zod.js';
import { NETWORK_IDS, NETWORKS, networkOf } from '../shared/networks.js';
import { PRODUCTS, formatUsd, priceUsdCents, type ProductId } from '../products/catalog.js';
import { paymentTerms } from '../payments/backend.js';
import { routePath } from '../surfaces/routes.js';
import type { PaymentTerms } from '../jobs/offers.js';

/**
 * The spec's pointer labels the chain `base` / `8453`; the x402 network of the 402 is pinned to `eip155:8453` by
 * the payment configuration, so these two constants cannot drift from what the challenge asks for.
 */
export const POINTER_NETWORK = NETWORKS['eip155:8453'].name;
export const POINTER_CHAIN_ID = String(NETWORKS['eip155:8453'].chainId);

/** Exactly the nine members of the spec; strict so an MCP output schema rejects anything extra. */
export const paymentPointerSchema = z.strictObject({
  paymentRequired: z.literal(true),
  protocol: z.literal('x402'),
  endpoint: z.string().check(z.describe('Absolute URL of the paid HTTP endpoint')),
  method: z.literal('POST'),
  network: z
    .enum(NETWORK_IDS.map((id) => NETWORKS[id].name) as [string, ...string[]])
    .check(z.describe('base (mainnet), or base-sepolia on a staging stack')),
  chainId: z.enum(NETWORK_IDS.map((id) => String(NETWORKS[id].chainId)) as [string, ...string[]]),
  priceUsdCents: z.int().check(z.describe('Price in US cents (USDC is pegged 1:1)')),
  receiver: z.string().check(z.describe('payTo address of the x402 requirement')),
  discovery: z.string().check(z.describe('URL of the x402 discovery index')),
});
export type PaymentPointer = z.infer<typeof paymentPointerSchema>;

export function paymentPointer(product: ProductId, baseUrl: string, terms: PaymentTerms = paymentTerms()): PaymentPointer {
  const p = PRODUCTS[product];
  return {
    paymentRequired: true,
    protocol: 'x402',
    endpoint: `${baseUrl}${p.path}`,
    method: 'POST',
    network: networkOf(terms.network).name,
    chainId: String(networkOf(terms.network).chainId),
    priceUsdCents: priceUsdCents(p.amount),
    receiver: terms.payTo,
    discovery: `${baseUrl}${routePath('DiscoveryX402')}`,
  };
}

/** One sentence an agent (or its human) can act on; shared so MCP and A2A explain the pointer the same way. */
export function paymentInstructions(product: ProductId, pointer: PaymentPointer): string {
  return (
    `Payment required: ${formatUsd(PRODUCTS[product].amount)} USDC on Base (x402). Send the same arguments as a JSON body to ` +
    `${pointer.method} ${pointer.endpoint}; the first call answers 402 with the payment requirements, then retry ` +
    `with a signed PAYMENT-SIGNATURE header. Terms: ${pointer.discovery}. Nothing was generated or charged by this call.`
  );
}
