import { describe, expect, it } from 'vitest';
import { agenticCommerceDocument, catalogDocument, productDocument, unknownProductBody } from '../../../lambdas/protocols/discovery/catalog.js';
import { productInputSchema } from '../../../lambdas/jobs/offers.js';
import { BASE, IDS, PAY_TO, SPEC_PRICES, USDC, ctx } from './fixtures.js';

const catalog = catalogDocument(ctx);

describe('Catalog (/api/v1/catalog): schema.org ItemList of products with USD offers', () => {
  it('is an ItemList of the three products', () => {
    expect(catalog).toMatchObject({ '@context': 'https://schema.org', '@type': 'ItemList', numberOfItems: 3, url: `${BASE}/api/v1/catalog` });
    expect(catalog.itemListElement.map((e) => [e['@type'], e.position, e.item['@type'], e.item.productID])).toEqual([
      ['ListItem', 1, 'Product', 'create_music'],
      ['ListItem', 2, 'Product', 'agent_video'],
      ['ListItem', 3, 'Product', 'agent_image'],
    ]);
  });
  it.each(IDS)('%s is offered in USD at the spec price, fulfilled at its paid endpoint', (id) => {
    const item = catalog.itemListElement.find((e) => e.item.productID === id)!.item;
    expect(item.offers).toMatchObject({
      '@type': 'Offer',
      price: SPEC_PRICES[id].priceUsd.slice(1),
      priceCurrency: 'USD',
      url: `${BASE}${SPEC_PRICES[id].path}`,
    });
  });
});

describe('Catalog (/api/v1/catalog): products array', () => {
  it.each(IDS)('%s: price_usdc, price_usd_cents, fulfillment endpoint and payment methods x402, stripe_checkout', (id) => {
    const p = catalog.products.find((e) => e.id === id)!;
    expect(p).toMatchObject({
      price_usdc: SPEC_PRICES[id].priceUsd.slice(1),
      price_usdc_base_units: SPEC_PRICES[id].amount,
      price_usd_cents: SPEC_PRICES[id].cents,
      fulfillment: { endpoint: `${BASE}${SPEC_PRICES[id].path}`, method: 'POST' },
      payment_methods: ['x402', 'stripe_checkout'],
      x402: { network: 'eip155:8453', asset: USDC, pay_to: PAY_TO, amount: SPEC_PRICES[id].amount },
      stripe_checkout: { currency: 'usd', unit_amount: SPEC_PRICES[id].cents },
      url: `${BASE}/api/v1/products/${id}`,
    });
    expect(p.input_schema).toEqual(productInputSchema(id));
  });
});

describe('Product (/api/v1/products/{id})', () => {
  it.each(IDS)('%s: the schema.org Product with its offer, and the same entry as in the catalog', (id) => {
    const doc = productDocument(id, ctx);
    expect(doc).toMatchObject({ '@context': 'https://schema.org', '@type': 'Product', productID: id });
    expect(doc.offers.price).toBe(SPEC_PRICES[id].priceUsd.slice(1));
    expect(doc.product).toEqual(catalog.products.find((e) => e.id === id));
  });
  it('an unknown id is a clear error naming the known ids', () => {
    expect(unknownProductBody('nope', ctx)).toEqual({
      error: "Product 'nope' not found",
      products: ['create_music', 'agent_video', 'agent_image'],
      catalog: `${BASE}/api/v1/catalog`,
    });
  });
});

describe('Agentic commerce manifest (/.well-known/agentic-commerce.json)', () => {
  const doc = agenticCommerceDocument(ctx);
  it('names the seller, the rails x402, stripe_checkout, stripe_link, the network, the USDC address and the catalog', () => {
    expect(doc.seller).toMatchObject({ name: expect.any(String), url: BASE });
    expect(doc.payment_rails.map((r) => r.id)).toEqual(['x402', 'stripe_checkout', 'stripe_link']);
    expect(doc.payment_rails[0]).toMatchObject({ network: 'eip155:8453', asset: USDC, pay_to: PAY_TO, scheme: 'exact', discovery: `${BASE}/.well-known/x402` });
    expect(doc.network).toEqual({ id: 'eip155:8453', name: 'Base', chain_id: 8453 });
    expect(doc.currency).toEqual({ code: 'USDC', address: USDC, decimals: 6 });
    expect(doc.catalog).toBe(`${BASE}/api/v1/catalog`);
    expect(doc.product_url_template).toBe(`${BASE}/api/v1/products/{id}`);
  });
  it('lists each product with its card-checkout price in cents', () => {
    expect(doc.products.map((p) => [p.id, p.price_usd_cents])).toEqual(IDS.map((id) => [id, SPEC_PRICES[id].cents]));
  });
});
