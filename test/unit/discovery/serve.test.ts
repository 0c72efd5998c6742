import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Context } from 'aws-lambda';
import { DocumentCache, etagOf, matchesIfNoneMatch } from '../../../lambdas/protocols/discovery/serve.js';
import { ROUTES } from '../../../lambdas/surfaces/routes.js';
import type { HttpEvent, HttpResult } from '../../../lambdas/shared/http.js';
import { PAY_TO, USDC } from './fixtures.js';

type Handler = (event: HttpEvent, context: Context) => Promise<HttpResult>;
const load = async (entry: string): Promise<Handler> => (await import(`../../../lambdas/http/${entry}.ts`)).handler;

function event(rawPath: string, headers: Record<string, string> = {}, pathParameters?: Record<string, string>, domainName = 'api.test'): HttpEvent {
  return {
    rawPath,
    headers: { host: domainName, 'x-forwarded-proto': 'https', ...headers },
    pathParameters,
    requestContext: { domainName, http: { method: 'GET', path: rawPath, sourceIp: '127.0.0.1' } },
  } as unknown as HttpEvent;
}
const call = async (entry: string, e: HttpEvent) => (await load(entry))(e, {} as Context);

beforeAll(() => {
  vi.stubEnv('USDC_ADDRESS', USDC);
  vi.stubEnv('PAY_TO_ADDRESS', PAY_TO);
  vi.stubEnv('RPC_URL', 'http://127.0.0.1:8545');
  vi.stubEnv('SETTLER_KEY_FILE', '/nonexistent/settler.key');
});

describe('Discovery documents: caching headers', () => {
  it('answers 200 with the bytes, a strong ETag over them, Cache-Control public max-age=300 and Service-API-Version', async () => {
    const r = await call('discovery-x402', event('/.well-known/x402'));
    expect(r.statusCode).toBe(200);
    expect(r.headers).toMatchObject({
      'Content-Type': 'application/json',
      'Cache-Control': 'public, max-age=300',
      ETag: etagOf(r.body as string),
      'Service-API-Version': '1',
    });
    expect(r.headers.ETag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
  });
  it('answers 304 with no body to a matching If-None-Match (also weak or in a list), 200 otherwise', async () => {
    const first = await call('openapi', event('/openapi.json'));
    const etag = first.headers.ETag;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const r = await call('openapi', event('/openapi.json', { 'if-none-match': inm }));
      expect(r.statusCode).toBe(304);
      expect(r.body).toBe('');
      expect(r.headers).toMatchObject({ ETag: etag, 'Cache-Control': 'public, max-age=300' });
    }
    expect((await call('openapi', event('/openapi.json', { 'if-none-match': '"stale"' }))).statusCode).toBe(200);
  });
  it('builds per base URL: another of the API’s domains gets its own URLs and another ETag; a Host header changes nothing', async () => {
    const a = await call('catalog', event('/api/v1/catalog'));
    const b = await call('catalog', event('/api/v1/catalog', {}, undefined, 'other.test'));
    expect(JSON.parse(b.body as string).url).toBe('https://other.test/api/v1/catalog');
    expect(b.headers.ETag).not.toBe(a.headers.ETag);
    const forged = await call('catalog', event('/api/v1/catalog', { host: 'evil.example', 'x-forwarded-proto': 'http' }));
    expect(JSON.parse(forged.body as string).url).toBe('https://api.test/api/v1/catalog');
    expect(forged.headers.ETag).toBe(a.headers.ETag);
  });
  it('refuses an unsupported Service-API-Version with 400 unsupported_api_version', async () => {
    const r = await call('agent-card', event('/.well-known/agent-card.json', { 'service-api-version': '2' }));
    expect(r.statusCode).toBe(400);
    expect(JSON.parse(r.body as string)).toMatchObject({ code: 'unsupported_api_version' });
  });
});

describe('Discovery documents: one entry per document', () => {
  it('/.well-known/x402 and x402.json are served by the same entry (identical bytes); so are agent-card.json and agent.json', () => {
    const entry = (id: string) => ROUTES.find((r) => r.id === id)!.entry;
    expect(entry('DiscoveryX402')).toBe(entry('DiscoveryX402Json'));
    expect(entry('AgentCard')).toBe(entry('AgentCardLegacy'));
  });
  it('/llms.txt and /llms-full.txt are plain text and differ', async () => {
    const short = await call('llms-txt', event('/llms.txt'));
    const full = await call('llms-txt', event('/llms-full.txt'));
    expect(short.headers['Content-Type']).toBe('text/plain; charset=utf-8');
    expect(full.headers['Content-Type']).toBe('text/plain; charset=utf-8');
    expect((full.body as string).length).toBeGreaterThan((short.body as string).length);
    expect(full.body).toContain('## Paying with x402');
    expect(short.body).not.toContain('## Paying with x402');
  });
});

describe('Product (/api/v1/products/{id})', () => {
  it('answers a known id with the product', async () => {
    const r = await call('product', event('/api/v1/products/agent_image', {}, { id: 'agent_image' }));
    expect(r.statusCode).toBe(200);
    expect(JSON.parse(r.body as string)).toMatchObject({ productID: 'agent_image', product: { id: 'agent_image', price_usd_cents: 15 } });
  });
  it('answers an unknown id with 404 and a clear body naming the known ids, not cached', async () => {
    const r = await call('product', event('/api/v1/products/nope', {}, { id: 'nope' }));
    expect(r.statusCode).toBe(404);
    expect(r.headers['Cache-Control']).toBe('no-store');
    expect(JSON.parse(r.body as string)).toEqual({
      error: "Product 'nope' not found",
      products: ['create_music', 'agent_video', 'agent_image'],
      catalog: 'https://api.test/api/v1/catalog',
    });
  });
});

describe('Document cache', () => {
  it('builds a document once per key', () => {
    const cache = new DocumentCache();
    const build = vi.fn(() => ({ body: 'x', contentType: 'text/plain' }));
    cache.get('a', build);
    cache.get('a', build);
    expect(build).toHaveBeenCalledTimes(1);
  });
  it('is bounded, since the base URL can come from any Host header', () => {
    const cache = new DocumentCache(2);
    for (const key of ['a', 'b', 'c']) cache.get(key, () => ({ body: key, contentType: 'text/plain' }));
    expect(cache.size).toBe(2);
    const build = vi.fn(() => ({ body: 'a', contentType: 'text/plain' }));
    cache.get('a', build); // the oldest was evicted
    expect(build).toHaveBeenCalledTimes(1);
  });
  it('matches If-None-Match per RFC 9110', () => {
    expect(matchesIfNoneMatch(undefined, '"a"')).toBe(false);
    expect(matchesIfNoneMatch('"b"', '"a"')).toBe(false);
    expect(matchesIfNoneMatch(' "b" , W/"a"', '"a"')).toBe(true);
  });
});
