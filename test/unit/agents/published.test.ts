/**
 * What the agent documents publish comes from the run path's source: the generated file the documents read
 * (lambdas/agents/published.generated.ts) must be exactly what the zod schemas and the engines give now, and every
 * agent's published schemas, engine id and example must be the ones its run validates with and computes. On a
 * mismatch, run `npx tsx bin/generate-schemas.ts`. The documents function reaches neither zod nor the engines
 * (issue: every document function ≤ 150 KiB minified).
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { AGENT_PUBLISHED } from '../../../lambdas/agents/published.generated.js';
import { jsonSchemaFromZod, publishedFromSource } from '../../../lambdas/agents/published.source.js';
import { AGENT_LISTINGS } from '../../../lambdas/agents/listing.js';
import { AGENTS, agentExample } from '../../../lambdas/agents/registry.js';
import { agentInputSchema, agentOffer, engineId, publishedExample, resultJsonSchema, runRequestJsonSchema } from '../../../lambdas/agents/published.js';
import { runRequestSchema } from '../../../lambdas/agents/offers.js';
import { bundleAliases, functionBuildOptions } from '../../../lib/bundling/aliases.js';
import { PROJECT_ROOT } from '../../../lib/local/runtime.js';

describe('Agents: the published JSON Schemas and examples are generated from the zod schemas and the engines', () => {
  it('the generated file equals what the source gives now, member order included (run `npx tsx bin/generate-schemas.ts` if not)', () => {
    const source = publishedFromSource();
    expect(AGENT_PUBLISHED).toEqual(source);
    // The documents are served as JSON text: the same members in another order would change their bytes.
    expect(JSON.stringify(AGENT_PUBLISHED)).toBe(JSON.stringify(source));
  });

  it('every agent publishes the schemas its run validates with, its engine’s id and the result a live run gives', () => {
    for (const agent of AGENTS) {
      expect(agentInputSchema(agent), agent.slug).toEqual(jsonSchemaFromZod(agent.inputSchema, 'input'));
      expect(resultJsonSchema(agent), agent.slug).toEqual(jsonSchemaFromZod(agent.resultSchema, 'output'));
      expect(runRequestJsonSchema(agent), agent.slug).toEqual(jsonSchemaFromZod(runRequestSchema(agent), 'input'));
      expect(engineId(agent), agent.slug).toBe(agent.engine.id);
      const live = agent.engine.analyse(publishedExample(agent).input as never);
      expect(JSON.stringify(publishedExample(agent).result), agent.slug).toBe(JSON.stringify(live));
      expect(publishedExample(agent), agent.slug).toEqual(agentExample(agent));
      expect(agentOffer(agent, 'https://a.example').outputExample).toMatchObject({ result: agentExample(agent).result });
    }
  });

  it('the registry is the listing with each family’s zod schemas and engine, nothing else', () => {
    expect(AGENTS.map(({ inputSchema: _i, resultSchema: _r, engine: _e, ...listing }) => listing)).toEqual(AGENT_LISTINGS);
  });
});

describe('Agents: the documents function carries neither zod nor the engines', () => {
  it('bundles lambdas/http/agents/documents.ts without them, within 150 KiB', async () => {
    const options = functionBuildOptions(join(PROJECT_ROOT, 'lambdas/http/agents/documents.ts'), join(PROJECT_ROOT, 'agents-documents.mjs'), bundleAliases(PROJECT_ROOT));
    const result = await build({ ...options, write: false, metafile: true });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => /node_modules\/zod\/|lambdas\/agents\/(engines\/|registry\.ts|offers\.ts)|lambdas\/shared\/zod\.ts/.test(path))).toEqual([]);
    const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
    expect(bytes).toBeLessThanOrEqual(150 * 1024);
  });
});
