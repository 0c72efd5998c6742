/**
 * GET /openapi.json on the agent studio: OpenAPI 3.1, info.version 0.3.0, one operation per API route (one with an
 * operationId) of the agent surface in the route table; run operations carry each agent's run request and result
 * schemas (the generated ones: lambdas/agents/published.ts). Concrete run routes are `runPublishedAgent_<slug with _>`.
 */
import { surfaceRoutes, AGENTS as AGENTS_SURFACE } from '../surfaces/surface.js';
import type { RouteDef } from '../surfaces/routes.js';
import { AGENT_LISTINGS, publishedAgents, type AgentListing } from './listing.js';
import { runRequestJsonSchema, resultJsonSchema } from './published.js';
import { usdcNumber } from './money.js';

const ERROR = { $ref: '#/components/schemas/Error' };

function errors(...codes: number[]) {
  return Object.fromEntries(codes.map((code) => [String(code), { description: ERROR_TEXT[code], content: { 'application/json': { schema: ERROR } } }]));
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request: the body does not validate, or the agent could not read an input member (`field`)',
  404: 'Unknown or unpublished agent',
  409: 'A request with this X-Idempotency-Key is still in flight',
  429: 'Unpaid calls over the probe rate limit (Retry-After)',
  500: 'Internal error; nothing was charged',
  503: 'A dependency is unavailable, or a payment is not yet confirmed (settlement_pending); nothing else was charged',
};

function runResultSchema(agent?: AgentListing) {
  return {
    type: 'object',
    required: ['runId', 'status', 'totalCostUsdc', 'outputs', 'result', 'settled'],
    properties: {
      runId: { type: 'string' },
      status: { type: 'string', enum: ['done'] },
      totalCostUsdc: { type: 'number' },
      outputs: { type: 'object' },
      result: agent ? resultJsonSchema(agent) : { type: 'object' },
      settled: { type: 'boolean' },
      dryRun: { type: 'boolean' },
    },
  };
}

function runOperation(route: RouteDef, agent?: AgentListing) {
  return {
    operationId: route.operationId,
    summary: agent ? `Run ${agent.name}` : 'Run a published agent by slug or legacy id',
    description: agent
      ? `${agent.description} Price: ${agent.price === 0n ? 'free' : `${usdcNumber(agent.price)} USDC per successful paid call (x402)`}.`
      : 'Runs any published agent. Relay-backed services answer the resource-run envelope.',
    ...(agent ? {} : { parameters: [agentParameter()] }),
    requestBody: {
      required: !!agent,
      content: { 'application/json': { schema: agent ? runRequestJsonSchema(agent) : { type: 'object', properties: { input: { type: 'object' }, dryRun: { type: 'boolean' }, ap2: { type: 'object' } } } } },
    },
    responses: {
      '200': { description: 'The run result (settled: true after x402 settlement)', content: { 'application/json': { schema: runResultSchema(agent) } } },
      '402': { description: 'Payment required: x402 v2 terms in the body and base64 in PAYMENT-REQUIRED', content: { 'application/json': { schema: { type: 'object' } } } },
      ...errors(400, 404, 409, 429, 500, 503),
    },
  };
}

function agentParameter() {
  return { name: 'agent', in: 'path', required: true, description: 'Agent slug or legacy id', schema: { type: 'string', minLength: 1 } };
}

function getOperation(route: RouteDef) {
  return {
    operationId: route.operationId,
    summary: route.summary ?? route.id,
    ...(route.path.includes('{agent}') ? { parameters: [agentParameter()] } : {}),
    responses: {
      '200': { description: route.summary ?? 'The document', content: { 'application/json': { schema: { type: 'object' } } } },
      ...errors(...(route.path.includes('{agent}') ? [404, 500] : [500])),
    },
  };
}

export function agentsOpenApi(base: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  // API operations only: the browser playground page has no operationId.
  for (const route of surfaceRoutes(AGENTS_SURFACE).filter((r) => r.operationId !== undefined)) {
    const agent = AGENT_LISTINGS.find((a) => a.route === route.id && a.deployment !== null);
    const operation = route.method === 'POST' ? runOperation(route, agent) : getOperation(route);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: AGENTS_SURFACE.identity.name,
      version: AGENTS_SURFACE.identity.version,
      description: `${AGENTS_SURFACE.identity.summary} Published agents: ${publishedAgents().map((a) => a.slug).join(', ')}.`,
    },
    servers: [{ url: base }],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['detail', 'code'],
          properties: { detail: { type: 'string' }, code: { type: 'string' }, field: { type: 'string' }, issues: { type: 'array', items: { type: 'object' } }, runId: { type: 'string' } },
        },
      },
    },
  };
}
