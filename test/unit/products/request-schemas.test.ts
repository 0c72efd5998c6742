/**
 * The published request JSON Schemas come from the zod source: the generated file the functions read
 * (lambdas/products/request-schemas.generated.ts) must be exactly what zod produces from lambdas/products/catalog.ts,
 * and the offers (the 402s and every discovery document) must publish it. On a mismatch, run
 * `npx tsx bin/generate-schemas.ts`.
 */
import { describe, expect, it } from 'vitest';
import { REQUEST_JSON_SCHEMAS } from '../../../lambdas/products/request-schemas.generated.js';
import { requestJsonSchemasFromZod } from '../../../lambdas/products/request-schemas.source.js';
import { inputJsonSchema } from '../../../lambdas/jobs/offers.js';
import { PRODUCT_IDS } from '../../../lambdas/products/products.js';

describe('Request JSON Schemas are generated from the zod schemas', () => {
  it('the generated file equals what zod produces now (run `npx tsx bin/generate-schemas.ts` if not)', () => {
    expect(REQUEST_JSON_SCHEMAS).toEqual(requestJsonSchemasFromZod());
  });

  it('every offer publishes its product’s generated schema', () => {
    for (const id of PRODUCT_IDS) expect(inputJsonSchema(id)).toEqual(requestJsonSchemasFromZod()[id]);
  });
});
