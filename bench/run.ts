/**
 * `npm run bench`: per-request handler time (median, p99, warm) and DynamoDB round trips for the 402 path, the
 * paid path and the poll path, measured in-process against the embedded runtime's real parts; the same for the agent
 * studio's runs (bench/agents.ts: 402, dry, paid and free runs, and the engine alone); then bundle size
 * and cold import time of every function, bundled the way CDK bundles them; then our paid path over HTTP side by side
 * with the official x402 reference at automine, 2000 ms and 200 ms blocks (bench/block-time.ts): latency and
 * throughput at 1 to 64 buyers, CPU per paid request by part, ours/reference ratios and the paid path's goals against the reference, and the
 * on-chain settlement count of each. Prints figures; asserts nothing.
 */
import { cpus } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { signedOffers, withReceipt } from '../lambdas/payments/offer-receipt.js';
import { PROJECT_ROOT } from '../lib/local/runtime.js';
import { countRoundTrips } from '../lambdas/store/dynamo.js';
import { bundleReport } from './bundles.js';
import { benchRuntime, compareWithReferenceReported } from './reference.js';
import { quiesce } from './load.js';
import { eventMaker, paymentSigner } from './events.js';
import { agentStudioBench } from './agents.js';
import { benchProviders } from './providers.js';

type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number; headers: Record<string, string>; body?: string }>;

const N = Number(process.env.BENCH_N ?? 60);
const { runtime, close } = await benchRuntime();
const host = new URL(runtime.info.baseUrl).host;

const load = async (entry: string) => (await import(pathToFileURL(join(PROJECT_ROOT, entry)).href)).handler as Handler;
const image = await load('lambdas/http/agent-image.ts');
const poll = await load('lambdas/http/get-image.ts');
const context = { getRemainingTimeInMillis: () => 30_000, awsRequestId: 'bench' };

const makeEvent = eventMaker(host, 9);
function event(method: 'GET' | 'POST', path: string, body?: string, headers: Record<string, string> = {}, pathParameters?: Record<string, string>) {
  return makeEvent({ method, path, body, headers, pathParameters });
}

interface Sample {
  ms: number;
  trips: number;
}
async function measure(name: string, make: () => Promise<unknown> | unknown, run: (e: unknown) => Promise<{ statusCode: number }>, expect: number, warmup = 5) {
  const samples: Sample[] = [];
  for (let i = 0; i < warmup + N; i++) {
    const e = await make();
    const t = performance.now();
    const { result: r, roundTrips } = await countRoundTrips(() => run(e));
    const ms = performance.now() - t;
    if (r.statusCode !== expect) throw new Error(`${name}: expected ${expect}, got ${r.statusCode}`);
    if (i >= warmup) samples.push({ ms, trips: roundTrips });
  }
  return summarize(name, samples);
}

function summarize(name: string, samples: Sample[]) {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const trips = samples.map((s) => s.trips).sort((a, b) => a - b);
  return { name, n: samples.length, median: pct(50), p99: pct(99), trips: trips[Math.floor(trips.length / 2)], tripsMax: trips[trips.length - 1] };
}

/** Two request kinds measured in alternating rounds (A then B, then B then A, …), so load and warm-up fall on both alike. */
async function measureInterleaved(
  a: [string, () => Promise<unknown>],
  b: [string, () => Promise<unknown>],
  run: (e: unknown) => Promise<{ statusCode: number }>,
  expect: number,
  warmup = 5,
) {
  const samples: [Sample[], Sample[]] = [[], []];
  const kinds = [a, b] as const;
  for (let i = 0; i < warmup + N; i++) {
    for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const e = await kinds[k][1]();
      const t = performance.now();
      const { result: r, roundTrips } = await countRoundTrips(() => run(e));
      const ms = performance.now() - t;
      if (r.statusCode !== expect) throw new Error(`${kinds[k][0]}: expected ${expect}, got ${r.statusCode}`);
      if (i >= warmup) samples[k].push({ ms, trips: roundTrips });
    }
  }
  return samples.map((list, k) => summarize(kinds[k][0], list));
}

const body = JSON.stringify({ prompt: 'benchmark lighthouse' });
const probe = await image(event('POST', '/agent/image', body), context);
const challenge = decodePaymentRequiredHeader(probe.headers['PAYMENT-REQUIRED']);
const buyers = runtime.info.buyers;
const sign = paymentSigner(buyers, challenge);
const paidEvent = async () => event('POST', '/agent/image', body, { 'payment-signature': await sign() });
// Enough USDC for every paid request of the run.
for (const b of buyers) await runtime.chain.fund(b.address as `0x${string}`, 1_000_000_000n);

