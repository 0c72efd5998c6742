/**
 * The discovery documents as served by the embedded service, checked against what the paid endpoints enforce:
 * each 402's accepts entry equals the index's, every published price equals the 402 amount, every published input
 * schema is the one the endpoint validates with, and the index's own terms pay a real call.
 */
import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { x402Client } from '@x402/core/client';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { fetchFrom, freshBuyer, runtime, usdcBalance } from '../support/buyer.js';

const IP = '127.0.0.21';
const f = fetchFrom(IP);
const PAID = {
  create_music: { path: '/create-music', amount: '500000', cents: 50 },
  agent_video: { path: '/agent/video', amount: '4990000', cents: 499 },
  agent_image: { path: '/agent/image', amount: '150000', cents: 15 },
} as const;
const IDS = Object.keys(PAID) as (keyof typeof PAID)[];
const DOCUMENTS = [
  ['/.well-known/x402', 'application/json'],
  ['/.well-known/x402.json', 'application/json'],
  ['/openapi.json', 'application/json'],
  ['/api/v1/catalog', 'application/json'],
  ['/api/v1/products/create_music', 'application/json'],
  ['/.well-known/agentic-commerce.json', 'application/json'],
  ['/.well-known/agent-card.json', 'application/json'],
  ['/.well-known/agent.json', 'application/json'],
  ['/.well-known/ai-plugin.json', 'application/json'],
  ['/llms.txt', 'text/plain; charset=utf-8'],
  ['/llms-full.txt', 'text/plain; charset=utf-8'],
] as const;

