/**
 * The JSON Schemas of the products' request bodies, computed from their zod schemas: the source of
 * request-schemas.generated.ts (bin/generate-schemas.ts writes it, a unit test holds the two equal). Functions read
 * the generated file; only the generator and the tests load this (and zod).
 */
import { z } from 'zod';
import { PRODUCTS, PRODUCT_IDS, type ProductId } from './catalog.js';

export const GENERATED_SCHEMAS_PATH = 'lambdas/products/request-schemas.generated.ts';

export function requestJsonSchemasFromZod(): Record<ProductId, Record<string, unknown>> {
  return Object.fromEntries(
    PRODUCT_IDS.map((id) => [id, z.toJSONSchema(PRODUCTS[id].schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>]),
  ) as Record<ProductId, Record<string, unknown>>;
}
