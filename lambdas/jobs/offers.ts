/**
 * A product as an Offer of the payment core: price, resource, schema and discovery metadata all from the catalog
 * and the route table, so the 402, the discovery documents and the MCP/A2A pointers are built from one object.
 */
import { ALL_PAYMENT_KINDS, type Offer } from '../payments/core/types.js';
import { paymentChallenge as offerChallenge, paymentRequirement as offerRequirement, type PaymentTerms } from '../payments/core/challenge.js';
import { MAX_TIMEOUT_SECONDS, type PaymentChallenge, type PaymentRequirement } from '../payments/types.js';
import { OPENAPI_PATH } from '../surfaces/routes.js';
import { PRODUCTS, type ProductId } from '../products/products.js';
import { REQUEST_JSON_SCHEMAS } from '../products/request-schemas.generated.js';
import { ACCEPTED_EXAMPLES } from '../products/examples.js';
import { PRODUCT_BAZAAR } from './bazaar.generated.js';
import { GENERATION } from '../surfaces/surface.js';

/**
 * The JSON Schema of a product's request body: generated at build time from its zod schema
 * (bin/generate-schemas.ts; a unit test holds the two equal), so a function that publishes it carries no zod.
 */
export function productInputSchema(product: ProductId): Record<string, unknown> {
  return REQUEST_JSON_SCHEMAS[product];
}

export function productOffer(product: ProductId, baseUrl: string): Offer {
  const p = PRODUCTS[product];
  return {
    id: product,
    amount: p.amount,
    resource: `${baseUrl}${p.path}`,
    description: p.description,
    method: 'POST',
    inputSchema: productInputSchema(product),
    outputExample: ACCEPTED_EXAMPLES[product],
    mimeType: 'application/json',
    timeoutSeconds: MAX_TIMEOUT_SECONDS,
    accepts: ALL_PAYMENT_KINDS,
    docs: `${baseUrl}${OPENAPI_PATH}`,
    serviceName: GENERATION.identity.name,
    bazaar: { category: p.category, tags: p.tags, declaration: PRODUCT_BAZAAR[product] },
  };
}

/** The x402 requirement of a product (what its 402 `accepts` and every discovery document advertise). */
export function paymentRequirement(product: ProductId, baseUrl: string, terms: PaymentTerms): PaymentRequirement {
  return offerRequirement(productOffer(product, baseUrl), terms);
}

export function paymentChallenge(product: ProductId, baseUrl: string, terms: PaymentTerms, error: string): PaymentChallenge {
  return offerChallenge(productOffer(product, baseUrl), terms, error);
}

export { REASON_MISSING, REASON_UNREADABLE, type PaymentTerms } from '../payments/core/challenge.js';