const get = (path: string, headers: Record<string, string> = {}) => f(`${runtime().baseUrl}${path}`, { headers });
const doc = async (path: string): Promise<any> => (await get(path)).json();
const challenge = async (path: string): Promise<any> => {
  const response = await f(`${runtime().baseUrl}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  expect(response.status).toBe(402);
  return response.json();
};
/** A PAYMENT-SIGNATURE signed from the discovery index's own entry: the discovered terms are what the endpoint accepts. */
async function signFromIndex(privateKey: Hex, resource: any): Promise<string> {
  const client = x402Client.fromConfig({
    schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(privateKeyToAccount(privateKey)) }],
    spendControls: { maxAmountPerPayment: '$5' }, // a video is $4.99; the client's default cap is $1
  });
  return encodePaymentSignatureHeader(
    await client.createPaymentPayload({ x402Version: 2, resource: { url: resource.resource }, accepts: [resource.accepts[0]] } as never),
  );
}
const indexResource = (index: any, id: keyof typeof PAID) => index.resources.find((r: any) => r.resource === `${runtime().baseUrl}${PAID[id].path}`);

describe('Discovery documents are served with caching headers', () => {
  it.each(DOCUMENTS)('%s answers 200 with an ETag, Cache-Control and 304 on If-None-Match', async (path, contentType) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('service-api-version')).toBe('1');
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await response.text()).length).toBeGreaterThan(0);
    const again = await get(path, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('/.well-known/x402 and /.well-known/x402.json are identical bytes; so are agent-card.json and agent.json', async () => {
    expect(await (await get('/.well-known/x402.json')).text()).toBe(await (await get('/.well-known/x402')).text());
    expect(await (await get('/.well-known/agent.json')).text()).toBe(await (await get('/.well-known/agent-card.json')).text());
  });

  it('an unknown product id is a 404 naming the known ids', async () => {
    const response = await get('/api/v1/products/nope');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "Product 'nope' not found", products: IDS });
  });
});

describe('Discovery index: the accepts entries equal what each 402 advertises', () => {
  it.each(IDS)('%s: the 402 accepts[0] and bazaar extension equal the index entry on eip155:8453 (the index adds outputSchema and the contract input/output)', async (id) => {
    const index = await doc('/.well-known/x402');
    const body = await challenge(PAID[id].path);
    const resource = indexResource(index, id);
    const { outputSchema, ...terms } = resource.accepts.find((a: any) => a.network === 'eip155:8453');
    expect(terms).toEqual(body.accepts[0]);
    expect(resource.accepts.find((a: any) => a.network === 'base')).toEqual({ ...body.accepts[0], outputSchema, network: 'base' });
    const { input, output, ...official } = resource.extensions.bazaar;
    // The 402's offers are signed per answer (offer-receipt); the rest of its extensions are the index's.
    const { 'offer-receipt': offers, ...declared } = body.extensions;
    expect(offers.info.offers).toHaveLength(1);
    expect(official).toEqual(declared.bazaar);
    expect(input.body).toEqual(outputSchema.input.body);
    expect(output.example).toEqual(outputSchema.output.example);
    expect(output.example).toEqual(body.extensions.bazaar.info.output.example);
    expect(resource.priceUsd).toBe(body.accepts[0].extra.priceUsd);
  });

  it('the index names the embedded terms and the paused escrow rail', async () => {
    const index = await doc('/.well-known/x402');
    const { usdcAddress, payTo } = runtime();
    expect(index).toMatchObject({ x402Version: 2, count: 3, settledBy: 'self', acp: { status: 'paused', acceptingJobs: false } });
    for (const r of index.resources) expect(r.accepts[0]).toMatchObject({ asset: usdcAddress, payTo });
  });
});

describe('Consistency: every price in every document equals the 402 amount', () => {
  it.each(IDS)('%s: catalog, product, OpenAPI, agent card, agentic commerce and llms.txt state the 402 price', async (id) => {
    const [accepted] = (await challenge(PAID[id].path)).accepts;
    expect(accepted.amount).toBe(PAID[id].amount);
    const amount = BigInt(accepted.amount);
    const decimal = accepted.extra.priceUsd.slice(1);

    const catalog = await doc('/api/v1/catalog');
    const entry = catalog.products.find((p: any) => p.id === id);
    expect(entry.price_usdc_base_units).toBe(accepted.amount);
    expect(entry.price_usdc).toBe(decimal);
    expect(BigInt(entry.price_usd_cents) * 10_000n).toBe(amount);
    expect(catalog.itemListElement.find((e: any) => e.item.productID === id).item.offers.price).toBe(decimal);
    expect((await doc(`/api/v1/products/${id}`)).product).toEqual(entry);

    const openapi = await doc('/openapi.json');
    const operation = openapi.paths[PAID[id].path].post;
    expect(operation['x-payment']).toMatchObject({ amount: accepted.amount, priceUsd: accepted.extra.priceUsd, payTo: accepted.payTo, asset: accepted.asset });

    const card = await doc('/.well-known/agent-card.json');
    expect(card.capabilities.extensions[0].params.skills.find((s: any) => s.id === id)).toMatchObject({ amount: accepted.amount, priceUsd: accepted.extra.priceUsd });

    const commerce = await doc('/.well-known/agentic-commerce.json');
    expect(BigInt(commerce.products.find((p: any) => p.id === id).price_usd_cents) * 10_000n).toBe(amount);

    expect(await (await get('/llms.txt')).text()).toContain(`${accepted.extra.priceUsd} per call (${accepted.amount} USDC base units)`);
  });

  it.each(IDS)('%s: the OpenAPI 402 example is exactly the 402 the endpoint answers, but for its signed offers', async (id) => {
    const openapi = await doc('/openapi.json');
    const answered = await challenge(PAID[id].path);
    const { 'offer-receipt': offers, ...extensions } = answered.extensions;
    expect(offers.info.offers).toHaveLength(1);
    expect(openapi.paths[PAID[id].path].post.responses['402'].content['application/json'].example).toEqual({ ...answered, extensions });
  });
});

describe('Consistency: every published input schema is the one the endpoint enforces', () => {
  it.each(IDS)('%s: OpenAPI, index, catalog and the 402 publish the same body schema', async (id) => {
    const [openapi, index, catalog, body] = await Promise.all([doc('/openapi.json'), doc('/.well-known/x402'), doc('/api/v1/catalog'), challenge(PAID[id].path)]);
    const ref = openapi.paths[PAID[id].path].post.requestBody.content['application/json'].schema.$ref as string;
    const published = openapi.components.schemas[ref.split('/').pop()!];
    expect(published).toEqual(body.extensions.bazaar.schema.properties.input.properties.body);
    expect(published).toEqual(indexResource(index, id).extensions.bazaar.input.body);
    expect(published).toEqual(indexResource(index, id).accepts[0].outputSchema.input.body);
    expect(published).toEqual(catalog.products.find((p: any) => p.id === id).input_schema);
    expect(published.required).toEqual(['prompt']);
  });

  it.each(IDS)('%s: a paid call breaking a published constraint is 422 at that field and charges nothing', async (id) => {
    const { baseUrl } = runtime();
    const buyer = await freshBuyer();
    const index = await doc('/.well-known/x402');
    const resource = indexResource(index, id);
    const header = await signFromIndex(buyer.privateKey, resource);
    const schema = resource.accepts[0].outputSchema.input.body;
    const before = await usdcBalance(buyer.address);
    const violations = Object.entries(schema.properties as Record<string, any>).flatMap(([field, s]): [string, unknown][] => {
      if (s.enum) return [[field, 'not-in-the-enum']];
      if (s.maxLength) return [[field, 'x'.repeat(s.maxLength + 1)]];
      if (s.maximum !== undefined) return [[field, s.maximum + 1]];
      if (s.type === 'boolean') return [[field, 'yes']];
      return [];
    });
    expect(violations.length).toBeGreaterThan(1);
    for (const [field, value] of [['prompt', undefined], ...violations] as [string, unknown][]) {
      const response = await f(`${baseUrl}${PAID[id].path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'PAYMENT-SIGNATURE': header },
        body: JSON.stringify({ prompt: 'a lighthouse at dusk', [field]: value }),
      });
      expect(response.status, `${field}=${String(value).slice(0, 20)}`).toBe(422);
      expect((await response.json()).detail.map((d: any) => d.loc)).toContainEqual(['body', field]);
    }
    expect(await usdcBalance(buyer.address)).toBe(before);
  });

  it('the index terms pay a real call, charging exactly the published amount', async () => {
    const { baseUrl } = runtime();
    const buyer = await freshBuyer();
    const resource = indexResource(await doc('/.well-known/x402'), 'agent_image');
    const header = await signFromIndex(buyer.privateKey, resource);
    const before = await usdcBalance(buyer.address);
    const response = await f(`${baseUrl}/agent/image`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'PAYMENT-SIGNATURE': header },
      body: JSON.stringify({ prompt: 'a lighthouse at dusk' }),
    });
    expect(response.status).toBe(202);
    expect(await usdcBalance(buyer.address)).toBe(before - BigInt(resource.accepts[0].amount));
  });
});

