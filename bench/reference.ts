/**
 * The reference a user would pick instead of our service, measured side by side with our paid path on the same local
 * chain: an Express app with the official x402 v2 middleware (`@x402/express`), one paid route `POST /agent/image` at
 * $0.15 paying to the same payTo, whose handler answers 200 JSON at once, backed by an in-process `@x402/core`
 * facilitator with `@x402/evm`'s exact scheme (facilitator side) and a viem wallet that settles with its own funded
 * key. Both sides are paid by the same unmodified official client (bench/load.ts) and both settle on chain per
 * request. Prints a table per side, a ratio table (ours / reference) and the on-chain settlement count of each side.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import type { FacilitatorClient } from '@x402/core/server';
import type { SupportedResponse } from '@x402/core/types';
import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from '@x402/evm/exact/facilitator';
import { ExactEvmScheme as ExactEvmServerScheme } from '@x402/evm/exact/server';
import { createWalletClient, defineChain, http, nonceManager, numberToHex, publicActions, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startEmbedded, type EmbeddedRuntime } from '../lib/local/runtime.js';
import { renderImage } from '../lambdas/render/local/image/render-image.js';
import { imageRequestSchema } from '../lambdas/products/catalog.js';
import {
  SourceAddresses,
  concurrent,
  freshBuyers,
  payingFetch,
  quiesce,
  sequential,
  settlementLedger,
  chainClockGuard,
  type Buyer,
  type Guard,
  type LoadResult,
  type SequentialResult,
} from './load.js';

const NETWORK = 'eip155:8453' as const;
const BENCH_STATEMENT = 'Date,Description,Amount\n2026-11-02,Deposit INV-2001,2400.00\n2026-11-05,CHECK 3101,-850.00\n2026-11-30,Interest,3.15\n';
const BENCH_BOOKS = 'Date,Memo,Amount,Check No\n2026-11-01,INV-2001 receipt,2400.00,\n2026-11-03,Rent,-850.00,3101\n';
/** The image prompt both sides are paid for; ours renders it (renderAlone times that render on its own). */
const BENCH_PROMPT = 'benchmark lighthouse at dusk';
const PRICE = 150_000n; // $0.15 in USDC base units, the price of our agent_image
const SINGLE_N = Number(process.env.BENCH_SINGLE_N ?? 20);
// Fixed count per lane, bounded in time: no lane starts a request after the budget (requests in flight finish).
// The counts are small because every settlement is a block and the local chain's clock only moves ahead with blocks
// (see chainClockGuard): our side, which cannot be rolled back, has about 170 settlements in this runtime before
// authorizations start to expire on chain. Each side settles 4 + 20 + 48 + 96 = 168 times here.
const PHASES = [
  { concurrency: 4, perLane: Number(process.env.BENCH_C4_PER_LANE ?? 12), budgetMs: Number(process.env.BENCH_PHASE_MS ?? 20_000) },
  { concurrency: 16, perLane: Number(process.env.BENCH_C16_PER_LANE ?? 6), budgetMs: Number(process.env.BENCH_PHASE_MS ?? 20_000) },
];
/** Longest wait for this process to go idle before a measurement (our render jobs drain in the background). */
const QUIET_MS = 8_000;
/** No request starts while the local chain's clock leads the wall clock by more than this (see chainClockGuard). */
const MAX_CHAIN_LEAD_S = 260;
/** Warm-up: this many paid requests at once, one per lane (our paid route runs up to 4 function instances, each
 * started on demand like a Lambda cold start; the warm-up starts them all before anything is timed). */
const WARMUP = 4;

export interface ReferenceServer {
  url: string;
  facilitatorAddress: Address;
  stop(): Promise<void>;
}

