/**
 * Every function the stack deploys bundles as CDK bundles it (esbuild with lib/bundling/aliases.ts; nothing written),
 * and within its size goal (lib/bundling/goals.ts: documents and polls 150 KiB, any other 400 KiB, no goal for the
 * MCP servers). A bundle that does not build is a stack that does not deploy: the infra tests synthesise without
 * bundling, so this is where a missing stub export or an unresolved import shows (the sign-in code, docs/decisions/0020, once broke
 * every bundle that imported it, unnoticed).
 *
 * What a bundle leaves out must be there when it runs: its bare imports that esbuild left external are the AWS SDK
 * (the runtime's) and the Powertools packages the layer holds (lib/bundling/externals.ts), nothing else; but for a
 * library's guarded dynamic import of an optional package that is not installed here either (the SIWE library's
 * `await import('ethers')` in a try), which then fails on Lambda as it fails in the tests.
 */
import { existsSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleAliases, functionBuildOptions } from '../../../lib/bundling/aliases.js';
import { POWERTOOLS_PACKAGES } from '../../../lib/bundling/externals.js';
import { functionBundles } from '../../../lib/bundling/goals.js';
import { PROJECT_ROOT } from '../../../lib/local/runtime.js';

/** A package the runtime or the Powertools layer provides (a subpath of one, as `@aws-lambda-powertools/logger/middleware`). */
const PROVIDED = new RegExp(`^(@aws-sdk/[a-z0-9-]+|@aws-lambda-powertools/(${POWERTOOLS_PACKAGES.join('|')}))(/|$)`);

const aliases = bundleAliases(PROJECT_ROOT);

describe('Every function bundles as CDK bundles it, within its size goal', () => {
  it.each(functionBundles().map((f) => [f.id, f] as const))('%s', async (_id, { id, entry, goal }) => {
    const options = functionBuildOptions(join(PROJECT_ROOT, entry), join(PROJECT_ROOT, `${id}.mjs`), aliases);
    const result = await build({ ...options, write: false, metafile: true });
    const outputs = Object.values(result.metafile.outputs);
    const absentOptional = (i: { path: string; kind: string }) => i.kind === 'dynamic-import' && !existsSync(join(PROJECT_ROOT, 'node_modules', i.path));
    const external = outputs.flatMap((output) => output.imports.filter((i) => i.external && !isBuiltin(i.path) && !absentOptional(i)).map((i) => i.path));
    expect(external.filter((path) => !PROVIDED.test(path)), `${id} imports what nothing provides on Lambda`).toEqual([]);
    const kib = outputs.reduce((sum, output) => sum + output.bytes, 0) / 1024;
    if (goal !== null) expect(kib, `${id}: ${kib.toFixed(1)} KiB`).toBeLessThanOrEqual(goal);
  });
});
