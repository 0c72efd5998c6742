/**
 * The run path's side of an agent's offer: the zod schema the run route validates a request body with, beside the
 * Offer itself and the published JSON Schemas (lambdas/agents/published.ts, re-exported here for the run route).
 * The documents import published.ts directly: this module loads zod.
 */
import * as z from '../shared/zod.js';
import type { AgentDefinition } from './registry.js';

export { agentInputSchema, agentOffer, resultJsonSchema, runPath, runRequestJsonSchema } from './published.js';

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
