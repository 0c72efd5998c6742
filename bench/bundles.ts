/**
 * Bundle every function the way the stack bundles it (esbuild, ESM, node22, minified, AWS SDK v3 external as the
 * Lambda runtime provides it) and measure its size and cold import time in a fresh Node process.
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTES, WORKFLOW_TASKS, SWEEPER } from '../lambdas/surfaces/routes.js';
import { PROJECT_ROOT } from '../lib/local/runtime.js';
import { bundleAliases, functionBuildOptions } from '../lib/bundling/aliases.js';

export async function bundleReport(): Promise<void> {
  const out = join(PROJECT_ROOT, '.bench', 'bundles');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const entries = [
    ...ROUTES.map((r) => ({ id: r.id, entry: r.entry })),
    ...WORKFLOW_TASKS.map((t) => ({ id: t.id, entry: t.entry })),
    { id: SWEEPER.id, entry: SWEEPER.entry },
  ];
  console.log('\nFunction bundles (esbuild, minified ESM, @aws-sdk/* external); cold import = fresh node process, median of 5');
  console.log('| function | bundle KiB | cold import ms |');
  console.log('|---|---|---|');
  for (const { id, entry } of entries) {
    const outfile = join(out, `${id}.mjs`);
    await build(functionBuildOptions(join(PROJECT_ROOT, entry), outfile, bundleAliases(PROJECT_ROOT)));
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const ms = execFileSync(
        process.execPath,
        ['--input-type=module', '-e', `const t=performance.now(); await import(${JSON.stringify(outfile)}); console.log(performance.now()-t)`],
        { encoding: 'utf8', env: { ...process.env, JOBS_TABLE: 'x', AWS_REGION: 'us-east-1' } },
      );
      times.push(Number(ms.trim()));
    }
    times.sort((a, b) => a - b);
    console.log(`| ${id} | ${(statSync(outfile).size / 1024).toFixed(0)} | ${times[2].toFixed(0)} |`);
  }
}