/** Starts the reference on 127.0.0.1 (any free port). `setBalance` gives the facilitator key gas on the local chain. */
export async function startReference(options: {
  rpcUrl: string;
  payTo: Address;
  setBalance: (address: Address, wei: bigint) => Promise<unknown>;
}): Promise<ReferenceServer> {
  const chain = defineChain({
    id: 8453,
    name: 'Local eip155:8453',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  // The facilitator's own key, funded for gas; viem's nonce manager so concurrent settlements take distinct nonces.
  const account = privateKeyToAccount(generatePrivateKey() as Hex, { nonceManager });
  await options.setBalance(account.address, 10n ** 21n);
  const wallet = createWalletClient({ account, chain, transport: http(options.rpcUrl, { retryCount: 0 }), pollingInterval: 50 }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) => wallet.readContract({ ...args, args: args.args ?? [] } as never),
    verifyTypedData: (args) => wallet.verifyTypedData(args as never),
    writeContract: (args) => wallet.writeContract({ ...args, args: args.args ?? [] } as never),
    sendTransaction: (args) => wallet.sendTransaction(args as never),
    waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt(args),
    getCode: (args) => wallet.getCode(args),
  });
  const facilitator = new x402Facilitator().register(NETWORK, new ExactEvmFacilitatorScheme(signer));
  // In process: the resource server calls the facilitator object directly instead of over HTTP.
  const facilitatorClient: FacilitatorClient = {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
  const resourceServer = new x402ResourceServer(facilitatorClient).register(NETWORK, new ExactEvmServerScheme());

  const app = express();
  app.use(express.json());
  app.use(
    paymentMiddleware(
      {
        'POST /agent/image': {
          accepts: { scheme: 'exact', price: '$0.15', network: NETWORK, payTo: options.payTo },
          description: 'Generate an image',
          mimeType: 'application/json',
        },
      },
      resourceServer,
    ),
  );
  app.post('/agent/image', (req, res) => {
    res.status(200).json({ status: 'accepted', prompt: (req.body as { prompt?: string })?.prompt ?? null });
  });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    facilitatorAddress: account.address,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type Settlement = Awaited<ReturnType<ReturnType<typeof settlementLedger>['since']>>;

interface SideResult {
  name: string;
  expect: string;
  single: SequentialResult;
  phases: LoadResult[];
  okTotal: number;
  quietMs: number[];
  seconds: number;
  settlement: Settlement;
  /** How far the chain's latest block time ran ahead of the wall clock, at the end of each measurement (s). */
  chainLead: number[];
  /** CPU per successful paid request during each concurrent phase (ms): see CpuSample. */
  phaseCpu: CpuSample[];
}

/**
 * CPU time (ms): this process's every thread (`node`), of which the function instances' threads (`functions`), and
 * DynamoDB Local's JVM. What is neither is the rest of this process: the buyers' client, the local chain and its
 * JSON-RPC server, the gateway, the local AWS endpoints and the Step Functions runner. /proc counts in clock ticks of
 * 10 ms; a function instance that ends during a phase takes its count with it.
 */
interface CpuSample {
  node: number;
  functions: number;
  jvm: number;
}

/** utime + stime of a /proc stat file, in ms; 0 when it cannot be read (not Linux, or gone). */
function procCpuMs(statFile: string): number {
  try {
    const stat = readFileSync(statFile, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

type CpuReading = { node: number; jvm: number; threads: Map<number, number> };

/** Reads the CPU of every part; each function thread on its own, so a delta counts the threads alive at its end. */
function cpuSampler(runtime: EmbeddedRuntime): () => CpuReading {
  return () => {
    const { user, system } = process.cpuUsage();
    const threads = new Map(runtime.functionThreadIds().map((tid) => [tid, procCpuMs(`/proc/self/task/${tid}/stat`)]));
    const jvm = runtime.dynamodbPid === undefined ? 0 : procCpuMs(`/proc/${runtime.dynamodbPid}/stat`);
    return { node: (user + system) / 1000, jvm, threads };
  };
}

function cpuBetween(before: CpuReading, after: CpuReading, per: number): CpuSample {
  let functions = 0;
  for (const [tid, ms] of after.threads) functions += ms - (before.threads.get(tid) ?? 0);
  return { node: (after.node - before.node) / per, functions: functions / per, jvm: (after.jvm - before.jvm) / per };
}

/** Where one side is measured: `run` gives each measurement the URL to pay (and may wrap it, e.g. in a chain snapshot). */
interface Target {
  name: string;
  expect: string;
  /** The paid request's JSON body (default: an image prompt) and the price each settlement must move. */
  body?: string;
  price?: bigint;
  run<T>(measure: (url: string) => Promise<T>): Promise<T>;
}

async function measureSide(
  target: Target,
  buyers: Buyer[],
  addresses: SourceAddresses,
  ledger: ReturnType<typeof settlementLedger>,
  chainLead: () => Promise<number>,
  guard: Guard,
  cpuNow: () => CpuReading,
): Promise<SideResult> {
  const body = target.body ?? JSON.stringify({ prompt: BENCH_PROMPT });
  const lanes = buyers.map((b, i) => payingFetch(b, addresses.fetchFor(i)));
  const payers = buyers.map((b) => b.address);
  const start = performance.now();
  const quietMs: number[] = [];
  const settlements: Settlement[] = [];
  const leads: number[] = [];
  let okTotal = 0;
  // Each measurement is accounted on chain on its own (the reference's chain state is rolled back after each).
  const measured = async <T extends { ok: number }>(url: string, run: () => Promise<T>): Promise<T> => {
    quietMs.push(await quiesce(QUIET_MS));
    const mark = await ledger.snapshot();
    const result = await run();
    settlements.push(await ledger.since(mark, target.price ?? PRICE, payers));
    leads.push(await chainLead());
    okTotal += result.ok;
    return result;
  };
  const single = await target.run(async (url) => {
    await measured(url, () => concurrent(lanes.slice(0, WARMUP), url, body, 1, 30_000, guard));
    return measured(url, () => sequential(lanes[0], url, body, SINGLE_N, guard));
  });
  const phases: LoadResult[] = [];
  const phaseCpu: CpuSample[] = [];
  for (const phase of PHASES) {
    const load = await target.run((url) =>
      measured(url, async () => {
        const before = cpuNow();
        const result = await concurrent(lanes.slice(0, phase.concurrency), url, body, phase.perLane, phase.budgetMs, guard);
        phaseCpu.push(cpuBetween(before, cpuNow(), result.ok));
        return result;
      }),
    );
    phases.push(load);
  }
  const settlement = settlements.reduce((a, b) => ({
    delta: a.delta + b.delta,
    paidByDelta: a.paidByDelta + b.paidByDelta,
    remainder: a.remainder + b.remainder,
    transfers: a.transfers + b.transfers,
    otherTransfers: a.otherTransfers + b.otherTransfers,
    wrongAmount: a.wrongAmount + b.wrongAmount,
  }));
  return { name: target.name, expect: target.expect, single, phases, okTotal, quietMs, seconds: (performance.now() - start) / 1000, settlement, chainLead: leads, phaseCpu };
}

const f = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

function printSide(r: SideResult): void {
  console.log(`\n${r.name} — success = ${r.expect}`);
  console.log('| load | paid ok / attempted | non-2xx | wall s | paid req/s | p50 ms | p99 ms | CPU ms per paid request: functions + rest of this process + DynamoDB Local = all |');
  console.log('|---|---|---|---|---|---|---|---|');
  const stop = (why?: string) => (why ? ` (stopped: ${why})` : '');
  console.log(
    `| sequential (c=1) | ${r.single.ok} / ${r.single.n}${stop(r.single.stoppedBy)} | ${r.single.non2xx} | — | — | ${f(r.single.median)} (median) | ${f(r.single.p99)} | — |`,
  );
  r.phases.forEach((p, i) => {
    const cpu = r.phaseCpu[i];
    console.log(
      `| c=${p.concurrency} | ${p.ok} / ${p.attempted}${stop(p.stoppedBy)} | ${p.non2xx} | ${f(p.seconds, 2)} | ${f(p.throughput, 2)} | ${f(p.p50)} | ${f(p.p99)} | ${f(cpu.functions, 0)} + ${f(cpu.node - cpu.functions, 0)} + ${f(cpu.jvm, 0)} = ${f(cpu.node + cpu.jvm, 0)} |`,
    );
  });
  const errors = [...r.single.errors, ...r.phases.flatMap((p) => p.errors)];
  if (errors.length) console.log(`non-2xx / errors: ${errors.join('; ')}`);
  if (errors.some((e) => e.includes('higher than the next one expected'))) {
    console.log(
      'nonce gap: concurrent settlements from the one facilitator key (viem nonce manager) reached the automining node out of order, ' +
        'and the node refuses a transaction whose nonce is ahead instead of queueing it as a real node would.',
    );
  }
  const s = r.settlement;
  console.log(
    `on chain: ${r.okTotal} successful paid requests (incl. ${WARMUP} warm-up); payTo +${s.delta} base units = ${s.paidByDelta} × price` +
      `${s.remainder ? ` + ${s.remainder}` : ''}; ${s.transfers} Transfer logs buyer→payTo (${s.wrongAmount} not of the price, ${s.otherTransfers} from others)` +
      ` → ${s.paidByDelta === r.okTotal && s.transfers === r.okTotal ? 'exactly one Transfer per paid request' : 'MISMATCH'}`,
  );
  console.log(
    `side took ${f(r.seconds)} s; waits for an idle process before each measurement: ${r.quietMs.map((ms) => f(ms / 1000)).join(' / ')} s; ` +
      `chain time ahead of wall clock after each: ${r.chainLead.map((s) => f(s, 0)).join(' / ')} s`,
  );
}

/** CPU ms per paid request of every part on the machine (this process and DynamoDB Local) in concurrent phase `i`. */
function allPartsCpu(r: SideResult, i: number): number {
  return r.phaseCpu[i].node + r.phaseCpu[i].jvm;
}

function printRatios(ours: SideResult, ref: SideResult): void {
  console.log(`\n${ours.name} / reference (throughput: >1 = ours faster; latency: <1 = ours faster)`);
  console.log('| metric | ours | reference | ours/reference |');
  console.log('|---|---|---|---|');
  const row = (metric: string, a: number, b: number, d = 1) => console.log(`| ${metric} | ${f(a, d)} | ${f(b, d)} | ${f(a / b, 2)}× |`);
  row('single paid request, median ms (c=1)', ours.single.median, ref.single.median);
  ours.phases.forEach((p, i) => {
    const q = ref.phases[i];
    row(`throughput, paid req/s (c=${p.concurrency})`, p.throughput, q.throughput, 2);
    row(`p50 ms (c=${p.concurrency})`, p.p50, q.p50);
    row(`p99 ms (c=${p.concurrency})`, p.p99, q.p99);
    row(`CPU ms per paid request, all parts on this machine (c=${p.concurrency})`, allPartsCpu(ours, i), allPartsCpu(ref, i), 0);
  });
}

/** The procedural image a 202 of ours renders (this bench's prompt, 1024² PNG): median wall ms on an idle process, main thread. */
function renderAlone(n = 9): number {
  // As the route validates it (its defaults filled in: 1:1, PNG).
  const request = imageRequestSchema.parse({ prompt: BENCH_PROMPT });
  for (let i = 0; i < 3; i++) renderImage(request);
  const ms = Array.from({ length: n }, () => {
    const t = performance.now();
    renderImage(request);
    return performance.now() - t;
  }).sort((a, b) => a - b);
  return ms[Math.floor(n / 2)];
}

/**
 * What matching the reference would take on this machine, from the figures above. Every part runs on these cores,
 * so a side's paid throughput is at most cores × 1000 / its CPU ms per paid request. The reference does not use them
 * all: it waits (one key, a receipt per request). Ours is CPU-bound, so matching the reference's throughput means
 * fitting each paid request into cores × 1000 / (the reference's paid/s) ms of CPU, all parts included.
 */
function printBudget(ref: SideResult, ours: SideResult[], renderMs: number): void {
  const cores = cpus().length;
  console.log(`\nCPU budget on this machine (${cores} × ${cpus()[0]?.model ?? 'unknown cpu'}): every part runs on these cores`);
  console.log('| load | reference paid/s | CPU ms per paid request to match it | reference uses | ' + ours.map((o) => o.name.split(' (')[0]).join(' | ') + ' |');
  console.log('|---|---|---|---|' + ours.map(() => '---|').join(''));
  ref.phases.forEach((p, i) => {
    const budget = (cores * 1000) / p.throughput;
    const cell = (r: SideResult) =>
      `${f(allPartsCpu(r, i), 0)} (DynamoDB Local ${f(r.phaseCpu[i].jvm, 0)}; at most ${f((cores * 1000) / allPartsCpu(r, i), 1)} paid/s)`;
    console.log(`| c=${p.concurrency} | ${f(p.throughput, 2)} | ${f(budget, 0)} | ${f(allPartsCpu(ref, i), 0)} | ${ours.map(cell).join(' | ')} |`);
  });
  console.log(
    `The image each of our 202s renders costs ${f(renderMs)} ms alone (median, idle process), on the same cores: on AWS it runs in the render ` +
      `task's own Lambda. DynamoDB Local's JVM is the ledger's database: on AWS, DynamoDB's CPU is not the service's.`,
  );
}

/** The side-by-side section of `npm run bench`; uses the already started embedded runtime and leaves it running. */
export async function compareWithReference(runtime: EmbeddedRuntime): Promise<void> {
  const { info, chain } = runtime;
  const lanesNeeded = Math.max(...PHASES.map((p) => p.concurrency));
  const perBuyer = PRICE * BigInt(WARMUP + SINGLE_N + PHASES.reduce((n, p) => n + p.perLane, 0) + 10);
  const payTo = info.payTo as Address;
  const rpc = (method: string, params: unknown[]) => chain.provider.request({ method, params });
  const ledger = settlementLedger(info.rpcUrl, info.usdcAddress as Address, payTo);
  const setBalance = (address: Address, wei: bigint) => rpc('hardhat_setBalance', [address, numberToHex(wei)]);
  // The time the next block would get, less the wall clock: the node's clock offset (see chainClockGuard).
  const chainLead = async () => {
    const block = (await rpc('eth_getBlockByNumber', ['pending', false])) as { timestamp: Hex };
    return Number(BigInt(block.timestamp)) - Date.now() / 1000;
  };
  const guard = chainClockGuard(chainLead, MAX_CHAIN_LEAD_S);
  const cpu = cpuSampler(runtime);

  const sectionStart = performance.now();
  const refAddresses = new SourceAddresses(11);
  const ourAddresses = new SourceAddresses(12);
  const runAddresses = new SourceAddresses(13);
  let referenceUrl = '';
  try {
    const refBuyers = await freshBuyers(lanesNeeded);
    const ourBuyers = await freshBuyers(lanesNeeded);
    const runBuyers = await freshBuyers(lanesNeeded);
    for (const b of [...ourBuyers, ...runBuyers]) await chain.fund(b.address, perBuyer);
    // The reference settles several times faster than we do, and every settlement is a block that can push the local
    // chain's clock further ahead for good (see chainClockGuard); a revert restores the clock with the state. So each
    // reference measurement runs inside evm_snapshot / evm_revert (its settlements are counted before the revert) with
    // a fresh reference: a new facilitator key, so no nonce cached by viem outlives a revert. Ours is never rolled back
    // (our settler tracks its keys' nonces), so ours starts where the reference did.
    const reference: Target = {
      name: 'Reference: @x402/express + in-process @x402/core facilitator (200 JSON)',
      expect: '200',
      async run(measure) {
        const snapshot = await rpc('evm_snapshot', []);
        // Funded inside the snapshot: the mints are blocks too, and this way they do not move the clock ours starts at.
        for (const b of refBuyers) await chain.fund(b.address, perBuyer);
        const server = await startReference({ rpcUrl: info.rpcUrl, payTo, setBalance });
        referenceUrl = server.url;
        try {
          return await measure(`${server.url}/agent/image`);
        } finally {
          await server.stop();
          if ((await rpc('evm_revert', [snapshot])) !== true) throw new Error('evm_revert failed');
        }
      },
    };
    const ours: Target = {
      name: 'Ours: embedded runtime generation gateway (202 after settlement)',
      expect: '202',
      run: (measure) => measure(`${info.baseUrl}/agent/image`),
    };
    await quiesce(QUIET_MS);
    const leadAtStart = await chainLead();
    // The reference runs first so our background render jobs cannot slow it down.
    const ref = await measureSide(reference, refBuyers, refAddresses, ledger, chainLead, guard, cpu);
    const our = await measureSide(ours, ourBuyers, ourAddresses, ledger, chainLead, guard, cpu);
    // The same paid path without a render behind it: an agent run settles in the request and answers its result, as
    // the reference answers its JSON (the engine's own time is a fraction of a millisecond: see the agent table).
    const agentRun: Target = {
      name: 'Ours: agent studio paid run (bank-rec, 200 with the result after settlement)',
      expect: '200',
      body: JSON.stringify({ input: { bankStatement: BENCH_STATEMENT, bookEntries: BENCH_BOOKS } }),
      price: 60_000n,
      run: (measure) => measure(`${String(info.agentsUrl)}/api/agents/bank-rec-discrepancy-finder-bw0tt/run`),
    };
    const run = await measureSide(agentRun, runBuyers, runAddresses, ledger, chainLead, guard, cpu);
    console.log(
      `\nPaid path side by side: ours (embedded runtime, POST ${info.baseUrl}/agent/image, self-settled, 202) vs the reference ` +
        `(Express + @x402/express, in-process @x402/core facilitator with @x402/evm exact and a viem wallet, e.g. POST ${referenceUrl}/agent/image, $0.15, 200).`,
    );
    console.log(
      `Same local chain (Hardhat EDR, automine: one block per settlement), same payTo, same client on both: @x402/fetch + ExactEvmScheme, ` +
        `one fresh funded buyer per lane; latency = unpaid probe (402) + paid request, as the client does it; warm-up ${WARMUP} at once, then sequential n=${SINGLE_N}; ` +
        `${PHASES.map((p) => `c=${p.concurrency}: ${p.perLane}/lane`).join(', ')}, no lane starts a request after ${PHASES[0].budgetMs / 1000} s ` +
        `or while the chain clock leads the wall clock by over ${MAX_CHAIN_LEAD_S} s (it led by ${f(leadAtStart, 0)} s at the start). ` +
        `Reference first, each of its measurements rolled back on chain afterwards (evm_snapshot/evm_revert); every measurement starts once this ` +
        `process is idle; our 202 also starts a render job that runs in this process.`,
    );
    printSide(our);
    printSide(run);
    printSide(ref);
    printRatios(our, ref);
    printRatios(run, ref);
    await quiesce(QUIET_MS);
    printBudget(ref, [our, run], renderAlone());
    console.log(`(section took ${f((performance.now() - sectionStart) / 1000)} s)`);
  } finally {
    await refAddresses.close();
    await ourAddresses.close();
    await runAddresses.close();
  }
}

/** An embedded runtime of its own for a bench run (free ports, a fresh state dir, quiet); `close` removes it all. */
export async function benchRuntime(): Promise<{ runtime: EmbeddedRuntime; close(): Promise<void> }> {
  const stateDir = mkdtempSync(join(tmpdir(), 'paycall-bench-'));
  const runtime = await startEmbedded({ generationPort: 0, chainPort: 0, stateDir, log: () => {} });
  return {
    runtime,
    close: async () => {
      await runtime.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** compareWithReference, its failure printed rather than thrown: false when it failed (the bench exits 1). */
export async function compareWithReferenceReported(runtime: EmbeddedRuntime): Promise<boolean> {
  try {
    await compareWithReference(runtime);
    return true;
  } catch (error) {
    console.error('side-by-side comparison failed:', error);
    return false;
  }
}
