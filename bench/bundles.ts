/**
 * Bundle every function the way the stack bundles it (esbuild, ESM, node22, minified, AWS SDK v3 and Powertools
 * external as the Lambda runtime and AWS's Powertools layer provide them) and measure its size and cold import time
 * in a fresh Node process (which imports Powertools from node_modules, as a function imports it from the layer), beside the goals of
 * lib/bundling/goals.ts (a document or poll function — a GET route, but for a protocol endpoint's GET — at most 150 KiB, any
 * other route and the sign-in authorizer at most 400 KiB, a task, render function or the sweeper at most 1 MiB; a paid
 * function's cold import at or below the reference's). The reference is
 * bench/reference-entry.ts (Express + `@x402/express`), bundled and imported the same way.
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../lib/local/runtime.js';
import { bundleAliases, functionBuildOptions } from '../lib/bundling/aliases.js';
import { DEPLOYED_CONFIG } from '../lib/bundling/deployed-env.js';
import { BACKGROUND_KIB, EVERY_ENGINE_KIB, functionBundles, OTHER_KIB, SMALL_KIB } from '../lib/bundling/goals.js';

const RUNS = 7;
/** What a deployed function's environment looks like (lib/bundling/deployed-env.ts): each bundle checks its own at import. */
const DEPLOYED_ENV: Record<string, string> = { AWS_REGION: 'us-east-1', ...DEPLOYED_CONFIG };

/**
 * Median import time of `outfile` in a fresh Node process. With `preload`, those packages are imported first and not
 * timed: what is left is the bundle's own code (the AWS SDK clients a function imports are the Lambda runtime's).
 */
function coldImportMs(outfile: string, preload: string[] = []): number {
  const times: number[] = [];
  const before = preload.map((p) => `await import(${JSON.stringify(p)});`).join('');
  for (let i = 0; i < RUNS; i++) {
    const ms = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `${before}const t=performance.now(); await import(${JSON.stringify(outfile)}); console.log(performance.now()-t)`],
      // stderr captured: the reference's middleware logs that it cannot reach its facilitator (nothing is reachable).
      { encoding: 'utf8', stdio: 'pipe', env: { PATH: process.env.PATH, ...DEPLOYED_ENV } },
    );
    times.push(Number(ms.trim()));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)];
}

export async function bundleReport(): Promise<void> {
  const out = join(PROJECT_ROOT, '.bench', 'bundles');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const entries = functionBundles();

  const referenceFile = join(out, 'reference.mjs');
  await build(functionBuildOptions(join(PROJECT_ROOT, 'bench', 'reference-entry.ts'), referenceFile, {}));
  const referenceKiB = statSync(referenceFile).size / 1024;

  console.log(`\nFunction bundles (esbuild, minified ESM, @aws-sdk/* and @aws-lambda-powertools/* external); cold import = fresh node process importing them from node_modules, median of ${RUNS}`);
  console.log(
    `Goals (lib/bundling/goals.ts): documents and polls (GET routes, but for a protocol endpoint's GET) ≤ ${SMALL_KIB} KiB, every other route and the sign-in authorizer ≤ ${OTHER_KIB} KiB but the generic run and A2A send (every agent engine: ≤ ${EVERY_ENGINE_KIB} KiB) and the MCP servers (no goal); a paid function's cold import ≤ the reference's. ` +
      `The tasks, render functions and sweeper (no buyer waits on them) bundle their vendor SDKs whole, ≤ ${BACKGROUND_KIB} KiB.`,
  );
  console.log(
    `Reference (bench/reference-entry.ts: Express + @x402/express + x402ResourceServer + remote facilitator), bundled the same way: ${referenceKiB.toFixed(0)} KiB; ` +
      'its cold import is measured again right before each function, so each ratio compares imports taken moments apart.',
  );
  console.log(
    '| function | bundle KiB | goal KiB | size | cold import ms | reference ms | cold import / reference | without the AWS SDK clients ms (preloaded) | that / reference |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  const misses: string[] = [];
  for (const { id, entry, goal, paid, path } of entries) {
    const outfile = join(out, `${id}.mjs`);
    await build(functionBuildOptions(join(PROJECT_ROOT, entry), outfile, bundleAliases(PROJECT_ROOT, path)));
    const kib = statSync(outfile).size / 1024;
    const referenceMs = coldImportMs(referenceFile);
    const ms = coldImportMs(outfile);
    const sdk = [...new Set([...readFileSync(outfile, 'utf8').matchAll(/from\s*"(@aws-sdk\/[a-z0-9-]+)"/g)].map((m) => m[1]))];
    const own = coldImportMs(outfile, sdk);
    const within = goal === null || kib <= goal;
    if (!within) misses.push(`${id} +${(kib - (goal ?? 0)).toFixed(0)} KiB`);
    const ratio = `${(ms / referenceMs).toFixed(2)}×${paid ? (ms <= referenceMs ? ' (paid: met)' : ' (paid: over)') : ''}`;
    console.log(
      `| ${id} | ${kib.toFixed(0)} | ${goal ?? '–'} | ${goal === null ? 'no goal' : within ? 'met' : 'over'} | ${ms.toFixed(0)} | ${referenceMs.toFixed(0)} | ${ratio} | ${own.toFixed(0)} | ${(own / referenceMs).toFixed(2)}× |`,
    );
  }
  console.log(misses.length ? `Over their size goal: ${misses.join(', ')}` : 'Every function is within its size goal.');
}
