/**
 * The x402 `bazaar` extension (docs/protocols.md "Bazaar discovery"): every paid route's 402 (both surfaces), every resource of the discovery
 * index and every priced MCP tool carries the official declaration (`info` + `schema`) that @x402/extensions'
 * `declareDiscoveryExtension` builds, beside the contract's own fields, and the package's `validateDiscoveryExtension`
 * accepts exactly what is served. The functions read the declarations from generated files (the package's bazaar
 * chunk carries ajv): those must equal what the package gives now (on a mismatch, run `npx tsx bin/generate-schemas.ts`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { isValidServiceName, sanitizeResourceServiceMetadata, sanitizeTags, validateDiscoveryExtension, validateDiscoveryExtensionSpec, type DiscoveryExtension } from '@x402/extensions/bazaar';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PRODUCT_BAZAAR } from '../../../lambdas/jobs/bazaar.generated.js';
import { AGENT_BAZAAR } from '../../../lambdas/agents/bazaar.generated.js';
import { AGENT_MCP_BAZAAR } from '../../../lambdas/agents/bazaar-mcp.generated.js';
import { MCP_BAZAAR } from '../../../lambdas/protocols/mcp/bazaar.generated.js';
import { BAZAAR_META_KEY } from '../../../lambdas/protocols/mcp/bazaar.js';
import { mcpBazaarFromSource, productBazaarFromSource } from '../../../lambdas/jobs/bazaar.source.js';
import { agentBazaarFromSource, agentMcpBazaarFromSource, pricedAgents } from '../../../lambdas/agents/bazaar.source.js';
import { paymentChallenge, productOffer, REASON_MISSING } from '../../../lambdas/jobs/offers.js';
import { paymentChallenge as offerChallenge, discoveryExtensions, headerChallenge } from '../../../lambdas/payments/core/challenge.js';
import { agentOffer } from '../../../lambdas/agents/published.js';
import { agentTerms, agentX402Index } from '../../../lambdas/agents/documents.js';
import { AGENT_LISTINGS } from '../../../lambdas/agents/listing.js';
import { topUpOffer } from '../../../lambdas/credits/offers.js';
import { discoveryIndex } from '../../../lambdas/protocols/discovery/x402-index.js';
import { PRODUCT_IDS, PRODUCTS } from '../../../lambdas/products/products.js';
import { createMcpServer } from '../../../lambdas/protocols/mcp/server.js';
import { payWithToken } from '../../../lambdas/protocols/mcp/token-port.js';
import { createAgentMcpServer, toolAgents, type AgentMcpDeps } from '../../../lambdas/agents/mcp-tools.js';
import { bundleAliases, functionBuildOptions } from '../../../lib/bundling/aliases.js';
import { PROJECT_ROOT } from '../../../lib/local/runtime.js';
import { BASE, ctx } from './fixtures.js';

/** The package's verdict on a served `extensions.bazaar` (or an MCP tool's declaration), errors included. */
function verdict(bazaar: unknown) {
  const extension = bazaar as DiscoveryExtension;
  return { schema: validateDiscoveryExtension(extension), spec: validateDiscoveryExtensionSpec(extension as unknown as Record<string, unknown>) };
}
const VALID = { schema: { valid: true }, spec: { valid: true } };

describe('Bazaar: the generated declarations are what @x402/extensions builds now', () => {
  it.each([
    ['paid generation routes', PRODUCT_BAZAAR, productBazaarFromSource],
    ['agent run routes', AGENT_BAZAAR, agentBazaarFromSource],
    ['generation MCP tools', MCP_BAZAAR, mcpBazaarFromSource],
    ['agent studio MCP tools', AGENT_MCP_BAZAAR, agentMcpBazaarFromSource],
  ] as const)('%s: the generated file equals the package’s output, member order included', (_name, generated, fromSource) => {
    const source = fromSource();
    expect(generated).toEqual(source);
    expect(JSON.stringify(generated)).toBe(JSON.stringify(source));
  });

  it('declares every paid product and every priced agent, nothing else', () => {
    expect(Object.keys(PRODUCT_BAZAAR)).toEqual([...PRODUCT_IDS]);
    expect(Object.keys(MCP_BAZAAR)).toEqual([...PRODUCT_IDS]);
    const priced = AGENT_LISTINGS.filter((agent) => agent.price > 0n).map((agent) => agent.slug);
    expect(pricedAgents().map((agent) => agent.slug)).toEqual(priced);
    expect(Object.keys(AGENT_BAZAAR)).toEqual(priced);
    expect(Object.keys(AGENT_MCP_BAZAAR)).toEqual(priced);
  });
});

