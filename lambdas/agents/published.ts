/**
 * What the documents publish of an agent beyond its listing: the JSON Schemas of its input, result and run request,
 * its example (an input and the result its engine gives for it) and its engine id, all read from
 * lambdas/agents/published.generated.ts, and the agent as an Offer of the payment core. The generated file is
 * written at build time from the zod schemas and the engines (`npx tsx bin/generate-schemas.ts`;
 * test/unit/agents/published.test.ts fails when it is stale), so the documents function carries the JSON and not
 * the schema library nor the engines' code. The run path still validates with the zod schemas (offers.ts).
 *
 * An Offer carries price, resource, schema and example; the resource URL comes from the run paths the route table is built
 * from (lambdas/surfaces/paths.ts: its fixed route, or the generic run route), so the run route's 402 and every document (x402 index, per-agent terms,
 * cards, services feed, OpenAPI) are built from the same object.
 */
import type { Offer } from '../payments/core/types.js';
import { MAX_TIMEOUT_SECONDS } from '../payments/types.js';
import { AGENTS_OPENAPI_PATH, RUN_PATHS } from '../surfaces/paths.js';
import { AGENT_STUDIO } from '../surfaces/surface.js';
import { AGENT_EXAMPLES } from './examples.js';
import type { AgentListing } from './listing.js';
import { AGENT_PUBLISHED } from './published.generated.js';
import { AGENT_BAZAAR } from './bazaar.generated.js';
import { usdcNumber } from './money.js';

/** One engine family as published: what every agent of the family shows. */
export interface PublishedFamily {
  /** The engine and its rule version, e.g. `bank-rec/rules@1` (run records name it too). */
  engine: string;
  inputSchema: Record<string, unknown>;
  resultSchema: Record<string, unknown>;
  /** The run request body, `{ input, dryRun?, ap2? }`, strict at the top and inside `input`. */
  runRequestSchema: Record<string, unknown>;
  /** The result the engine gives for the family's example input (examples.ts). */
  exampleResult: unknown;
}

export function runRequestJsonSchema(agent: AgentListing): Record<string, unknown> {
  return AGENT_PUBLISHED[agent.family].runRequestSchema;
}

/** The JSON Schema of an agent's `input` (a product's request schema is productInputSchema, lambdas/jobs/offers.ts). */
export function agentInputSchema(agent: AgentListing): Record<string, unknown> {
  return AGENT_PUBLISHED[agent.family].inputSchema;
}

export function resultJsonSchema(agent: AgentListing): Record<string, unknown> {
  return AGENT_PUBLISHED[agent.family].resultSchema;
}

/** The id of the engine that runs an agent, e.g. `bank-rec/rules@1`. */
export function engineId(agent: AgentListing): string {
  return AGENT_PUBLISHED[agent.family].engine;
}

/**
 * The published example of an agent: an input and the result its engine gives for it, read from the generated file
 * (computed at build time, never by hand). The run path's agentExample (lambdas/agents/definition.ts) runs the
 * engine now; a test holds the two equal.
 */
export function publishedExample(agent: AgentListing): { input: Record<string, string>; result: unknown } {
  return { input: AGENT_EXAMPLES[agent.family].input, result: AGENT_PUBLISHED[agent.family].exampleResult };
}

/** The path a buyer runs an agent at: its fixed route, else the generic route with its slug. */
export function runPath(agent: AgentListing): string {
  return agent.route ? RUN_PATHS[agent.route] : RUN_PATHS.RunAgent.replace('{agent}', encodeURIComponent(agent.slug));
}

export function agentOffer(agent: AgentListing, baseUrl: string): Offer {
  const example = publishedExample(agent);
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
    docs: `${baseUrl}${AGENTS_OPENAPI_PATH}`,
    // A free agent's run is never challenged, so only priced agents have a declaration (./bazaar.source.ts).
    serviceName: AGENT_STUDIO.identity.name,
    bazaar: { category: 'agents', tags: agent.tags, ...(AGENT_BAZAAR[agent.slug] ? { declaration: AGENT_BAZAAR[agent.slug] } : {}) },
  };
}
