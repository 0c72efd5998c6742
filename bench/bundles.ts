/**
 * Bundle every function the way the stack bundles it (esbuild, ESM, node22, minified, AWS SDK v3 and Powertools
 * external as the Lambda runtime and AWS's Powertools layer provide them) and measure its size and cold import time
 * in a fresh Node process (which imports Powertools from node_modules, as a function imports it from the layer), beside the goals of
 * lib/bundling/goals.ts (a document or poll function — a GET route, but for a protocol endpoint's GET — at most 150 KiB, any
 * other at most 400 KiB; a paid function's cold import at or below the reference's). The reference is
 * bench/reference-entry.ts (Express + `@x402/express`), bundled and imported the same way.
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AP2_ENV } from '../lambdas/payments/ap2/merchant.js';
import { PROJECT_ROOT } from '../lib/local/runtime.js';
import { bundleAliases, functionBuildOptions } from '../lib/bundling/aliases.js';
import { EVERY_ENGINE_KIB, functionBundles, OTHER_KIB, SMALL_KIB } from '../lib/bundling/goals.js';
import { ENV, WEBHOOK_MACHINE_ENV } from '../lambdas/shared/config.js';

const RUNS = 7;
/** What a deployed function's configuration looks like (names, addresses, ARNs): each bundle checks its own at import. */
const ARN = 'arn:aws:states:us-east-1:123456789012:stateMachine';
const DEPLOYED_ENV: Record<string, string> = {
  AWS_REGION: 'us-east-1',
  [ENV.jobsTable]: 'jobs',
  [ENV.paymentsTable]: 'payments',
  [ENV.idempotencyTable]: 'idempotency',
  [ENV.rateLimitTable]: 'rate-limits',
  [ENV.runsTable]: 'runs',
  [ENV.settlerLeasesTable]: 'settler-leases',
  [ENV.workspacesTable]: 'workspaces',
  [ENV.creditLedgerTable]: 'credit-ledger',
  [AP2_ENV.keySecretId]: 'paycall/ap2-merchant-key',
  [AP2_ENV.trustedIssuers]: '{"keys":[]}',
  [ENV.usdcAddress]: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  [ENV.payTo]: '0x2222222222222222222222222222222222222222',
  [ENV.rpcUrl]: 'https://mainnet.base.org',
  [ENV.chainId]: '8453',
  [ENV.settlerKeySecretId]: 'paycall/settler-keys',
  [ENV.assetsBucket]: 'assets',
  [ENV.assetsPublicUrl]: 'https://assets.example.com',
  [ENV.publicBaseUrl]: 'https://api.example.com',
  [ENV.agentsPublicBaseUrl]: 'https://agents.example.com',
  [ENV.musicStateMachineArn]: `${ARN}:music`,
  [ENV.videoStateMachineArn]: `${ARN}:video`,
  [ENV.imageStateMachineArn]: `${ARN}:image`,
  // Webhooks (docs/decisions/0018): the functions that end jobs (and the cancel route) start the webhook machine; checked at cold start.
  [WEBHOOK_MACHINE_ENV]: `${ARN}:webhooks`,
};

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
    `Goals (lib/bundling/goals.ts): documents and polls (GET routes, but for a protocol endpoint's GET) ≤ ${SMALL_KIB} KiB, every other function ≤ ${OTHER_KIB} KiB but the generic run and A2A send (every agent engine: ≤ ${EVERY_ENGINE_KIB} KiB) and the MCP servers (no goal); a paid function's cold import ≤ the reference's.`,
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
  for (const { id, entry, goal, paid } of entries) {
    const outfile = join(out, `${id}.mjs`);
    await build(functionBuildOptions(join(PROJECT_ROOT, entry), outfile, bundleAliases(PROJECT_ROOT)));
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