describe('Bazaar: every generation 402 carries the official declaration with the contract\'s category and tags', () => {
  it.each(PRODUCT_IDS)('%s: validateDiscoveryExtension accepts extensions.bazaar of the body and of PAYMENT-REQUIRED', (id) => {
    const challenge = paymentChallenge(id, BASE, ctx.terms, REASON_MISSING);
    const bazaar = challenge.extensions.bazaar as Record<string, any>;
    expect(verdict(bazaar)).toEqual(VALID);
    expect(verdict(headerChallenge(challenge).extensions.bazaar)).toEqual(VALID);
    // The 402 says each thing once (the client echoes it in PAYMENT-SIGNATURE): the body schema and the output
    // example are the official declaration's; the contract's input/output and accepts' outputSchema are the index's.
    expect(Object.keys(bazaar)).toEqual(['discoverable', 'category', 'tags', 'info', 'schema']);
    expect(challenge.accepts[0]).not.toHaveProperty('outputSchema');
    expect(bazaar).toMatchObject({ discoverable: true, category: PRODUCTS[id].category, tags: PRODUCTS[id].tags });
    expect(bazaar.info.input).toMatchObject({ type: 'http', method: 'POST', bodyType: 'json' });
    expect(bazaar.schema.properties.input.properties.body).toEqual(productOffer(id, BASE).inputSchema);
    expect(bazaar.info.output.example).toEqual(productOffer(id, BASE).outputExample);
  });

  it.each(PRODUCT_IDS)('%s: the discovery index publishes the same validated bazaar with the contract\'s input and output', (id) => {
    const resource = discoveryIndex(ctx).resources.find((r) => r.resource === `${BASE}${PRODUCTS[id].path}`)!;
    const bazaar = resource.extensions.bazaar as Record<string, any>;
    expect(Object.keys(bazaar)).toEqual(['discoverable', 'category', 'tags', 'input', 'output', 'info', 'schema']);
    const { input, output, ...official } = bazaar;
    expect(official).toEqual(paymentChallenge(id, BASE, ctx.terms, '').extensions.bazaar);
    expect(input).toMatchObject({ method: 'POST', bodyType: 'json' });
    expect(bazaar.schema.properties.input.properties.body).toEqual(input.body);
    expect(bazaar.info.output.example).toEqual(output.example);
    expect(verdict(bazaar)).toEqual(VALID);
    // The resource's service metadata passes the package's rules for it (printable ASCII, ≤ 32 chars, ≤ 5 tags).
    expect(isValidServiceName(resource.serviceName)).toBe(true);
    expect(sanitizeTags(resource.tags)).toEqual(resource.tags);
  });
});

describe('Bazaar: every priced agent run’s 402 carries the official declaration', () => {
  it.each(pricedAgents().map((agent) => [agent.slug, agent] as const))('%s', (_slug, agent) => {
    const challenge = offerChallenge(agentOffer(agent, BASE), ctx.terms, REASON_MISSING);
    const bazaar = challenge.extensions.bazaar as Record<string, any>;
    expect(verdict(bazaar)).toEqual(VALID);
    expect(bazaar).toMatchObject({ discoverable: true, category: 'agents', tags: agent.tags });
    expect(bazaar.schema.properties.input.properties.body).toEqual(agentOffer(agent, BASE).inputSchema);
    // The per-agent terms document publishes the same extensions; the index, the discovery form (validated too).
    expect((agentTerms(agent, ctx) as { extensions: unknown }).extensions).toEqual(challenge.extensions);
    // (An agent priced but not published has no index entry.)
    const listed = agentX402Index(ctx).resources.find((r) => r.resource === challenge.resource.url);
    expect(listed !== undefined).toBe(agent.deployment !== null);
    if (listed) {
      expect(listed.extensions).toEqual(discoveryExtensions(agentOffer(agent, BASE)));
      expect(verdict((listed.extensions as { bazaar: unknown }).bazaar)).toEqual(VALID);
    }
  });

  it('a free agent’s offer carries no bazaar declaration in its (never served) challenge, the contract fields in discovery', () => {
    const free = AGENT_LISTINGS.find((agent) => agent.price === 0n)!;
    expect(offerChallenge(agentOffer(free, BASE), ctx.terms, '').extensions.bazaar).not.toHaveProperty('info');
    expect(discoveryExtensions(agentOffer(free, BASE)).bazaar).not.toHaveProperty('info');
  });
});