const results = [];
results.push(await measure('402 path (POST /agent/image, no payment)', () => event('POST', '/agent/image', body), (e) => image(e, context), 402));
results.push(await measure('paid path (POST /agent/image, x402, self-settled)', paidEvent, (e) => image(e, context), 202));
// Webhooks (docs/decisions/0018): the same paid call with a `webhook` (a loopback receiver, an IP literal: its check resolves nothing, as a
// name's would through the resolver). Its deliveries run in the background, as the renders of every paid call do.
const receiver = createServer((_req, res) => res.writeHead(204).end());
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookBody = JSON.stringify({ prompt: 'benchmark lighthouse', webhook: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` });
const paidHookEvent = async () => event('POST', '/agent/image', hookBody, { 'payment-signature': await sign() });
// Measured interleaved with the plain paid path (one of each per round, the order alternating), so both see the same
// background work (the renders and deliveries of earlier calls share these two cores here; on Lambda they do not).
const pair = await measureInterleaved(
  ['paid path, interleaved with the one below', paidEvent],
  ['paid path with a webhook (the same, plus `webhook` in the body), interleaved', paidHookEvent],
  (e) => image(e, context),
  202,
);
results.push(...pair);
const accepted = JSON.parse((await image(await paidEvent(), context)).body!);
results.push(
  await measure('poll path (GET /agent/image/{jobId})', () => event('GET', `/agent/image/${accepted.jobId}`, undefined, {}, { jobId: accepted.jobId }), (e) => poll(e, context), 200),
);

const cpu = cpus()[0]?.model ?? 'unknown cpu';
console.log(`\nHandler time per request, warm, in-process against DynamoDB Local + local chain (${cpus().length} × ${cpu}), n=${N}`);
console.log('| path | median ms | p99 ms | DynamoDB round trips (median / max) |');
console.log('|---|---|---|---|');
for (const r of results) console.log(`| ${r.name} | ${r.median.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.trips} / ${r.tripsMax} |`);
const ratio = results[1].median / results[0].median;
console.log(`paid/402 median ratio: ${ratio.toFixed(1)}×; poll/402: ${(results[4].median / results[0].median).toFixed(2)}×`);
console.log(
  `paid with a webhook / paid, interleaved: median ${(pair[1].median / pair[0].median).toFixed(2)}× (${pair[1].median.toFixed(1)} ms against ${pair[0].median.toFixed(1)} ms), ` +
    `p99 ${(pair[1].p99 / pair[0].p99).toFixed(2)}×; DynamoDB round trips ${pair[1].trips} against ${pair[0].trips}`,
);

// Offer-receipt (docs/decisions/0019): what signing adds to each path. The 402 path above signs its offer (one EIP-712
// signature) and the paid path its receipt; the rest of those paths is unchanged, so the signing's own cost, timed
// here alone on the same process and key, is what they pay for it.
{
  const signTimes: number[] = [];
  const receiptTimes: number[] = [];
  const settled = { success: true, payer: buyers[0].address, transaction: `0x${'ab'.repeat(32)}`, network: challenge.accepts[0].network };
  for (let i = 0; i < 5 + N; i++) {
    let t = performance.now();
    await signedOffers(challenge as never);
    if (i >= 5) signTimes.push(performance.now() - t);
    t = performance.now();
    await withReceipt(settled, challenge.resource!.url, challenge.accepts[0].network);
    if (i >= 5) receiptTimes.push(performance.now() - t);
  }
  const median = (list: number[]) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)];
  console.log(
    `offer-receipt: signing a 402's offer ${median(signTimes).toFixed(2)} ms (${((100 * median(signTimes)) / results[0].median).toFixed(0)}% of the 402 path's median), ` +
      `a receipt ${median(receiptTimes).toFixed(2)} ms (${((100 * median(receiptTimes)) / results[1].median).toFixed(1)}% of the paid path's), medians of ${N}`,
  );
}

await agentStudioBench({ runtime, measure, context, n: N });

// The runtime stays up for the comparison below; let the paid path's render jobs finish before timing imports.
await quiesce(20_000);
await bundleReport();

// Our paid path over HTTP next to the official @x402/express + @x402/core facilitator, on the same chain, at each
// block setting: each on a runtime of its own, so this one is stopped first.
receiver.close();
await close();
let exitCode = (await compareWithReferenceReported()) ? 0 : 1;

// The render adapters against their wire-level fakes (task-side overhead and bytes through memory per asset).
try {
  console.log('\nRender adapters against their wire-level fakes (task side only; the fake\'s own time excluded)');
  for (const line of await benchProviders()) console.log(line);
} catch (error) {
  console.error('render adapter bench failed:', error);
  exitCode = 1;
}

process.exit(exitCode);
