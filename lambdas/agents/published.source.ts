/**
 * The source of lambdas/agents/published.generated.ts: each engine family's published JSON Schemas (from its zod
 * schemas, as the run route validates with them) and its example result (its engine run on the example input).
 * bin/generate-schemas.ts writes the file from this and test/unit/agents/published.test.ts compares the two; no
 * function imports this module (it loads zod and every engine).
 */
import * as z from '../shared/zod.js';
import type { AgentFamily } from './listing.js';
import type { PublishedFamily } from './published.js';
import { AGENTS, agentExample } from './registry.js';
import { runRequestSchema } from './offers.js';

export const GENERATED_PUBLISHED_PATH = 'lambdas/agents/published.generated.ts';

/** A zod schema as published: JSON Schema draft 2020-12 without the `$schema` member. */
export function jsonSchemaFromZod(schema: z.ZodMiniType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** What every family publishes, computed now from the zod schemas and the engines (registry order). */
export function publishedFromSource(): Record<AgentFamily, PublishedFamily> {
  const families: Partial<Record<AgentFamily, PublishedFamily>> = {};
  for (const agent of AGENTS) {
    // The registry gives every agent of a family the same schemas and engine: the first one speaks for it.
    families[agent.family] ??= {
      engine: agent.engine.id,
      inputSchema: jsonSchemaFromZod(agent.inputSchema, 'input'),
      resultSchema: jsonSchemaFromZod(agent.resultSchema, 'output'),
      runRequestSchema: jsonSchemaFromZod(runRequestSchema(agent), 'input'),
      exampleResult: agentExample(agent).result,
    };
  }
  return families as Record<AgentFamily, PublishedFamily>;
}