describe('Bazaar: every 402 names its service metadata on `resource`, as the package keeps it', () => {
  const challenges = [
    ...PRODUCT_IDS.map((id) => [id, paymentChallenge(id, BASE, ctx.terms, REASON_MISSING), PRODUCTS[id].tags] as const),
    ...pricedAgents().map((agent) => [agent.slug, offerChallenge(agentOffer(agent, BASE), ctx.terms, REASON_MISSING), agent.tags] as const),
    ['top-up', offerChallenge(topUpOffer(5, BASE), ctx.terms, REASON_MISSING), undefined] as const,
  ];
  it.each(challenges)('%s: serviceName and tags pass sanitizeResourceServiceMetadata unchanged', (_name, challenge, tags) => {
    const { serviceName, tags: listed } = challenge.resource;
    expect(serviceName).toMatch(/^Paycall /);
    expect(listed).toEqual(tags);
    expect(sanitizeResourceServiceMetadata(challenge.resource as never)).toEqual({ serviceName, ...(tags ? { tags } : {}) });
  });
});

describe('Bazaar: every priced MCP tool lists its official declaration in _meta', () => {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  async function listed(server: McpServer) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'unit', version: '0' });
    await client.connect(clientSide);
    return (await client.listTools()).tools;
  }

  it('generation surface: each x402 tool, validated, describing the input schema it lists; the token tools none', async () => {
    const tools = await listed(createMcpServer({ baseUrl: BASE, terms: ctx.terms, payWithToken, readSong: async () => undefined }));
    for (const tool of tools) {
      const declaration = tool._meta?.[BAZAAR_META_KEY] as Record<string, any> | undefined;
      if (!(PRODUCT_IDS as readonly string[]).includes(tool.name)) {
        expect(declaration, tool.name).toBeUndefined();
        continue;
      }
      expect(verdict(declaration), tool.name).toEqual(VALID);
      expect(declaration!.info.input).toMatchObject({ type: 'mcp', toolName: tool.name, transport: 'streamable-http' });
      expect(declaration!.info.input.inputSchema.properties, tool.name).toEqual(tool.inputSchema.properties);
    }
  });

  it('agent studio: each priced tool, validated; free tools none', async () => {
    const tools = await listed(createAgentMcpServer({ baseUrl: BASE } as AgentMcpDeps));
    expect(tools.map((tool) => tool.name)).toEqual(toolAgents().map((agent) => agent.slug));
    for (const agent of toolAgents()) {
      const declaration = tools.find((tool) => tool.name === agent.slug)!._meta?.[BAZAAR_META_KEY] as Record<string, any> | undefined;
      if (agent.price === 0n) {
        expect(declaration, agent.slug).toBeUndefined();
        continue;
      }
      expect(verdict(declaration), agent.slug).toEqual(VALID);
      expect(declaration!.info.input).toMatchObject({ type: 'mcp', toolName: agent.slug });
    }
  });
});

describe('Bazaar: no function carries the package\'s bazaar module (it brings ajv)', () => {
  // The MCP functions hold ajv already (the MCP SDK validates with it); the bazaar module must stay out of them too.
  // The paid functions do carry the package's payment-identifier and offer-receipt functions, without ajv.
  it.each([
    ['lambdas/http/create-music.ts', true],
    ['lambdas/http/discovery-x402.ts', true],
    ['lambdas/http/agents/run.ts', true],
    ['lambdas/http/agents/documents.ts', true],
    ['lambdas/http/mcp.ts', false],
    ['lambdas/http/agents/mcp.ts', false],
  ] as const)('%s', async (entry, noAjv) => {
    const options = functionBuildOptions(join(PROJECT_ROOT, entry), join(PROJECT_ROOT, 'bazaar-check.mjs'), bundleAliases(PROJECT_ROOT));
    const result = await build({ ...options, write: false, metafile: true });
    // What the bundle carries: the inputs with bytes in the output (a module parsed and then shaken away has none).
    const [output] = Object.values(result.metafile.outputs);
    const inputs = Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path);
    expect(inputs.filter((path) => /node_modules\/@x402\/extensions\/dist\/\w+\/bazaar\/|bazaar\.source\.ts/.test(path))).toEqual([]);
    const bazaarChunk = inputs.filter((path) => /node_modules\/@x402\/extensions\//.test(path) && readFileSync(join(PROJECT_ROOT, path), 'utf8').includes('function declareDiscoveryExtension'));
    expect(bazaarChunk).toEqual([]);
    if (noAjv) expect(inputs.filter((path) => /node_modules\/ajv\//.test(path))).toEqual([]);
  });
});
