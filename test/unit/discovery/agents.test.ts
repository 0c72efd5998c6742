import { describe, expect, it } from 'vitest';
import { AgentCard } from '@a2a-js/sdk';
import { agentCard, aiPluginManifest } from '../../../lambdas/protocols/discovery/agents.js';
import { llmsFullTxt, llmsTxt } from '../../../lambdas/protocols/discovery/llms.js';
import { productInputSchema } from '../../../lambdas/jobs/offers.js';
import { BASE, IDS, PAY_TO, SPEC_PRICES, USDC, ctx } from './fixtures.js';
import { agentCardProblems } from '../../support/a2a-agent-card-schema.js';

const card = agentCard(ctx);

describe('A2A agent card (/.well-known/agent-card.json, /.well-known/agent.json)', () => {
  it('is A2A 1.0 with its preferred (first) interface JSON-RPC at {base_url}/a2a', () => {
    expect(card.supportedInterfaces[0]).toEqual({ url: `${BASE}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
  });
  it('holds only what the A2A 1.0 AgentCard defines (0.3\'s top-level url, preferredTransport and protocolVersion are gone)', () => {
    expect(agentCardProblems(card)).toEqual([]);
    for (const member of ['url', 'preferredTransport', 'protocolVersion']) expect(card, member).not.toHaveProperty(member);
  });
  it('offers neither streaming nor push notifications', () => {
    expect(card.capabilities).toMatchObject({ streaming: false, pushNotifications: false });
  });
  it('has three skills whose ids are the product ids, each naming its price and how to select it', () => {
    expect(card.skills.map((s) => s.id)).toEqual([...IDS]);
    for (const skill of card.skills) {
      expect(skill.description).toContain(SPEC_PRICES[skill.id as (typeof IDS)[number]].priceUsd);
      expect(skill.description).toContain(`message.metadata.skillId ("${skill.id}")`);
      expect(skill.tags.length).toBeGreaterThan(0);
    }
  });
  it('states each skill price and the x402 terms in its pricing extension', () => {
    const [pricing] = card.capabilities.extensions;
    expect(pricing.params).toMatchObject({ x402Version: 2, network: 'eip155:8453', asset: USDC, payTo: PAY_TO });
    expect(pricing.params.skills).toEqual(
      IDS.map((id) => ({ id, endpoint: `${BASE}${SPEC_PRICES[id].path}`, method: 'POST', amount: SPEC_PRICES[id].amount, priceUsd: SPEC_PRICES[id].priceUsd })),
    );
  });
  it('reads as a 1.0 card in the A2A SDK, with every member it knows', () => {
    const parsed = AgentCard.fromJSON(card);
    expect(parsed.supportedInterfaces[0]).toMatchObject({ url: `${BASE}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
    expect(parsed.skills.map((s) => s.id)).toEqual([...IDS]);
    expect(parsed.capabilities).toMatchObject({ streaming: false, pushNotifications: false });
    expect(parsed.defaultInputModes.length).toBeGreaterThan(0);
    expect(parsed.provider?.url).toBe(BASE);
  });
});

describe('Plugin manifest (/.well-known/ai-plugin.json)', () => {
  const manifest = aiPluginManifest(ctx);
  it('has auth type none and points at openapi.json and the MCP endpoint', () => {
    expect(manifest).toMatchObject({
      schema_version: 'v1',
      auth: { type: 'none' },
      api: { type: 'openapi', url: `${BASE}/openapi.json`, is_user_authenticated: false },
      mcp: { url: `${BASE}/api/mcp` },
    });
    expect(manifest.name_for_model).toMatch(/^[a-z0-9_]{1,64}$/);
  });
  it('tells the model the prices', () => {
    for (const id of IDS) expect(manifest.description_for_model).toContain(`${id} ${SPEC_PRICES[id].priceUsd}`);
  });
});

describe('llms.txt (llmstxt.org format)', () => {
  const text = llmsTxt(ctx);
  const lines = text.split('\n');
  it('starts with an H1 title and a blockquote summary', () => {
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^> \S/);
  });
  it('has H2 sections of markdown link lists, Optional last, and no deeper headings', () => {
    const h2 = lines.filter((l) => l.startsWith('## '));
    expect(h2).toEqual(['## Products', '## Documents', '## Agents', '## Optional']);
    expect(lines.filter((l) => /^#{3,} /.test(l))).toEqual([]);
    const items = lines.filter((l) => l.startsWith('- '));
    for (const item of items) expect(item).toMatch(/^- \[[^\]]+\]\(https?:\/\/[^)]+\)(: .+)?$/);
    expect(items.some((i) => i.includes(`(${BASE}/llms-full.txt)`))).toBe(true);
  });
  it('names each product, its endpoint and price', () => {
    for (const id of IDS) expect(text).toContain(`[${id}](${BASE}/api/v1/products/${id})`);
    for (const id of IDS) expect(text).toContain(`\`POST ${SPEC_PRICES[id].path}\`, ${SPEC_PRICES[id].priceUsd} per call (${SPEC_PRICES[id].amount} USDC base units)`);
  });
});

describe('llms-full.txt', () => {
  const text = llmsFullTxt(ctx);
  it('keeps the llms.txt head and adds the x402 flow with the terms', () => {
    expect(text.startsWith(llmsTxt(ctx).split('## Optional')[0])).toBe(true);
    expect(text).toContain('## Paying with x402');
    expect(text).toContain(`asset USDC \`${USDC}\``);
    expect(text).toContain(`payTo \`${PAY_TO}\``);
    expect(text).toContain('TransferWithAuthorization');
  });
  it.each(IDS)('carries the full input schema and price of %s', (id) => {
    expect(text).toContain(JSON.stringify(productInputSchema(id), null, 2));
    expect(text).toContain(`Price: ${SPEC_PRICES[id].priceUsd} = ${SPEC_PRICES[id].amount} USDC base units`);
  });
});
