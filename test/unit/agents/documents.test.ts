/**
 * The agent studio's documents (lambdas/agents/documents.ts, openapi.ts, template.ts) against the registry and
 * the run route's 402: every price, schema and term a document publishes is the one the route charges.
 */
import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { z } from 'zod';
import { AGENTS, isToolEligible, publishedAgents, type AgentDefinition } from '../../../lambdas/agents/registry.js';
import { agentOffer, runRequestSchema } from '../../../lambdas/agents/offers.js';
import { agentCatalog, agentTerms, agentX402Index, servicesFeed } from '../../../lambdas/agents/documents.js';
import { agentsOpenApi } from '../../../lambdas/agents/openapi.js';
import { templateBundle } from '../../../lambdas/agents/template.js';
import { paymentChallenge } from '../../../lambdas/payments/core/challenge.js';
import { routePath } from '../../../lambdas/surfaces/routes.js';
import type { DiscoveryContext } from '../../../lambdas/protocols/discovery/context.js';

const BASE = 'https://agents.example';
const ctx: DiscoveryContext = {
  base: BASE,
  terms: { network: 'eip155:8453', usdcAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: `0x${'11'.repeat(20)}` },
  settledBy: 'self',
};

const bySlug = (slug: string) => AGENTS.find((a) => a.slug === slug)!;
/** The spec's four concrete agents and their prices (USDC base units). */
const SPEC_PRICES: Record<string, bigint> = {
  'vendor-risk-read-q0jjq': 80_000n,
  'bank-rec-discrepancy-finder-bw0tt': 60_000n,
  'expense-policy-check-l8o5i': 40_000n,
  'po-match-gate-mkgu0': 50_000n,
};
const CONCRETE = Object.keys(SPEC_PRICES).map(bySlug);
const UNPUBLISHED = 'vendor-risk-next-z5v1q';
const PUBLISHED = publishedAgents();
const PRICED = PUBLISHED.filter((a) => a.price > 0n);
const challengeOf = (agent: AgentDefinition) => paymentChallenge(agentOffer(agent, BASE), ctx.terms, '');
const members = (agent: AgentDefinition) => Object.keys((agent.inputSchema as z.ZodObject).shape);

describe('Agent studio: the registry', () => {
  it('has the four concrete agents at the spec prices, each on its fixed run route', () => {
    for (const agent of CONCRETE) {
      expect(agent.price, agent.slug).toBe(SPEC_PRICES[agent.slug]);
      expect(agent.kind).toBe('published');
      expect(routePath(agent.route!)).toBe(`/api/agents/${agent.slug}/run`);
    }
  });

  it('publishes every agent with a Live deployment and not the one without', () => {
    expect(PUBLISHED.map((a) => a.slug)).toEqual(AGENTS.filter((a) => a.deployment !== null).map((a) => a.slug));
    expect(PUBLISHED.map((a) => a.slug)).not.toContain(UNPUBLISHED);
    expect(AGENTS.map((a) => a.slug)).toContain(UNPUBLISHED);
  });

  it('makes MCP tools and A2A skills of the four concrete agents only, not the employee, the relay nor the mutable pilot', () => {
    for (const agent of CONCRETE) expect(isToolEligible(agent), agent.slug).toBe(true);
    for (const slug of ['ap-clerk-month-end-c4n8e', 'ledger-normalizer-relay-r2d7k', 'expense-policy-draft-p9w2m']) {
      expect(isToolEligible(bySlug(slug)), slug).toBe(false);
    }
    expect(bySlug('ap-clerk-month-end-c4n8e').kind).toBe('company-employee');
    expect(bySlug('ledger-normalizer-relay-r2d7k').kind).toBe('relay');
    expect(bySlug('expense-policy-draft-p9w2m').deployment).toEqual({ version: 'pilot', immutable: false });
  });
});