describe('Documents read by their own tooling', () => {
  it('/openapi.json is a valid OpenAPI 3.1 document with the spec\'s six operations, the three cancels and the wallet\'s purchases', async () => {
    const openapi = await doc('/openapi.json');
    const result = await new Validator().validate(openapi);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    const ids = Object.values(openapi.paths).flatMap((methods: any) => Object.values(methods).map((o: any) => o.operationId));
    expect(ids.sort()).toEqual(['agent_image', 'agent_image_cancel', 'agent_image_status', 'agent_video', 'agent_video_cancel', 'agent_video_status', 'create_music', 'create_music_cancel', 'create_music_result', 'list_purchases']);
    expect(openapi.servers).toEqual([{ url: runtime().baseUrl }]);
  });

  it('the A2A SDK resolves the agent card: A2A 1.0, JSON-RPC at {base_url}/a2a, the three product skills', async () => {
    const { baseUrl } = runtime();
    for (const legacyCompat of [undefined, { enabled: true }]) {
      const card = await new DefaultAgentCardResolver({ fetchImpl: f as typeof fetch, legacyCompat } as never).resolve(baseUrl);
      expect(card.supportedInterfaces[0]).toMatchObject({ url: `${baseUrl}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
      expect(card.skills.map((s) => s.id)).toEqual(IDS);
      expect(card.capabilities).toMatchObject({ streaming: false, pushNotifications: false });
    }
  });

  it('the plugin manifest points at the served OpenAPI document and the MCP endpoint', async () => {
    const { baseUrl } = runtime();
    expect(await doc('/.well-known/ai-plugin.json')).toMatchObject({
      auth: { type: 'none' },
      api: { type: 'openapi', url: `${baseUrl}/openapi.json` },
      mcp: { url: `${baseUrl}/api/mcp` },
    });
  });
});
