import { describe, expect, it } from 'vitest';
import { discoveryIndex } from '../../../lambdas/protocols/discovery/x402-index.js';
import { paymentChallenge, REASON_MISSING } from '../../../lambdas/jobs/offers.js';
import { CATALOG_UPDATED_AT } from '../../../lambdas/products/catalog.js';
import { BASE, IDS, PAY_TO, SPEC_PRICES, USDC, ctx } from './fixtures.js';

const index = discoveryIndex(ctx);
const resource = (id: (typeof IDS)[number]) => index.resources.find((r) => r.resource === `${BASE}${SPEC_PRICES[id].path}`)!;

describe('Discovery index: top level', () => {
  it('has exactly x402Version 2, settledBy, catalogSource, signIn, count 3, resources and acp', () => {
    expect(Object.keys(index).sort()).toEqual(['acp', 'catalogSource', 'count', 'resources', 'settledBy', 'signIn', 'x402Version']);
    expect(index.x402Version).toBe(2);
    expect(index.settledBy).toBe('self');
    expect(index.count).toBe(3);
    expect(index.resources).toHaveLength(3);
  });
  it('names this service as its own catalog source', () => {
    expect(index.catalogSource).toEqual({
      upstream: `${BASE}/api/v1/catalog`,
      servedFrom: `${BASE}/.well-known/x402`,
      fetchedAt: CATALOG_UPDATED_AT,
    });
    expect(new Date(index.catalogSource.fetchedAt).toISOString()).toBe(CATALOG_UPDATED_AT);
  });
  it('says a remote facilitator settles when one is configured', () => {
    expect(discoveryIndex({ ...ctx, settledBy: 'https://facilitator.test' }).settledBy).toBe('https://facilitator.test');
  });
});

describe('Discovery index: each resource', () => {
  it.each(IDS)('%s carries every member the spec lists', (id) => {
    const r = resource(id);
    expect(Object.keys(r).sort()).toEqual(
      ['accepts', 'category', 'description', 'docsUrl', 'extensions', 'lastUpdated', 'method', 'mimeType', 'priceUsd', 'providerName', 'providerUrl', 'resource', 'serviceName', 'tags', 'title', 'type'].sort(),
    );
    expect(r).toMatchObject({
      resource: `${BASE}${SPEC_PRICES[id].path}`,
      method: 'POST',
      type: 'http',
      category: SPEC_PRICES[id].category,
      mimeType: 'application/json',
      priceUsd: SPEC_PRICES[id].priceUsd,
      providerUrl: BASE,
      docsUrl: `${BASE}/openapi.json`,
      lastUpdated: CATALOG_UPDATED_AT,
    });
    for (const key of ['serviceName', 'title', 'description', 'providerName'] as const) expect(r[key]).toEqual(expect.any(String));
    expect(r.tags.length).toBeGreaterThan(0);
  });

  it.each(IDS)('%s: the eip155:8453 accepts entry is the one its 402 advertises plus its outputSchema, with the spec terms', (id) => {
    const [first] = resource(id).accepts;
    const { outputSchema, ...terms } = first;
    expect(terms).toEqual(paymentChallenge(id, BASE, ctx.terms, REASON_MISSING).accepts[0]);
    expect(outputSchema).toBeDefined();
    expect(first).toMatchObject({
      scheme: 'exact',
      network: 'eip155:8453',
      amount: SPEC_PRICES[id].amount,
      maxAmountRequired: SPEC_PRICES[id].amount,
      asset: USDC,
      payTo: PAY_TO,
      maxTimeoutSeconds: 300,
      resource: `${BASE}${SPEC_PRICES[id].path}`,
      mimeType: 'application/json',
      docs: `${BASE}/openapi.json`,
      extra: { name: 'USD Coin', version: '2', decimals: 6, priceUsd: SPEC_PRICES[id].priceUsd },
    });
  });

  it.each(IDS)('%s: each accepts entry has an outputSchema with the input body shape and an output example', (id) => {
    for (const entry of resource(id).accepts) {
      const output = entry.outputSchema as { input: Record<string, any>; output: Record<string, any> };
      expect(output.input).toMatchObject({ type: 'http', method: 'POST', bodyType: 'json' });
      expect(output.input.body.required).toEqual(['prompt']);
      expect(output.output).toEqual({ type: 'json', example: expect.any(Object) });
    }
  });

  it.each(IDS)('%s: carries a duplicate entry on network `base`, otherwise identical', (id) => {
    const [first, duplicate] = resource(id).accepts;
    expect(resource(id).accepts).toHaveLength(2);
    expect(duplicate).toEqual({ ...first, network: 'base' });
  });

  it.each(IDS)('%s: extensions.bazaar is the 402 bazaar with the contract fields: discoverable, category, tags, input body schema requiring prompt, output example', (id) => {
    const { bazaar } = resource(id).extensions as { bazaar: Record<string, any> };
    const { input, output, ...official } = bazaar;
    expect(official).toEqual(paymentChallenge(id, BASE, ctx.terms, REASON_MISSING).extensions.bazaar);
    expect(bazaar).toMatchObject({ discoverable: true, category: SPEC_PRICES[id].category, input: { method: 'POST' }, output: { type: 'json' } });
    expect(bazaar.tags).toEqual(resource(id).tags);
    expect(bazaar.input.body.required).toEqual(['prompt']);
    expect(bazaar.input.body.properties.prompt.type).toBe('string');
    expect(bazaar.output.example).toEqual(expect.any(Object));
  });

  it.each(IDS)('%s: the token block names PAYMENT-SIGNATURE and the token types pay+jwt, kya-pay+jwt', (id) => {
    const token = (resource(id).extensions as Record<string, any>).skyfire;
    expect(token).toEqual({ header: 'PAYMENT-SIGNATURE', tokenTypes: ['pay+jwt', 'kya-pay+jwt'], description: expect.any(String) });
  });
});

describe('Discovery index: acp (the paused escrow rail)', () => {
  it('is paused, accepts no jobs and says why', () => {
    expect(index.acp).toMatchObject({ rail: 'acp', status: 'paused', acceptingJobs: false });
    for (const key of ['agent', 'settlement', 'note'] as const) expect(index.acp[key]).toEqual(expect.any(String));
  });
  it('lists its four offers with the spec prices', () => {
    expect(index.acp.offers.map((o) => [o.id, o.priceUsd])).toEqual([
      ['product_showcase_video_10s', '$10.00'],
      ['suede_music_generation', '$2.00'],
      ['general_video', '$8.00'],
      ['product_showcase_video', '$6.00'],
    ]);
    for (const offer of index.acp.offers) expect(Object.keys(offer).sort()).toEqual(['description', 'id', 'priceUsd', 'title']);
  });
  it('offers are not x402 resources', () => {
    const text = JSON.stringify(index.resources);
    for (const offer of index.acp.offers) expect(text).not.toContain(offer.id);
  });
});
