/**
 * THE agent registry: every agent of the studio, as lambdas/products/catalog.ts is for products. The catalog, the
 * services feed, the x402 index, every card, the OpenAPI document, the run routes' offers (and, next, the MCP
 * tools and A2A skills) are generated from these entries; nothing else spells a price, a schema or an example.
 *
 * An entry is its listing (lambdas/agents/listing.ts: names, prices, deployment, tags, written there once) with its
 * family's zod schemas and engine added here. Only the run path (and the build that generates the published JSON
 * Schemas and examples, lambdas/agents/published.source.ts) loads this module: the documents read the listing and
 * the generated file, so their function carries neither zod nor the engines.
 */
import type * as z from '../shared/zod.js';
import type { AgentEngine } from './engines/port.js';
import * as bankRec from './engines/bank-rec/schema.js';
import * as poMatch from './engines/po-match/schema.js';
import * as expense from './engines/expense-policy/schema.js';
import * as vendorRisk from './engines/vendor-risk/schema.js';
import * as exportTx from './engines/export-to-transactions/schema.js';
import { bankRecEngine } from './engines/bank-rec/engine.js';
import { poMatchEngine } from './engines/po-match/engine.js';
import { expensePolicyEngine } from './engines/expense-policy/engine.js';
import { vendorRiskEngine } from './engines/vendor-risk/engine.js';
import { exportToTransactionsEngine } from './engines/export-to-transactions/engine.js';
import { AGENT_EXAMPLES } from './examples.js';
import { AGENT_LISTINGS, findIn, publishedIn, type AgentFamily, type AgentListing } from './listing.js';

export { isToolEligible, type AgentDeployment, type AgentFamily, type AgentKind, type AgentListing } from './listing.js';

export interface AgentDefinition extends AgentListing {
  inputSchema: z.ZodMiniType;
  resultSchema: z.ZodMiniType;
  engine: AgentEngine<never, unknown>;
}

type Runtime = Pick<AgentDefinition, 'inputSchema' | 'resultSchema' | 'engine'>;

/** What runs each family: its zod schemas (the run route validates with them) and its engine. */
const FAMILIES: Record<AgentFamily, Runtime> = {
  'vendor-risk': { inputSchema: vendorRisk.inputSchema, resultSchema: vendorRisk.resultSchema, engine: vendorRiskEngine as AgentEngine<never, unknown> },
  'bank-rec': { inputSchema: bankRec.inputSchema, resultSchema: bankRec.resultSchema, engine: bankRecEngine as AgentEngine<never, unknown> },
  'expense-policy': { inputSchema: expense.inputSchema, resultSchema: expense.resultSchema, engine: expensePolicyEngine as AgentEngine<never, unknown> },
  'po-match': { inputSchema: poMatch.inputSchema, resultSchema: poMatch.resultSchema, engine: poMatchEngine as AgentEngine<never, unknown> },
  'export-to-transactions': {
    inputSchema: exportTx.inputSchema,
    resultSchema: exportTx.resultSchema,
    engine: exportToTransactionsEngine as AgentEngine<never, unknown>,
  },
};

export const AGENTS: readonly AgentDefinition[] = AGENT_LISTINGS.map((listing) => ({ ...listing, ...FAMILIES[listing.family] }));

/** Agents that are published (have a Live deployment), in registry order. */
export function publishedAgents(): AgentDefinition[] {
  return publishedIn(AGENTS);
}

/** The published agent a path names, by slug or legacy id; undefined when unknown or not published. */
export function findAgent(idOrSlug: string): AgentDefinition | undefined {
  return findIn(AGENTS, idOrSlug);
}

/** Whether a priced live run of the agent needs AP2 mandates (its registry setting; absent = optional). */
export function ap2ModeOf(agent: AgentListing): 'optional' | 'required' {
  return agent.ap2 ?? 'optional';
}

type Example = { input: Record<string, string> };

/**
 * The example of an agent: an input and the result its engine gives for it, run now (the dry run's preview). The
 * documents show the same example from the generated file (lambdas/agents/published.ts); a test holds them equal.
 */
export function agentExample(agent: AgentDefinition): { input: Record<string, string>; result: unknown } {
  const example: Example = AGENT_EXAMPLES[exampleKey(agent)];
  return { input: example.input, result: computedExample(agent, example) };
}

const computed = new Map<string, unknown>();
function computedExample(agent: AgentDefinition, example: Example): unknown {
  const key = exampleKey(agent);
  if (!computed.has(key)) computed.set(key, (agent.engine.analyse as (input: unknown) => unknown)(example.input));
  return computed.get(key);
}

function exampleKey(agent: AgentDefinition): AgentFamily {
  return agent.engine.id.split('/')[0] as AgentFamily;
}
