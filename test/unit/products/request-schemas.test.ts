/**
 * The published request JSON Schemas come from the zod source: the generated file the functions read
 * (lambdas/products/request-schemas.generated.ts) must be exactly what zod produces from lambdas/products/catalog.ts,
 * and the offers (the 402s and every discovery document) must publish it. On a mismatch, run
 * `npx tsx bin/generate-schemas.ts`.
 */
import { describe, expect, it } from 'vitest';
import { REQUEST_JSON_SCHEMAS } from '../../../lambdas/products/request-schemas.generated.js';
import { RESPONSE_JSON_SCHEMAS } from '../../../lambdas/products/response-schemas.generated.js';
import { responseJsonSchemasFromZod } from '../../../lambdas/products/responses.js';
import { openApiDocument } from '../../../lambdas/protocols/discovery/openapi.js';
import { ctx as CONTEXT } from '../discovery/fixtures.js';
import { requestJsonSchemasFromZod } from '../../../lambdas/products/request-schemas.source.js';
import { productInputSchema } from '../../../lambdas/jobs/offers.js';
import { PRODUCT_IDS } from '../../../lambdas/products/products.js';

describe('Request and response JSON Schemas are generated from the zod schemas', () => {
  it('the generated file equals what zod produces now (run `npx tsx bin/generate-schemas.ts` if not)', () => {
    expect(REQUEST_JSON_SCHEMAS).toEqual(requestJsonSchemasFromZod());
  });

  it('the generated response schemas equal what zod produces now, and the OpenAPI document publishes them', () => {
    expect(RESPONSE_JSON_SCHEMAS).toEqual(responseJsonSchemasFromZod());
    expect(Object.keys(RESPONSE_JSON_SCHEMAS).length).toBeGreaterThan(5);
    const published = (openApiDocument(CONTEXT) as { components: { schemas: Record<string, unknown> } }).components.schemas;
    for (const [name, schema] of Object.entries(responseJsonSchemasFromZod())) expect(published[name]).toEqual(schema);
  });

  it('every offer publishes its product’s generated schema', () => {
    for (const id of PRODUCT_IDS) expect(productInputSchema(id)).toEqual(requestJsonSchemasFromZod()[id]);
  });
});
