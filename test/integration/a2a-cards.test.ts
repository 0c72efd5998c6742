/**
 * Every A2A card the service serves, fetched over HTTP from the embedded service, validates against the A2A 1.0
 * AgentCard schema with every object closed (test/support/a2a-agent-card-schema.ts), as a strict card parser reads
 * it: the generation surface's card (both paths) and the agent studio's root card (its three paths) and the card of
 * every published agent (both paths). What the contract asks of them is still there: the generation card's price of
 * each skill in its pricing extension, and the agent studio's capability, provider and pricing, its facts in the
 * data-only extension whose URI is the services feed, agreeing with the catalog and the feed.
 */
import { describe, expect, it } from 'vitest';
import { fetchFrom, runtime } from '../support/buyer.js';
import { agentCardProblems } from '../support/a2a-agent-card-schema.js';

const f = fetchFrom('127.0.0.118');

async function card(url: string) {
  const response = await f(url);
  expect(response.status, url).toBe(200);
  expect(response.headers.get('content-type'), url).toMatch(/^application\/json/);
  return response.json();
}

const dataOf = (agentCard: any, agentsUrl: string) => agentCard.capabilities.extensions.find((e: any) => e.uri === `${agentsUrl}/api/services`);

describe('A2A cards validate against the A2A 1.0 AgentCard schema, every object closed', () => {
  it('the generation surface: /.well-known/agent-card.json and /.well-known/agent.json, each skill priced in its pricing extension', async () => {
    const { baseUrl } = runtime();
    for (const path of ['/.well-known/agent-card.json', '/.well-known/agent.json']) {
      const served = await card(`${baseUrl}${path}`);
      expect(agentCardProblems(served), path).toEqual([]);
      expect(served.supportedInterfaces).toEqual([{ url: `${baseUrl}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]);
      const pricing = served.capabilities.extensions.find((e: any) => e.uri === `${baseUrl}/.well-known/x402`);
      expect(pricing.params.skills.map((s: any) => s.id)).toEqual(served.skills.map((s: any) => s.id));
    }
  });

  it('the agent studio root card at /.well-known/agent-card.json, /api/a2a and /api/.well-known/agent-card.json: each skill\'s price and card in the data extension', async () => {
    const { agentsUrl } = runtime();
    const catalog = await card(`${agentsUrl}/api/catalog`);
    for (const path of ['/.well-known/agent-card.json', '/api/a2a', '/api/.well-known/agent-card.json']) {
      const served = await card(`${agentsUrl}${path}`);
      expect(agentCardProblems(served), path).toEqual([]);
      const data = dataOf(served, agentsUrl);
      expect(data, path).toMatchObject({ required: false, params: { dryRun: true, pricing: { currency: 'USDC' } } });
      for (const agent of catalog.agents) expect(data.params.skills[agent.slug], agent.slug).toEqual({ priceUsdc: agent.priceUsdc, card: agent.cardUrl });
    }
  });

  it('every published agent\'s card at /api/agents/{agent}/a2a and …/.well-known/agent-card.json: its capability and pricing as the feed says', async () => {
    const { agentsUrl } = runtime();
    const { agents } = await card(`${agentsUrl}/api/catalog`);
    const { services } = await card(`${agentsUrl}/api/services`);
    expect(agents.length).toBeGreaterThan(0);
    for (const agent of agents) {
      const service = services.find((s: any) => s.slug === agent.slug);
      for (const url of [`${agentsUrl}/api/agents/${agent.slug}/a2a`, agent.cardUrl]) {
        const served = await card(url);
        expect(agentCardProblems(served), url).toEqual([]);
        expect(served.provider, url).toEqual({ organization: 'Paycall', url: agentsUrl });
        const { params } = dataOf(served, agentsUrl);
        expect(params.capability, url).toMatchObject({ slug: agent.slug, endpoint: agent.runUrl, requestBody: { input: service.inputSchema }, result: service.outputSchema });
        expect(params.pricing, url).toEqual(service.pricing);
        expect(params.links, url).toMatchObject({ x402: agent.x402Url, template: agent.templateUrl });
      }
    }
  });
});
