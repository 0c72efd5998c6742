/**
 * The bundle goals (lib/bundling/goals.ts): each concrete agent's fixed run route has its own entry, built from its
 * agent's family alone, so its function carries one engine; the generic run route's carries them all. Each entry is
 * bundled as CDK bundles it (lib/bundling/aliases.ts) and its bundle's inputs are read from esbuild's metafile.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleAliases, functionBuildOptions } from '../../../lib/bundling/aliases.js';
import { PROJECT_ROOT } from '../../../lib/local/runtime.js';
import { AGENTS } from '../../../lambdas/agents/registry.js';
import { ROUTES } from '../../../lambdas/surfaces/routes.js';

const FAMILIES = [...new Set(AGENTS.map((agent) => agent.family))];

/** The engine folders (lambdas/agents/engines/<family>) whose code is in the entry's bundle. */
async function enginesIn(entry: string): Promise<string[]> {
  const options = functionBuildOptions(join(PROJECT_ROOT, entry), join(PROJECT_ROOT, 'cdk.out', 'run-entries-test.mjs'), bundleAliases(PROJECT_ROOT));
  const result = await build({ ...options, write: false, metafile: true });
  const inputs = Object.values(result.metafile.outputs)[0].inputs;
  const families = Object.entries(inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => /lambdas\/agents\/engines\/([^/]+)\//.exec(file)?.[1])
    .filter((family): family is string => family !== undefined && FAMILIES.includes(family as never));
  return [...new Set(families)].sort();
}

describe('Agent studio: each fixed run route carries only its agent’s engine', () => {
  const routeOf = (id: string) => ROUTES.find((route) => route.id === id)!;

  for (const agent of AGENTS.filter((a) => a.route)) {
    it(`${agent.route}: ${agent.family} alone`, async () => {
      expect(await enginesIn(routeOf(agent.route!).entry)).toEqual([agent.family]);
    });
  }

  it('the generic run route carries every family', async () => {
    expect(await enginesIn(routeOf('RunAgent').entry)).toEqual([...FAMILIES].sort());
  });
});
