/**
 * An agent as the run path runs it: its listing (lambdas/agents/listing.ts) with its family's zod schemas and
 * engine. This module names no engine: a run function is built from the families it runs, so its bundle carries
 * only their engines. The generic run route and A2A take every family (lambdas/agents/registry.ts); each concrete
 * agent's fixed run route takes its own (lambdas/agents/engines/<family>/family.ts, lambdas/http/agents/run-*.ts).
 */
import type * as z from '../shared/zod.js';
import type { AgentEngine } from './engines/port.js';
import { AGENT_EXAMPLES } from './examples.js';
import { AGENT_LISTINGS, type AgentFamily, type AgentListing } from './listing.js';

export interface AgentDefinition extends AgentListing {
  inputSchema: z.ZodMiniType;
  resultSchema: z.ZodMiniType;
  engine: AgentEngine<never, unknown>;
}

/** What runs each agent of a family: its zod schemas (the run route validates with them) and its engine. */
export type FamilyRuntime = Pick<AgentDefinition, 'inputSchema' | 'resultSchema' | 'engine'>;

/** The listed agents of the given families (published or not), in catalog order, with their family's runtime. */
export function agentsOf(families: Partial<Record<AgentFamily, FamilyRuntime>>): AgentDefinition[] {
  return AGENT_LISTINGS.flatMap((listing) => {
    const runtime = families[listing.family];
    return runtime ? [{ ...listing, ...runtime }] : [];
  });
}

/** Whether a priced live run of the agent needs AP2 mandates (its registry setting; absent = optional). */
export function ap2ModeOf(agent: AgentListing): 'optional' | 'required' {
  return agent.ap2 ?? 'optional';
}

type Example = { input: Record<string, string> };

/**
 * The example of an agent: an input and the result its engine gives for it, run now (the dry run's preview). The
 * documents show the same example from the generated file (publishedExample, lambdas/agents/published.ts); a test
 * holds them equal.
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