describe('Agent studio: run request schemas are strict', () => {
  for (const agent of CONCRETE) {
    describe(agent.slug, () => {
      const schema = runRequestSchema(agent);
      const valid = () => Object.fromEntries(members(agent).map((m) => [m, `some ${m} text`]));

      it('accepts every input member as non-empty text, with dryRun', () => {
        expect(schema.safeParse({ input: valid() }).success).toBe(true);
        expect(schema.safeParse({ input: valid(), dryRun: true }).success).toBe(true);
      });
      it('rejects an empty string in any member', () => {
        for (const m of members(agent)) expect(schema.safeParse({ input: { ...valid(), [m]: '' } }).success, m).toBe(false);
      });
      it('rejects a missing member, and a missing input', () => {
        for (const m of members(agent)) {
          const { [m]: _, ...rest } = valid();
          expect(schema.safeParse({ input: rest }).success, m).toBe(false);
        }
        expect(schema.safeParse({}).success).toBe(false);
      });
      it('rejects an additional property at the top level and inside input', () => {
        expect(schema.safeParse({ input: valid(), extra: 1 }).success).toBe(false);
        expect(schema.safeParse({ input: { ...valid(), extra: 'x' } }).success).toBe(false);
      });
    });
  }
});

describe('Agent studio: per-agent x402 terms are the run route 402', () => {
  it('every priced published agent: accepts deep-equal its challenge, a v2 entry on eip155:8453 and a v1 entry on base', () => {
    expect(PRICED.length).toBeGreaterThanOrEqual(4);
    for (const agent of PRICED) {
      const terms = agentTerms(agent, ctx);
      const challenge = challengeOf(agent);
      expect(terms.accepts, agent.slug).toEqual(challenge.accepts);
      expect(terms).toMatchObject({ x402Version: 2, agent: agent.slug, free: false, resource: challenge.resource.url });

      const price = agent.price.toString();
      const v2 = terms.accepts.find((a) => a.network === 'eip155:8453');
      const v1 = terms.accepts.find((a) => a.network === 'base');
      expect(terms.accepts).toHaveLength(2);
      expect(v2).toMatchObject({ scheme: 'exact', amount: price, maxAmountRequired: price, asset: ctx.terms.usdcAddress, payTo: ctx.terms.payTo });
      expect(v1).toMatchObject({ scheme: 'exact', maxAmountRequired: price, asset: ctx.terms.usdcAddress, payTo: ctx.terms.payTo, resource: challenge.resource.url });
      expect(v1!.maxTimeoutSeconds).toBe(v2!.maxTimeoutSeconds);
    }
  });

  it('a concrete agent is charged at its fixed run route; other agents at the generic route with their slug', () => {
    for (const agent of CONCRETE) expect(agentTerms(agent, ctx).resource).toBe(`${BASE}/api/agents/${agent.slug}/run`);
    const employee = bySlug('ap-clerk-month-end-c4n8e');
    expect(agentTerms(employee, ctx).resource).toBe(`${BASE}/api/agents/${employee.slug}/run`);
  });

  it('a free agent has no terms to pay', () => {
    for (const agent of PUBLISHED.filter((a) => a.price === 0n)) {
      expect(agentTerms(agent, ctx)).toMatchObject({ free: true, accepts: [] });
    }
  });
});

describe('Agent studio: the x402 index', () => {
  const index = agentX402Index(ctx);

  it('lists exactly the priced published agents, each with the accepts of its 402', () => {
    expect(index).toMatchObject({ x402Version: 2, settledBy: 'self', count: PRICED.length });
    expect(index.resources.map((r) => r.resource)).toEqual(PRICED.map((a) => challengeOf(a).resource.url));
    for (const [i, agent] of PRICED.entries()) {
      expect(index.resources[i].accepts, agent.slug).toEqual(challengeOf(agent).accepts);
      expect(index.resources[i].extensions).toEqual(challengeOf(agent).extensions);
      expect(index.resources[i]).toMatchObject({ method: 'POST', title: agent.name });
    }
    const listed = JSON.stringify(index);
    expect(listed).not.toContain(UNPUBLISHED);
    for (const free of AGENTS.filter((a) => a.price === 0n)) expect(listed).not.toContain(free.slug);
  });
});

