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
import { ROUTES, routePath, type RouteDef } from '../../../lambdas/surfaces/routes.js';
import { A2A_CONTENT_TYPE } from '../../../lambdas/shared/a2a.js';
import type { HttpEvent, HttpResult } from '../../../lambdas/shared/http.js';
import { httpEvent, lambdaContext } from '../../support/events.js';
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

  it('lists exactly the priced published agents, each with the accepts of its 402 (plus their outputSchema)', () => {
    expect(index).toMatchObject({ x402Version: 2, settledBy: 'self', count: PRICED.length });
    expect(index.resources.map((r) => r.resource)).toEqual(PRICED.map((a) => challengeOf(a).resource.url));
    for (const [i, agent] of PRICED.entries()) {
      const accepts = index.resources[i].accepts as { outputSchema?: { input: { body: unknown } } }[];
      expect(accepts.map(({ outputSchema, ...terms }) => terms), agent.slug).toEqual(challengeOf(agent).accepts);
      for (const entry of accepts) expect(entry.outputSchema!.input.body).toEqual(agentOffer(agent, BASE).inputSchema);
      // The discovery form: the 402's bazaar with the contract's own input and output beside it.
      const { input, output, ...official } = (index.resources[i].extensions as { bazaar: Record<string, unknown> }).bazaar;
      expect({ ...index.resources[i].extensions, bazaar: official }).toEqual(challengeOf(agent).extensions);
      expect(input).toMatchObject({ method: 'POST', body: agentOffer(agent, BASE).inputSchema });
      expect(output).toEqual({ type: 'json', example: expect.any(Object) });
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

  const ERROR_REF = '#/components/schemas/Error';
  const AGENT_ROUTES = ROUTES.filter((r) => r.surface === 'agents');
  const opOf = (route: RouteDef) => doc.paths[route.path]?.[route.method.toLowerCase()];
  const byEntry = (file: string) => AGENT_ROUTES.filter((r) => r.entry === `lambdas/http/agents/${file}`);
  const byId = (id: string) => AGENT_ROUTES.find((r) => r.id === id)!;
  const statuses = (route: RouteDef) => Object.keys(opOf(route).responses).sort();
  const A2A_ROUTES = [...byEntry('a2a-send.ts'), ...byEntry('a2a-operations.ts')];
  const contentTypes = (response: any) => Object.keys(response.content ?? {});
  const params = (route: RouteDef) => opOf(route).parameters as { name: string; in: string; required?: boolean; deprecated?: boolean; schema: any }[];

  it('declares every API route of the agent surface (all but the playground) with its method and the route table\'s operationId', () => {
    const api = AGENT_ROUTES.filter((r) => r.id !== 'AgentsPlayground');
    // The A2A interfaces, the workspace routes and the top-up are agent routes, so this covers them.
    expect(api.map((r) => r.id)).toEqual(expect.arrayContaining(['AgentA2aSend', 'A2aSend', 'A2aCardBeside', 'AgentA2aGetTask', 'A2aDeletePushConfig', 'CreateWorkspace', 'GatewayBalance', 'GatewayLedger', 'GatewayTopUp']));
    for (const route of api) {
      expect(route.operationId, route.id).toMatch(/^[a-z][A-Za-z0-9_]*$/);
      expect(opOf(route)?.operationId, `${route.method} ${route.path}`).toBe(route.operationId);
    }
    const declared = Object.entries(doc.paths).flatMap(([path, methods]: [string, any]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(declared.sort()).toEqual(api.map((r) => `${r.method} ${r.path}`).sort());
    const ids = Object.values(doc.paths).flatMap((methods: any) => Object.values(methods).map((o: any) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/playground']).toBeUndefined();
  });

  it('A2A operations require A2A-Version and answer only application/a2a+json, in the statuses their handlers give', () => {
    expect(A2A_ROUTES).toHaveLength(2 + 2 * 11);
    for (const route of A2A_ROUTES) {
      expect(params(route).find((p) => p.name === 'A2A-Version'), route.id).toMatchObject({ in: 'header', required: true });
      for (const [status, response] of Object.entries(opOf(route).responses)) {
        expect(contentTypes(response), `${route.id} ${status}`).toEqual([A2A_CONTENT_TYPE]);
        const schema = (response as any).content[A2A_CONTENT_TYPE].schema;
        expect(schema, `${route.id} ${status}`).toMatchObject({ type: 'object' }); // free-form: nothing required
        expect(schema.required, `${route.id} ${status}`).toBeUndefined();
      }
      const perAgent = route.path.includes('{agent}');
      const name = route.id.replace(/^(AgentA2a|A2a)/, '');
      const expected: Record<string, string[]> = {
        Send: ['200', '400', '402', '404', '409', '415', '429', '500', '503'],
        Stream: ['400', '500'],
        SubscribePost: ['400', '500'],
        SubscribeGet: ['400', '500'],
        ExtendedCard: ['400', '500'],
        ListTasks: ['200', '400', '500'],
        GetTask: ['400', '404', '500'],
        CancelTask: ['400', '404', '500'],
        CreatePushConfig: ['400', '500'],
        ListPushConfigs: ['400', '500'],
        GetPushConfig: ['400', '500'],
        DeletePushConfig: ['400', '500'],
      };
      expect(statuses(route), route.id).toEqual([...new Set([...expected[name], ...(perAgent ? ['404'] : [])])].sort());
    }
    expect(opOf(byId('AgentA2aStream')).responses['400'].description).toMatch(/UnsupportedOperation/);
    expect(opOf(byId('A2aGetTask')).responses['404'].description).toMatch(/TaskNotFound/);
    expect(opOf(byId('AgentA2aSend')).responses['404'].description).toMatch(/TaskNotFound/);
    expect(opOf(byId('A2aSend')).responses['415'].description).toMatch(/ContentTypeNotSupported/);
    expect(opOf(byId('AgentA2aCancelTask')).responses['404'].description).toMatch(/TaskNotFound/);
    expect(opOf(byId('A2aCreatePushConfig')).responses['400'].description).toMatch(/PushNotificationNotSupported/);
  });

  it('message:send takes application/a2a+json or application/json, its headers, and answers the 402 with PAYMENT-REQUIRED', () => {
    for (const route of byEntry('a2a-send.ts')) {
      const op = opOf(route);
      expect(Object.keys(op.requestBody.content).sort(), route.id).toEqual([A2A_CONTENT_TYPE, 'application/json'].sort());
      expect(op.requestBody.required).toBe(true);
      const header = (name: string) => params(route).find((p) => p.name === name && p.in === 'header');
      expect(header('A2A-Extensions')).toMatchObject({ required: false });
      expect(header('X-A2A-Extensions')).toMatchObject({ required: false, deprecated: true });
      expect(header('PAYMENT-SIGNATURE')).toMatchObject({ required: false });
      expect(op.responses['402'].headers['PAYMENT-REQUIRED']).toBeDefined();
      expect(params(route).some((p) => p.name === 'agent' && p.in === 'path')).toBe(route.path.includes('{agent}'));
    }
  });

  it('routes other than A2A operations answer errors as the Error body in application/json', () => {
    const nonA2a = AGENT_ROUTES.filter((r) => r.operationId && !A2A_ROUTES.includes(r) && r.entry !== 'lambdas/http/agents/mcp.ts');
    expect(nonA2a.length).toBeGreaterThan(0);
    for (const route of nonA2a) {
      for (const [status, response] of Object.entries(opOf(route).responses) as [string, any][]) {
        if (Number(status) < 400 || status === '402') continue;
        expect(response.content, `${route.id} ${status}`).toEqual({ 'application/json': { schema: { $ref: ERROR_REF } } });
      }
    }
    // The A2A cards are documents: JSON, like the other cards.
    expect(contentTypes(opOf(byId('AgentA2aCard')).responses['200'])).toEqual(['application/json']);
    expect(statuses(byId('AgentA2aCard'))).toEqual(['200', '404', '500']);
  });

  it('workspaces and the top-up: the workspace key is an http bearer scheme, a bad one a 401', () => {
    expect(doc.components.securitySchemes.WorkspaceKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const id of ['GatewayBalance', 'GatewayLedger', 'GatewayTopUp']) {
      expect(opOf(byId(id)).security, id).toEqual([{ WorkspaceKey: [] }]);
      expect(opOf(byId(id)).responses['401'].headers['WWW-Authenticate'], id).toBeDefined();
    }
    expect(opOf(byId('CreateWorkspace')).security).toBeUndefined();
    expect(statuses(byId('CreateWorkspace'))).toEqual(['201', '429', '500', '503']);
    expect(opOf(byId('CreateWorkspace')).responses['201'].content['application/json'].schema.required).toEqual(['workspaceKey']);
    expect(statuses(byId('GatewayBalance'))).toEqual(['200', '401', '500', '503']);
    expect(statuses(byId('GatewayLedger'))).toEqual(['200', '400', '401', '500', '503']);

    const topUp = opOf(byId('GatewayTopUp'));
    expect(statuses(byId('GatewayTopUp'))).toEqual(expect.arrayContaining(['200', '400', '401', '402', '500', '503']));
    expect(params(byId('GatewayTopUp')).find((p) => p.name === 'tier')).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', enum: [1, 5, 20], default: 1 } });
    expect(params(byId('GatewayTopUp')).find((p) => p.name === 'PAYMENT-SIGNATURE')).toMatchObject({ in: 'header' });
    expect(params(byId('GatewayTopUp')).find((p) => p.name === 'X-PAYMENT')).toMatchObject({ in: 'header', deprecated: true });
    expect(topUp.responses['200'].content['application/json'].schema.required).toEqual(['creditsAdded', 'transaction', 'payer']);
    expect(topUp.responses['402'].headers['PAYMENT-REQUIRED']).toBeDefined();
    expect(topUp.responses['402'].content['application/json']).toBeDefined();
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
  it('MCP: optional bearer, 200 / 202, 401 for a bad key, 400 / 403 / 429 / 500 errors; its GET answers 405', () => {
    const post = byId('AgentsMcp');
    const op = opOf(post);
    expect(op.operationId).toBe('postAgentsMcp');
    expect(op.security).toEqual([{}, { WorkspaceKey: [] }]);
    expect(statuses(post)).toEqual(expect.arrayContaining(['200', '202', '400', '401', '403', '429', '500']));
    expect(op.responses['401'].content['application/json'].schema).toEqual({ $ref: ERROR_REF });
    for (const status of ['429', '500']) expect(op.responses[status].content['application/json'].schema, status).toEqual({ $ref: ERROR_REF });
    // The transport's own refusals (unreadable JSON-RPC, foreign Origin) are JSON-RPC error objects.
    for (const status of ['400', '403']) expect(op.responses[status].content['application/json'].schema.anyOf, status).toContainEqual({ $ref: ERROR_REF });
    expect(op.responses['202'].content).toBeUndefined();
    const get = opOf(byId('AgentsMcpGet'));
    expect(get.operationId).toBe('getAgentsMcp');
    expect(get.responses['405'].headers.Allow).toBeDefined();
  });
});

describe('Agent studio: the OpenAPI document against the A2A operations handler', () => {
  const doc = agentsOpenApi(BASE) as Record<string, any>;
  const slug = PUBLISHED[0].slug;
  const concrete = (route: RouteDef, agent = slug) => route.path.replace('{agent}', agent).replace('{taskId}', 'task-1').replace('{configId}', 'config-1');
  const invoke = async (route: RouteDef, headers: Record<string, string>, agent?: string): Promise<HttpResult> => {
    const { handler } = (await import('../../../lambdas/http/agents/a2a-operations.js')) as { handler: (e: HttpEvent, c: typeof lambdaContext) => Promise<HttpResult> };
    return handler(httpEvent({ method: route.method, path: concrete(route, agent), headers: { 'content-type': A2A_CONTENT_TYPE, ...headers }, body: route.method === 'POST' ? '{}' : undefined }), lambdaContext);
  };
  const OPERATIONS = ROUTES.filter((r) => r.entry === 'lambdas/http/agents/a2a-operations.ts');

  for (const route of OPERATIONS) {
    it(`${route.method} ${route.path}: each answer is declared, in application/a2a+json`, async () => {
      const responses = doc.paths[route.path][route.method.toLowerCase()].responses;
      const answers = [await invoke(route, { 'a2a-version': '1.0' }), await invoke(route, { 'a2a-version': '0.3' })];
      if (route.path.includes('{agent}')) answers.push(await invoke(route, { 'a2a-version': '1.0' }, 'no-such-agent'));
      for (const answer of answers) {
        expect(Object.keys(responses), `${route.id} answered ${answer.statusCode}`).toContain(String(answer.statusCode));
        expect(answer.headers?.['Content-Type']).toBe(A2A_CONTENT_TYPE);
      }
    });
  }
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
