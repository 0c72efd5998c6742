/**
 * The source of lambdas/jobs/bazaar.generated.ts and lambdas/protocols/mcp/bazaar.generated.ts: the official x402
 * bazaar declaration of every paid generation route and of the generation surface's priced MCP tools, built by
 * @x402/extensions (lambdas/payments/core/bazaar.source.ts). No function imports this module.
 */
import { declarePost, declareTool } from '../payments/core/bazaar.source.js';
import type { BazaarDeclaration } from '../payments/core/types.js';
import { PRODUCT_IDS, type ProductId } from '../products/products.js';
import { REQUEST_JSON_SCHEMAS } from '../products/request-schemas.generated.js';
import { ACCEPTED_EXAMPLES } from '../products/examples.js';

export const GENERATED_PRODUCT_BAZAAR_PATH = 'lambdas/jobs/bazaar.generated.ts';
export const GENERATED_MCP_BAZAAR_PATH = 'lambdas/protocols/mcp/bazaar.generated.ts';

/** What a buyer would send: the smallest body each product's request schema accepts. */
export const PRODUCT_REQUEST_EXAMPLES: Record<ProductId, Record<string, unknown>> = {
  create_music: { prompt: 'Upbeat synthwave with a driving bassline, 120 bpm' },
  agent_video: { prompt: 'A slow pan across a misty pine forest at sunrise' },
  agent_image: { prompt: 'A watercolor lighthouse on a rocky coast at dusk' },
};

function byProduct(declare: (product: ProductId) => BazaarDeclaration): Record<ProductId, BazaarDeclaration> {
  return Object.fromEntries(PRODUCT_IDS.map((product) => [product, declare(product)])) as Record<ProductId, BazaarDeclaration>;
}

/** Every paid generation route (POST, JSON body), by product. */
export function productBazaarFromSource(): Record<ProductId, BazaarDeclaration> {
  return byProduct((product) => declarePost(PRODUCT_REQUEST_EXAMPLES[product], REQUEST_JSON_SCHEMAS[product], ACCEPTED_EXAMPLES[product]));
}

/**
 * The generation surface's priced MCP tools, by tool name: its x402 tools, one per product. No answer example: a
 * call answers the payment pointer, which names the caller's base URL and terms.
 */
export function mcpBazaarFromSource(): Record<ProductId, BazaarDeclaration> {
  return byProduct((product) => declareTool(product, REQUEST_JSON_SCHEMAS[product], PRODUCT_REQUEST_EXAMPLES[product]));
}