describe('Agent studio: the catalog', () => {
  const catalog = agentCatalog(ctx);

  it('lists exactly the published agents, priced in USDC', () => {
    expect(catalog.count).toBe(PUBLISHED.length);
    expect(catalog.agents.map((a) => a.slug)).toEqual(PUBLISHED.map((a) => a.slug));
    expect(catalog.agents.map((a) => a.slug)).not.toContain(UNPUBLISHED);
    for (const entry of catalog.agents) {
      const agent = bySlug(entry.slug);
      expect(entry.priceUsdc, entry.slug).toBe(Number(agent.price) / 1e6);
      expect(entry.free).toBe(agent.price === 0n);
      expect(entry.mcpEligible).toBe(isToolEligible(agent));
    }
    expect(catalog.agents.find((a) => a.slug === 'bank-rec-discrepancy-finder-bw0tt')!.priceUsdc).toBe(0.06);
  });
});

describe('Agent studio: the services feed', () => {
  const feed = servicesFeed(ctx);

  it('carries one service per published agent', () => {
    expect(feed.services.map((s) => s.slug)).toEqual(PUBLISHED.map((a) => a.slug));
  });

  for (const agent of PUBLISHED) {
    it(`${agent.slug}: typed schemas, an example its result schema accepts, pricing and human review`, () => {
      const service = feed.services.find((s) => s.slug === agent.slug)!;
      expect(service.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect([...(service.inputSchema.required as string[])].sort()).toEqual(members(agent).sort());
      expect(Object.keys(service.inputSchema.properties as object).sort()).toEqual(members(agent).sort());
      expect(service.outputSchema).toMatchObject({ type: 'object' });
      expect(Object.keys(service.outputSchema.properties as object).sort()).toEqual(
        Object.keys((agent.resultSchema as z.ZodObject).shape).sort(),
      );

      expect(service.examples).toHaveLength(1);
      const [example] = service.examples;
      expect(agent.inputSchema.safeParse(example.input).success).toBe(true);
      const parsed = agent.resultSchema.safeParse(example.result);
      expect(parsed.error).toBeUndefined();
      expect(example.result).toEqual(agent.engine.analyse(example.input as never));

      expect(service.pricing).toMatchObject({
        amount: agent.price.toString(),
        currency: 'USDC',
        network: ctx.terms.network,
        asset: ctx.terms.usdcAddress,
        payTo: ctx.terms.payTo,
        protocol: agent.price === 0n ? null : 'x402',
      });
      expect(service.humanReview).toEqual(agent.humanReview);
    });
  }
});

describe('Agent studio: the OpenAPI document', () => {
  const doc = agentsOpenApi(BASE) as Record<string, any>;

  it('is a valid OpenAPI 3.1 document at version 0.3.0', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
    expect(doc.info.version).toBe('0.3.0');
    expect(doc.servers).toEqual([{ url: BASE }]);
  });

  it('the validator rejects a broken document (the check above can fail)', async () => {
    const broken = structuredClone(doc);
    delete broken.paths['/api/catalog'].get.responses['200'].description;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('names the concrete run operations runPublishedAgent_<slug with _>, with the agent run request schema', () => {
    for (const agent of CONCRETE) {
      const op = doc.paths[`/api/agents/${agent.slug}/run`]?.post;
      expect(op?.operationId, agent.slug).toBe(`runPublishedAgent_${agent.slug.replaceAll('-', '_')}`);
      expect(op.requestBody.content['application/json'].schema.properties.input).toMatchObject({
        required: expect.arrayContaining(members(agent)),
      });
    }
  });
});

describe('Agent studio: the template bundle', () => {
  for (const agent of CONCRETE) {
    it(`${agent.slug}: a flow, a run client paying with @x402/fetch and a README`, () => {
      const bundle = templateBundle(agent, ctx);
      expect(bundle.flow).toMatchObject({ slug: agent.slug, price: { amount: agent.price.toString() }, run: { url: `${BASE}/api/agents/${agent.slug}/run` } });
      expect(bundle.runClient.filename).toBe('run.mjs');
      expect(bundle.runClient.source).toMatch(/^import .* from '@x402\/fetch';$/m);
      expect(bundle.readme.text).toContain(agent.name);
      expect(bundle.readme.text).toContain(`${BASE}/api/agents/${agent.slug}/run`);
    });
  }
});
