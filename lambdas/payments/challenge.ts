/**
 * The x402 v2 payment requirement and 402 challenge of a product, generated from the catalog: the price and the
 * input schema live only there.
 */
import { z } from 'zod';
import { PRODUCTS, formatUsd, type ProductId } from '../products/catalog.js';
import { ACCEPTED_EXAMPLES } from '../products/examples.js';
import { routePath } from '../../lib/routes.js';
import { MAX_TIMEOUT_SECONDS, USDC_DOMAIN, X402_VERSION, type PaymentChallenge, type PaymentRequirement } from './types.js';

export interface PaymentTerms {
  network: string;
  usdcAddress: `0x${string}`;
  payTo: `0x${string}`;
}

const inputSchemas = new Map<ProductId, unknown>();
export function inputJsonSchema(product: ProductId): Record<string, unknown> {
  let schema = inputSchemas.get(product);
  if (!schema) {
    schema = z.toJSONSchema(PRODUCTS[product].schema, { io: 'input', unrepresentable: 'any' });
    inputSchemas.set(product, schema);
  }
  return schema as Record<string, unknown>;
}

export function paymentRequirement(product: ProductId, baseUrl: string, terms: PaymentTerms): PaymentRequirement {
  const p = PRODUCTS[product];
  const amount = p.amount.toString();
  return {
    scheme: 'exact',
    network: terms.network,
    maxAmountRequired: amount,
    amount,
    asset: terms.usdcAddress,
    payTo: terms.payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    resource: `${baseUrl}${p.path}`,
    description: p.description,
    mimeType: 'application/json',
    docs: `${baseUrl}${routePath('OpenApi')}`,
    extra: { name: USDC_DOMAIN.name, version: USDC_DOMAIN.version, decimals: USDC_DOMAIN.decimals, priceUsd: formatUsd(p.amount) },
    outputSchema: {
      input: { type: 'http', method: 'POST', bodyType: 'json', body: inputJsonSchema(product) },
      output: { type: 'json', example: ACCEPTED_EXAMPLES[product] },
    },
  };
}

export function paymentChallenge(product: ProductId, baseUrl: string, terms: PaymentTerms, error: string): PaymentChallenge {
  const p = PRODUCTS[product];
  return {
    x402Version: X402_VERSION,
    error,
    resource: { url: `${baseUrl}${p.path}`, description: p.description, mimeType: 'application/json' },
    accepts: [paymentRequirement(product, baseUrl, terms)],
    extensions: {
      bazaar: {
        discoverable: true,
        category: p.category,
        tags: p.tags,
        input: { type: 'http', method: 'POST', bodyType: 'json', body: inputJsonSchema(product) },
        output: { type: 'json', example: ACCEPTED_EXAMPLES[product] },
      },
    },
  };
}

export const REASON_MISSING = 'PAYMENT-SIGNATURE header is required';
export const REASON_UNREADABLE = 'Payment authorization missing';
