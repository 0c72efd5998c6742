/**
 * The commerce documents: the product catalog (`/api/v1/catalog`, a schema.org ItemList plus a flat `products`
 * array), one product (`/api/v1/products/{id}`) and the seller manifest (`/.well-known/agentic-commerce.json`).
 * Every price is derived from the catalog's bigint amount through paymentRequirement(), the 402's own terms.
 */
import { PRODUCTS, PRODUCT_IDS, priceUsdCents, type ProductId } from '../../products/products.js';
import { ACCEPTED_EXAMPLES } from '../../products/examples.js';
import { paymentRequirement, productInputSchema } from '../../jobs/offers.js';
import { USDC_DOMAIN } from '../../payments/types.js';
import { SERVICE, chainIdOf, decimalPrice, links, routePath, type DiscoveryContext } from './context.js';

/** Card checkout is offered at the same USD prices as x402 (spec: "Prices of the generation endpoints"). */
export const PAYMENT_METHODS = ['x402', 'stripe_checkout'] as const;

export function productEntry(product: ProductId, ctx: DiscoveryContext) {
  const p = PRODUCTS[product];
  const requirement = paymentRequirement(product, ctx.base, ctx.terms);
  const pollUrl = `${ctx.base}${p.pollPath}`;
  return {
    id: product,
    title: p.title,
    description: p.description,
    category: p.category,
    tags: p.tags,
    price_usdc: decimalPrice(requirement.extra.priceUsd),
    price_usdc_base_units: requirement.amount,
    price_usd_cents: priceUsdCents(p.amount),
    currency: 'USD',
    fulfillment: {
      endpoint: requirement.resource,
      method: 'POST',
      content_type: 'application/json',
      mode: 'async',
      poll_url_template: pollUrl,
    },
    payment_methods: [...PAYMENT_METHODS],
    x402: {
      x402Version: 2,
      scheme: requirement.scheme,
      network: requirement.network,
      asset: requirement.asset,
      pay_to: requirement.payTo,
      amount: requirement.amount,
      max_timeout_seconds: requirement.maxTimeoutSeconds,
    },
    stripe_checkout: { currency: 'usd', unit_amount: priceUsdCents(p.amount) },
    input_schema: productInputSchema(product),
    output_example: ACCEPTED_EXAMPLES[product],
    url: links(ctx.base).product(product),
  };
}

function schemaOrgProduct(product: ProductId, ctx: DiscoveryContext) {
  const p = PRODUCTS[product];
  const requirement = paymentRequirement(product, ctx.base, ctx.terms);
  return {
    '@type': 'Product',
    '@id': links(ctx.base).product(product),
    productID: product,
    sku: product,
    name: p.title,
    description: p.description,
    category: p.category,
    url: links(ctx.base).product(product),
    brand: { '@type': 'Brand', name: SERVICE.provider },
    offers: {
      '@type': 'Offer',
      price: decimalPrice(requirement.extra.priceUsd),
      priceCurrency: 'USD',
      availability: 'https://schema.org/InStock',
      url: requirement.resource,
      seller: { '@type': 'Organization', name: SERVICE.provider, url: ctx.base },
    },
  };
}

export function catalogDocument(ctx: DiscoveryContext) {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    name: `${SERVICE.name} catalog`,
    url: links(ctx.base).catalog,
    numberOfItems: PRODUCT_IDS.length,
    itemListElement: PRODUCT_IDS.map((id, i) => ({ '@type': 'ListItem', position: i + 1, item: schemaOrgProduct(id, ctx) })),
    products: PRODUCT_IDS.map((id) => productEntry(id, ctx)),
  };
}

/** One product: its catalog entry, plus the schema.org Product for JSON-LD readers. */
export function productDocument(product: ProductId, ctx: DiscoveryContext) {
  return { '@context': 'https://schema.org', ...schemaOrgProduct(product, ctx), product: productEntry(product, ctx) };
}

export function unknownProductBody(id: string, ctx: DiscoveryContext) {
  return { error: `Product '${id}' not found`, products: [...PRODUCT_IDS], catalog: links(ctx.base).catalog };
}

export function agenticCommerceDocument(ctx: DiscoveryContext) {
  const l = links(ctx.base);
  return {
    version: '1.0',
    seller: {
      name: SERVICE.provider,
      service: SERVICE.name,
      description: SERVICE.summary,
      url: ctx.base,
    },
    payment_rails: [
      {
        id: 'x402',
        description: 'Pay per call in USDC on Base: x402 v2, scheme exact (EIP-3009), header PAYMENT-SIGNATURE.',
        x402Version: 2,
        scheme: 'exact',
        network: ctx.terms.network,
        asset: ctx.terms.usdcAddress,
        pay_to: ctx.terms.payTo,
        settled_by: ctx.settledBy,
        discovery: l.discovery,
      },
      { id: 'stripe_checkout', description: 'Card checkout at the same USD prices.', currency: 'usd' },
      { id: 'stripe_link', description: 'Stripe Link wallet at checkout, at the same USD prices.', currency: 'usd' },
    ],
    network: { id: ctx.terms.network, name: 'Base', chain_id: Number(chainIdOf(ctx.terms.network)) },
    currency: { code: 'USDC', address: ctx.terms.usdcAddress, decimals: USDC_DOMAIN.decimals },
    catalog: l.catalog,
    product_url_template: `${ctx.base}${routePath('Product')}`,
    products: PRODUCT_IDS.map((id) => ({ id, url: l.product(id), price_usd_cents: priceUsdCents(PRODUCTS[id].amount) })),
    documents: { openapi: l.openapi, x402: l.discovery, agent_card: l.agentCard, llms: l.llms },
  };
}
