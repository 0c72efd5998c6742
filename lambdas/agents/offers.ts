/**
 * An agent as an Offer of the payment core: price, resource, schema and example from the registry, the resource URL
 * from the route table (its fixed route, or the generic run route), so the run route's 402 and every document
 * (x402 index, per-agent terms, cards, services feed, OpenAPI) are built from the same object.
 */
import * as z from '../shared/zod.js';
import type { Offer } from '../payments/core/types.js';
import { MAX_TIMEOUT_SECONDS } from '../payments/types.js';
import { routePath } from '../surfaces/routes.js';
import { agentExample, type AgentDefinition } from './registry.js';
import { usdcNumber } from './money.js';

const runSchemas = new Map<string, z.ZodMiniType>();

/** The run request body of an agent: `{ input, dryRun?, ap2? }`, strict at the top and inside `input`. */
export function runRequestSchema(agent: AgentDefinition): z.ZodMiniType {
  let schema = runSchemas.get(agent.slug);
  if (!schema) {
    schema = z.strictObject({
      input: agent.inputSchema,
      dryRun: z.optional(z.boolean()),
      ap2: z.optional(z.record(z.string(), z.unknown())),
    });
    runSchemas.set(agent.slug, schema);
  }
  return schema;
}

const jsonSchemas = new Map<string, Record<string, unknown>>();
function jsonSchema(key: string, schema: z.ZodMiniType, io: 'input' | 'output'): Record<string, unknown> {
  let found = jsonSchemas.get(key);
  if (!found) {
    found = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
    delete found.$schema;
    jsonSchemas.set(key, found);
  }
  return found;
}

export function runRequestJsonSchema(agent: AgentDefinition): Record<string, unknown> {
  return jsonSchema(`${agent.slug}:run`, runRequestSchema(agent), 'input');
}

export function inputJsonSchema(agent: AgentDefinition): Record<string, unknown> {
  return jsonSchema(`${agent.slug}:input`, agent.inputSchema, 'input');
}

export function resultJsonSchema(agent: AgentDefinition): Record<string, unknown> {
  return jsonSchema(`${agent.slug}:result`, agent.resultSchema, 'output');
}

/** The path a buyer runs an agent at: its fixed route, else the generic route with its slug. */
export function runPath(agent: AgentDefinition): string {
  return agent.route ? routePath(agent.route) : routePath('RunAgent').replace('{agent}', encodeURIComponent(agent.slug));
}

export function agentOffer(agent: AgentDefinition, baseUrl: string): Offer {
  const example = agentExample(agent);
  return {
    id: agent.slug,
    amount: agent.price,
    resource: `${baseUrl}${runPath(agent)}`,
    description: `${agent.name}: ${agent.description}`,
    method: 'POST',
    inputSchema: runRequestJsonSchema(agent),
    outputExample: { runId: 'run_…', status: 'done', totalCostUsdc: usdcNumber(agent.price), outputs: {}, result: example.result, settled: true },
    mimeType: 'application/json',
    timeoutSeconds: MAX_TIMEOUT_SECONDS,
    // Priced live runs are paid with x402 (v2, and v1 during migration); agent-payment tokens are a generation-surface rail.
    accepts: ['x402'],
    legacyV1: true,
    docs: `${baseUrl}${routePath('AgentsOpenApi')}`,
    bazaar: { category: 'agents', tags: agent.tags },
  };
}
