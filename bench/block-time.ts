/**
 * Paid answers side by side with the reference, under Base's block time: for each block setting (automine,
 * a block every 2000 ms as Base seals them, a block every 200 ms as its Flashblocks preconfirm), on a fresh embedded
 * runtime whose chain mines that way (lib/local/chain.ts `blockIntervalMs`), three sides are paid by the same
 * unmodified official client (`@x402/fetch`, one funded buyer per lane, in a process of its own: bench/client-process.ts):
 * - the reference (bench/reference-server.ts, in a process of its own): `@x402/express` with an in-process `@x402/core`
 *   facilitator settling with a viem wallet on viem's `base` chain, as the official facilitator examples do;
 * - ours, a generation 202 (`POST /agent/image`: settled, its job started, the render left to the workflow);
 * - ours, an agent run (`POST /api/agents/bank-rec-…/run`: settled, the analysis answered in the 200);
 * - ours, at one buyer, an agent run with model reasoning (PO match, AGENT_REASONING), the Bedrock fake answering
 *   Converse in BENCH_MODEL_MS (default 1500; 0 leaves this side out): the model is asked once the transfer is sent.
 * Each side is measured at 1, 4, 16 and 64 concurrent buyers (BENCH_LEVELS): paid ok/attempted, paid req/s, p50 and
 * p99 of the whole exchange as the buyer sees it (the unpaid probe's 402 and the paid request). The embedded runtime
 * may run as many instances of a function as there are buyers (LOCAL_MAX_INSTANCES, as Lambda would). Every paid
 * request is checked on chain: exactly one Transfer of the price per paid answer.
 *
 * CPU per paid request is taken from /proc for each part, apart: the paid route's function instances and an estimate
 * of the gateway's own share (a no-op route timed alone: HTTP in, the event built, the answer written) make the
 * service's own; the workflow's functions (our 202's render job), this process's main thread (the gateway with the
 * local AWS endpoints, the Step Functions runner and the chain's JSON-RPC front), its other threads (the chain's
 * simulator), DynamoDB Local's JVM, the reference's process and the client's process are reported beside it. On AWS
 * only the service's own is ours to pay for in CPU; the rest is AWS's, the chain's and the buyer's.
 *
 * Settings: BENCH_BLOCKS (`automine,2000,2000p,200`; `p`: with Flashblocks preconfirmations), BENCH_LEVELS (`1,4,16,64`), BENCH_PER_LANE (`1:24,4:6,16:3,64:2`:
 * paid requests per buyer at each level), BENCH_REFERENCE_POLL_MS (the reference's receipt polling; default viem's
 * own for Base, 1000). Prints figures and whether the paid path's goals against the reference are met; asserts nothing.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createWalletClient, createPublicClient, http, nonceManager, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { PROJECT_ROOT, type EmbeddedRuntime } from '../lib/local/runtime.js';
import { readLocalAccounts, localChainDefinition } from '../lib/local/chain.js';
import { usdcAbi } from '../lambdas/payments/usdc-abi.js';
import { startGateway } from '../lib/local/gateway.js';
import type { RouteDef } from '../lambdas/surfaces/routes.js';
import { freshBuyers, quiesce, settlementLedger, type Buyer, type LoadResult } from './load.js';
import type { ClientRequest } from './client-process.js';
import type { ReferenceTiming } from './reference-server.js';
import { benchRuntime } from './reference.js';
import { findAgent } from '../lambdas/agents/registry.js';
import { LOCAL_MODEL_MS } from '../lib/local/agent-reasoning.js';

export const BENCH_STATEMENT = 'Date,Description,Amount\n2026-11-02,Deposit INV-2001,2400.00\n2026-11-05,CHECK 3101,-850.00\n2026-11-30,Interest,3.15\n';
export const BENCH_BOOKS = 'Date,Memo,Amount,Check No\n2026-11-01,INV-2001 receipt,2400.00,\n2026-11-03,Rent,-850.00,3101\n';
export const BENCH_PROMPT = 'benchmark lighthouse at dusk';
export const IMAGE_PRICE = 150_000n;
/** The agent the reasoning side runs (AGENT_REASONING names it for the bench's runtime), on a PO and its own invoice. */
const REASONING_AGENT = findAgent('po-match-gate-mkgu0')!;
const BENCH_PO = 'PO Number: PO-7781\nVendor: Acme\nWID-10 Widget 10 x $2.50 = $25.00\nTotal: $25.00';
/** The Bedrock fake's Converse time for the reasoning side (BENCH_MODEL_MS, default 1500 ms: a short tool answer); 0: none. */
const MODEL_MS = Number(process.env.BENCH_MODEL_MS ?? 1500);
export const RUN_PRICE = 60_000n;
/** Longest wait for this process to go idle before a measurement (our render jobs drain in the background). */
export const QUIET_MS = 60_000;
/** Warm-up requests per buyer before each level (not timed). */
export const WARM_PER_LANE = 3;
/** No phase starts a request after this; requests in flight finish. */
export const PHASE_BUDGET_MS = Number(process.env.BENCH_PHASE_MS ?? 120_000);

export interface BlockMode {
  label: string;
  blockIntervalMs?: number;
  /** A Flashblocks-aware endpoint in front of the chain (docs/decisions/0021): `<ms>p` in BENCH_BLOCKS. */
  preconfirmations?: boolean;
}

function modes(): BlockMode[] {
  return (process.env.BENCH_BLOCKS ?? 'automine,2000,2000p,200').split(',').map((raw) => {
    const text = raw.trim();
    if (text === 'automine' || text === '0') return { label: 'automine (a block per transaction)' };
    const preconfirmations = text.endsWith('p');
    const ms = Number(preconfirmations ? text.slice(0, -1) : text);
    if (!Number.isInteger(ms) || ms <= 0) throw new Error(`BENCH_BLOCKS: '${text}' is neither automine nor a whole number of ms (with p: preconfirmations)`);
    return preconfirmations
      ? { label: `a block every ${ms} ms, Flashblocks preconfirmations every 200 ms`, blockIntervalMs: ms, preconfirmations }
      : { label: `a block every ${ms} ms`, blockIntervalMs: ms };
  });
}

function levels(): number[] {
  return (process.env.BENCH_LEVELS ?? '1,4,16,64').split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_LEVELS: '${s}' is not a positive whole number`);
    return n;
  });
}

export function perLane(concurrency: number): number {
  const table = Object.fromEntries(
    (process.env.BENCH_PER_LANE ?? '1:24,4:6,16:3,64:2').split(',').map((pair) => pair.split(':').map(Number) as [number, number]),
  );
  return table[concurrency] ?? Math.max(2, Math.ceil(24 / concurrency));
}

// ---------- CPU from /proc ----------

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

interface CpuReading {
  process: number;
  main: number;
  threads: Map<number, number>;
  byFunction: Record<string, number[]>;
  jvm: number;
  reference: number;
  client: number;
}

/** CPU ms per paid request, by part (see the module's comment). */
export interface CpuSplit {
  paidFunction: number;
  gateway: number;
  workflow: number;
  mainThread: number;
  otherThreads: number;
  jvm: number;
  reference: number;
  client: number;
}

function sampler(runtime: EmbeddedRuntime, pids: { reference?: number; client?: number }): () => CpuReading {
  return () => {
    const usage = process.cpuUsage();
    const byFunction = runtime.functionThreadIdsById();
    const threads = new Map<number, number>();
    for (const tids of Object.values(byFunction)) for (const tid of tids) threads.set(tid, procCpuMs(`/proc/self/task/${tid}/stat`));
    return {
      process: (usage.user + usage.system) / 1000,
      main: procCpuMs(`/proc/self/task/${process.pid}/stat`),
      threads,
      byFunction,
      jvm: runtime.dynamodbPid === undefined ? 0 : procCpuMs(`/proc/${runtime.dynamodbPid}/stat`),
      reference: pids.reference ? procCpuMs(`/proc/${pids.reference}/stat`) : 0,
      client: pids.client ? procCpuMs(`/proc/${pids.client}/stat`) : 0,
    };
  };
}

function split(before: CpuReading, after: CpuReading, paidFunctionId: string | undefined, gatewayPerRequest: number, paid: number): CpuSplit {
  const delta = (tid: number) => (after.threads.get(tid) ?? 0) - (before.threads.get(tid) ?? 0);
  let paidFunction = 0;
  let functions = 0;
  for (const [id, tids] of Object.entries(after.byFunction)) {
    for (const tid of tids) {
      functions += delta(tid);
      if (id === paidFunctionId) paidFunction += delta(tid);
    }
  }
  const main = after.main - before.main;
  const per = (x: number) => x / Math.max(1, paid);
  return {
    paidFunction: per(paidFunction),
    // The probe and the paid request each go through the gateway (ours only).
    gateway: paidFunctionId ? 2 * gatewayPerRequest : 0,
    workflow: per(functions - paidFunction),
    mainThread: per(main),
    otherThreads: per(after.process - before.process - functions - main),
    jvm: per(after.jvm - before.jvm),
    reference: per(after.reference - before.reference),
    client: per(after.client - before.client),
  };
}

// ---------- the child processes ----------

export interface ClientHandle {
  pid: number;
  run(request: Omit<ClientRequest, 'id'>): Promise<LoadResult>;
  stop(): Promise<void>;
}

export async function startClient(): Promise<ClientHandle> {
  const child = fork(join(PROJECT_ROOT, 'bench', 'client-process.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();
  let next = 0;
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message: { ready?: true; id?: number; result?: LoadResult; error?: string }) => {
      if (message.ready) return resolve();
      const waiting = pending.get(message.id!);
      pending.delete(message.id!);
      if (message.error) waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.result!);
    });
  });
  return {
    pid: child.pid!,
    run: (request) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        child.send({ ...request, id });
      }),
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.send({ stop: true });
  });
}

export interface ReferenceHandle {
  pid: number;
  url: string;
  pollingIntervalMs: number;
  /** Its settled payments since the last call (bench/reference-server.ts `timings`). */
  timings(): Promise<ReferenceTiming[]>;
  stop(): Promise<void>;
}

export async function startReferenceProcess(rpcUrl: string, payTo: Address): Promise<ReferenceHandle> {
  const pollingIntervalMs = process.env.BENCH_REFERENCE_POLL_MS ? Number(process.env.BENCH_REFERENCE_POLL_MS) : undefined;
  const child = fork(join(PROJECT_ROOT, 'bench', 'reference-process.ts'), [JSON.stringify({ rpcUrl, payTo, pollingIntervalMs })], {
    execArgv: ['--import', 'tsx'],
    // The reference logs nothing we need; its errors still reach stderr.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const started = await new Promise<{ url: string; pollingIntervalMs: number }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the reference exited with ${code}`)));
    child.once('message', (message: { url: string; pollingIntervalMs: number }) => resolve(message));
  });
  child.removeAllListeners('exit');
  const timings = () =>
    new Promise<ReferenceTiming[]>((resolve) => {
      const answer = (message: { timings?: ReferenceTiming[] }) => {
        if (!message.timings) return;
        child.off('message', answer);
        resolve(message.timings);
      };
      child.on('message', answer);
      child.send({ timings: true });
    });
  return { pid: child.pid!, ...started, timings, stop: () => stopChild(child) };
}

// ---------- funding ----------

/** Mints `amount` to every buyer at once (consecutive minter nonces: one block under interval mining), then waits. */
export async function fundAll(runtime: EmbeddedRuntime, stateDir: string, buyers: Buyer[], amount: bigint): Promise<void> {
  const { minter } = await readLocalAccounts(stateDir);
  const chain = localChainDefinition(runtime.info.rpcUrl, runtime.chain.chainId);
  const transport = http(runtime.info.rpcUrl, { retryCount: 0 });
  const wallet = createWalletClient({ account: privateKeyToAccount(minter.privateKey, { nonceManager }), chain, transport });
  const reader = createPublicClient({ chain, transport, pollingInterval: 50 });
  const hashes: Hex[] = [];
  for (const buyer of buyers) {
    hashes.push(await wallet.writeContract({ address: runtime.chain.usdcAddress, abi: usdcAbi, functionName: 'mint', args: [buyer.address, amount] }));
  }
  for (const hash of hashes) {
    const receipt = await reader.waitForTransactionReceipt({ hash, timeout: 60_000 });
    if (receipt.status !== 'success') throw new Error(`funding mint ${hash} reverted`);
  }
}

// ---------- the gateway alone ----------

/**
 * CPU ms of this process's main thread per request through the local gateway with a no-op function (no worker): what
 * the gateway itself costs a request (HTTP parsed, the API Gateway event built, the answer written), measured apart
 * because the main thread also runs the local AWS endpoints and the chain's JSON-RPC front.
 */
async function gatewayPerRequest(client: ClientHandle): Promise<number> {
  const route = { id: 'Noop', method: 'POST', path: '/noop', surface: 'generation', entry: 'unused' } as RouteDef;
  const gateway = await startGateway({
    port: 0,
    routes: [route],
    invoke: async () => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' }),
  });
  try {
    // A 200 at once: the official client makes one request per exchange.
    const buyers = freshBuyers(4);
    await client.run({ url: `${gateway.url}/noop`, body: '{}', buyers, perLane: 20, budgetMs: 30_000, sourceBlock: 19 });
    const before = procCpuMs(`/proc/self/task/${process.pid}/stat`);
    const result = await client.run({ url: `${gateway.url}/noop`, body: '{}', buyers, perLane: 250, budgetMs: 30_000, sourceBlock: 19 });
    const after = procCpuMs(`/proc/self/task/${process.pid}/stat`);
    return (after - before) / Math.max(1, result.attempted);
  } finally {
    await gateway.close();
  }
}

// ---------- one side, one mode ----------

interface SideSpec {
  key: 'reference' | 'generation' | 'run' | 'reasoning';
  name: string;
  expect: string;
  url: string;
  body: string;
  price: bigint;
  /** The paid route's function (ours); undefined for the reference. */
  functionId?: string;
  sourceBlock: number;
}

interface Phase {
  concurrency: number;
  load: LoadResult;
  cpu: CpuSplit;
  onChain: string;
  /** JSON-RPC requests the chain answered during the timed load, per paid answer: receipt polls, and all methods. */
  rpc: { receipts: number; all: number };
}

/** Requests per paid answer between two readings of the chain's counts (lib/local/rpc-server.ts). */
function rpcPerPaid(before: Record<string, number>, after: Record<string, number>, paid: number): Phase['rpc'] {
  const delta = (method?: string) =>
    Object.entries(after)
      .filter(([m]) => method === undefined || m === method)
      .reduce((n, [m, count]) => n + count - (before[m] ?? 0), 0);
  return { receipts: delta('eth_getTransactionReceipt') / Math.max(1, paid), all: delta() / Math.max(1, paid) };
}

async function measureSide(
  runtime: EmbeddedRuntime,
  thinkMs: number,
  side: SideSpec,
  buyers: Buyer[],
  client: ClientHandle,
  cpuNow: () => CpuReading,
  gatewayMs: number,
  ledger: ReturnType<typeof settlementLedger>,
  levelsToRun: number[],
): Promise<Phase[]> {
  const payers = buyers.map((b) => b.address);
  const phases: Phase[] = [];
  for (const concurrency of levelsToRun) {
    // Warm-up, not timed: as many buyers at once as this level, a few requests each, so every instance it may need has
    // started (each is started on demand, like a Lambda cold start) and run its code a few times, as a Lambda instance
    // serving traffic has (a reference is one process whose code every request warms); then an idle machine. Its payments
    // are counted on chain with the phase's (a warm-up answer that came too late still paid).
    // Its instances started first, one after another (as provisioned concurrency would have them): 64 cold starts at
    // once on two cores would measure the machine's queue, not a paid request.
    if (side.functionId) await runtime.prewarm(side.functionId, concurrency);
    const mark = await ledger.snapshot();
    const warm = await client.run({ url: side.url, body: side.body, buyers: buyers.slice(0, concurrency), perLane: WARM_PER_LANE, budgetMs: PHASE_BUDGET_MS, sourceBlock: side.sourceBlock });
    await quiesce(QUIET_MS);
    const before = cpuNow();
    const callsBefore = runtime.chain.rpcCalls();
    // Buyers arrive at random moments of the block (a pause of up to one block before each request, not timed),
    // as independent buyers do; back to back, every request would start just after the block its previous answer
    // waited for, and wait a whole block each time.
    const load = await client.run({ url: side.url, body: side.body, buyers: buyers.slice(0, concurrency), perLane: perLane(concurrency), budgetMs: PHASE_BUDGET_MS, sourceBlock: side.sourceBlock, thinkMs });
    const after = cpuNow();
    const rpc = rpcPerPaid(callsBefore, runtime.chain.rpcCalls(), load.ok);
    // The last transfers may still be in their block when the answers are in (a reference answers after its receipt;
    // ours too, but a 202 that took the reconcile path answers before): wait for the chain to catch up.
    const paid = warm.ok + load.ok;
    let s = await ledger.since(mark, side.price, payers);
    for (let i = 0; i < 20 && s.transfers < paid; i++) {
      await new Promise((r) => setTimeout(r, 250));
      s = await ledger.since(mark, side.price, payers);
    }
    const warmFailed = warm.errors.length ? `; warm-up: ${warm.errors.join('; ')}` : '';
    // A 503 settlement_pending was paid and its result kept (GET /api/runs/{id}); a request the client gave up on
    // (30 s) may still have paid for what it bought (a job, a kept run): neither is a second charge.
    const pending = countOf([...warm.errors, ...load.errors], 'settlement_pending');
    const abandoned = countOf([...warm.errors, ...load.errors], 'aborted due to timeout');
    const extra = s.transfers - paid - pending;
    const exact = s.paidByDelta === s.transfers && s.wrongAmount === 0 && extra >= 0 && extra <= abandoned;
    const onChain = exact
      ? `one Transfer per paid answer (${paid} with the warm-up's${pending ? `, and ${pending} answered 503 settlement_pending` : ''}${extra ? `, and ${extra} paid after the client gave up` : ''})${warmFailed}`
      : `MISMATCH: ${s.transfers} Transfers, +${s.delta} base units, ${paid} paid answers with the warm-up's${warmFailed}`;
    phases.push({ concurrency, load, cpu: split(before, after, side.functionId, gatewayMs, load.ok), onChain, rpc });
  }
  return phases;
}

/** How many outcomes an error summary (load.ts `firstErrors`: "N× text") counts whose text contains `part`. */
function countOf(errors: string[], part: string): number {
  return errors.filter((e) => e.includes(part)).reduce((n, e) => n + Number(/^(\d+)×/.exec(e)?.[1] ?? 0), 0);
}

// ---------- printing ----------

const f = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

/** The sides measured at every level against the reference (the reasoning side is at one buyer only). */
type ComparedKey = Exclude<SideSpec['key'], 'reasoning'>;

interface ModeResult {
  mode: BlockMode;
  sides: Record<ComparedKey, { spec: SideSpec; phases: Phase[] }> & { reasoning?: { spec: SideSpec; phases: Phase[] } };
  referencePollMs: number;
  gatewayMs: number;
}

function printMode(r: ModeResult): void {
  console.log(`\n### ${r.mode.label}`);
  console.log(
    `Reference: @x402/express + in-process @x402/core facilitator on viem's base chain (receipt polled every ${r.referencePollMs} ms), 200 JSON. ` +
      `Ours: generation 202 (POST /agent/image) and agent run 200 (bank-rec), self-settled. Latency = the unpaid probe (402) + the paid request.`,
  );
  console.log('| buyers | side | paid ok / attempted | paid req/s | p50 ms | p99 ms | chain RPC requests per paid answer: receipt polls / all | on chain |');
  console.log('|---|---|---|---|---|---|---|---|');
  const keys = ['reference', 'generation', 'run'] as const;
  const concurrencies = r.sides.reference.phases.map((p) => p.concurrency);
  for (const [i, c] of concurrencies.entries()) {
    for (const key of keys) {
      const p = r.sides[key].phases[i];
      const failed = p.load.errors.length ? ` (${p.load.errors.join('; ')})` : '';
      console.log(`| ${c} | ${key} | ${p.load.ok} / ${p.load.attempted}${failed} | ${f(p.load.throughput, 2)} | ${f(p.load.p50)} | ${f(p.load.p99)} | ${f(p.rpc.receipts, 1)} / ${f(p.rpc.all, 1)} | ${p.onChain} |`);
    }
  }
  console.log('\n| buyers | generation/reference p50 | run/reference p50 | generation/reference paid req/s | run/reference paid req/s |');
  console.log('|---|---|---|---|---|');
  for (const [i, c] of concurrencies.entries()) {
    const ref = r.sides.reference.phases[i].load;
    const g = r.sides.generation.phases[i].load;
    const run = r.sides.run.phases[i].load;
    console.log(`| ${c} | ${f(g.p50 / ref.p50, 2)}× | ${f(run.p50 / ref.p50, 2)}× | ${f(g.throughput / ref.throughput, 2)}× | ${f(run.throughput / ref.throughput, 2)}× |`);
  }
  const reasoning = r.sides.reasoning?.phases[0];
  const plain = r.sides.run.phases.find((p) => p.concurrency === 1)?.load;
  if (reasoning && plain) {
    const failed = reasoning.load.errors.length ? ` (${reasoning.load.errors.join('; ')})` : '';
    console.log(
      `\nAgent run with model reasoning (${REASONING_AGENT.slug}; the Bedrock fake answering Converse in ${MODEL_MS} ms), one buyer: ` +
        `${reasoning.load.ok} / ${reasoning.load.attempted} paid${failed}, p50 ${f(reasoning.load.p50)} ms, p99 ${f(reasoning.load.p99)} ms; ${reasoning.onChain}. ` +
        `The model is asked once the transfer is sent, so it works while the block is awaited: asked before the send, as until 2026-11-28, ` +
        `the run would take about the plain run's p50 plus the model's time (${f(plain.p50)} + ${MODEL_MS} = ${f(plain.p50 + MODEL_MS)} ms; ` +
        `here ${f(reasoning.load.p50 - MODEL_MS)} ms beyond the model's).`,
    );
  }
}

function printCpu(r: ModeResult): void {
  console.log(`\nCPU ms per paid request at ${r.mode.label} (/proc; ${cpus().length} × ${cpus()[0]?.model ?? 'unknown cpu'}); the gateway alone costs ${f(r.gatewayMs, 2)} ms per request (a no-op route, timed apart)`);
  console.log('| buyers | side | service own: paid function + gateway (2 requests) | workflow functions | main thread: gateway and local AWS endpoints, chain JSON-RPC | chain simulator and other threads | DynamoDB Local | reference process | client process |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const concurrencies = r.sides.reference.phases.map((p) => p.concurrency);
  for (const [i, c] of concurrencies.entries()) {
    for (const key of ['reference', 'generation', 'run'] as const) {
      const cpu = r.sides[key].phases[i].cpu;
      const own = key === 'reference' ? `${f(cpu.reference, 1)} (its process)` : `${f(cpu.paidFunction + cpu.gateway, 1)} = ${f(cpu.paidFunction, 1)} + ${f(cpu.gateway, 1)}`;
      console.log(`| ${c} | ${key} | ${own} | ${f(cpu.workflow, 1)} | ${f(cpu.mainThread, 1)} | ${f(cpu.otherThreads, 1)} | ${f(cpu.jvm, 1)} | ${f(cpu.reference, 1)} | ${f(cpu.client, 1)} |`);
    }
  }
}

/** The paid path's goals against the reference, each with its figure, as met or missed. */
function printGoals(results: ModeResult[]): void {
  console.log('\nPaid-path goals (ours against the reference in the same run):');
  const byInterval = (ms?: number) => results.find((r) => r.mode.blockIntervalMs === ms && !r.mode.preconfirmations);
  const single = (r: ModeResult, key: ComparedKey) => r.sides[key].phases.find((p) => p.concurrency === 1)?.load;
  const line = (met: boolean, text: string) => console.log(`- ${met ? 'met' : 'MISSED'}: ${text}`);
  const slow = byInterval(2000);
  if (slow) {
    for (const key of ['generation', 'run'] as const) {
      const ours = single(slow, key);
      const ref = single(slow, 'reference');
      if (ours && ref) line(ours.p50 <= 0.3 * ref.p50, `2000 ms blocks, ${key}: single paid p50 ${f(ours.p50)} ms = ${f(ours.p50 / ref.p50, 2)}× the reference's ${f(ref.p50)} ms (goal ≤ 0.3×)`);
      for (const p of slow.sides[key].phases.filter((x) => x.concurrency >= 4)) {
        const q = slow.sides.reference.phases.find((x) => x.concurrency === p.concurrency)!.load;
        const failed = p.load.attempted - p.load.ok;
        line(p.load.throughput >= 1.5 * q.throughput && failed === 0, `2000 ms blocks, ${key}, ${p.concurrency} buyers: ${f(p.load.throughput, 2)} paid/s = ${f(p.load.throughput / q.throughput, 2)}× the reference's (goal ≥ 1.5×), ${failed} failed`);
      }
    }
  }
  const preconf = results.find((r) => r.mode.blockIntervalMs === 2000 && r.mode.preconfirmations);
  if (preconf) {
    const ours = single(preconf, 'generation');
    const ref = single(preconf, 'reference');
    if (ours && ref) line(ours.p50 <= 0.3 * ref.p50, `2000 ms blocks with preconfirmations, generation: single paid p50 ${f(ours.p50)} ms = ${f(ours.p50 / ref.p50, 2)}× the reference's ${f(ref.p50)} ms (goal ≤ 0.3×; the reference takes no preconfirmation)`);
  }
  const fast = byInterval(200);
  if (fast) {
    for (const key of ['generation', 'run'] as const) {
      const ours = single(fast, key);
      if (ours) line(ours.p50 <= 250, `200 ms blocks, ${key}: single paid p50 ${f(ours.p50)} ms end to end (goal ≤ 250 ms; the reference: ${f(single(fast, 'reference')?.p50 ?? NaN)} ms)`);
    }
  }
  const auto = byInterval(undefined);
  if (auto) {
    const run = single(auto, 'run');
    const ref = single(auto, 'reference');
    if (run && ref) line(run.p50 <= 1.3 * ref.p50, `automine, agent run: single paid p50 ${f(run.p50, 1)} ms = ${f(run.p50 / ref.p50, 2)}× the reference's ${f(ref.p50, 1)} ms (goal ≤ 1.3×)`);
    for (const key of ['generation', 'run'] as const) {
      for (const p of auto.sides[key].phases.filter((x) => x.concurrency >= 4)) {
        const refCpu = auto.sides.reference.phases.find((x) => x.concurrency === p.concurrency)!.cpu.reference;
        const own = p.cpu.paidFunction + p.cpu.gateway;
        line(own <= refCpu, `automine, ${key}, ${p.concurrency} buyers: the service's own CPU ${f(own, 1)} ms per paid request against the reference's ${f(refCpu, 1)} ms (goal ≤)`);
      }
    }
  }
}

// ---------- the whole comparison ----------

async function runMode(mode: BlockMode, levelsToRun: number[]): Promise<ModeResult> {
  const { runtime, close, stateDir } = await benchRuntime({ blockIntervalMs: mode.blockIntervalMs, preconfirmations: mode.preconfirmations });
  const client = await startClient();
  let reference: ReferenceHandle | undefined;
  try {
    const { info } = runtime;
    const payTo = info.payTo as Address;
    reference = await startReferenceProcess(info.rpcUrl, payTo);
    const lanes = Math.max(...levelsToRun);
    const requestsPerBuyer = levelsToRun.length * WARM_PER_LANE + levelsToRun.reduce((n, c) => n + perLane(c), 0) + 4;
    const sides: SideSpec[] = [
      { key: 'reference', name: 'reference', expect: '200', url: `${reference.url}/agent/image`, body: JSON.stringify({ prompt: BENCH_PROMPT }), price: IMAGE_PRICE, sourceBlock: 11 },
      { key: 'generation', name: 'ours, generation 202', expect: '202', url: `${info.baseUrl}/agent/image`, body: JSON.stringify({ prompt: BENCH_PROMPT }), price: IMAGE_PRICE, functionId: 'AgentImage', sourceBlock: 12 },
      {
        key: 'run',
        name: 'ours, agent run 200',
        expect: '200',
        url: `${String(info.agentsUrl)}/api/agents/bank-rec-discrepancy-finder-bw0tt/run`,
        body: JSON.stringify({ input: { bankStatement: BENCH_STATEMENT, bookEntries: BENCH_BOOKS } }),
        price: RUN_PRICE,
        functionId: 'RunBankRec',
        sourceBlock: 13,
      },
      ...(MODEL_MS > 0
        ? [
            {
              key: 'reasoning' as const,
              name: `ours, agent run 200 with model reasoning (the model answering in ${MODEL_MS} ms)`,
              expect: '200',
              url: `${String(info.agentsUrl)}/api/agents/${REASONING_AGENT.slug}/run`,
              body: JSON.stringify({ input: { purchaseOrder: BENCH_PO, invoice: BENCH_PO } }),
              price: REASONING_AGENT.price,
              functionId: 'RunPoMatch',
              sourceBlock: 14,
            },
          ]
        : []),
    ];
    const buyers = Object.fromEntries(sides.map((s) => [s.key, freshBuyers(lanes)])) as Record<SideSpec['key'], Buyer[]>;
    await fundAll(runtime, stateDir, Object.values(buyers).flat(), IMAGE_PRICE * BigInt(requestsPerBuyer));
    const gatewayMs = await gatewayPerRequest(client);
    const cpuNow = sampler(runtime, { reference: reference.pid, client: client.pid });
    const ledger = settlementLedger(info.rpcUrl, info.usdcAddress as Address, payTo);
    const result = { mode, sides: {} as ModeResult['sides'], referencePollMs: reference.pollingIntervalMs, gatewayMs };
    for (const side of sides) {
      // The reasoning side is measured at one buyer: what it shows is the model's time beside the block's.
      const at = side.key === 'reasoning' ? [1] : levelsToRun;
      result.sides[side.key] = { spec: side, phases: await measureSide(runtime, mode.blockIntervalMs ?? 0, side, buyers[side.key], client, cpuNow, gatewayMs, ledger, at) };
    }
    return result;
  } finally {
    await reference?.stop();
    await client.stop();
    await close();
  }
}

/**
 * One block setting, in a process of its own (bench/block-mode-process.ts runs this): an embedded runtime's
 * configuration is read once per process, so two runtimes cannot follow each other in one.
 */
export async function runModeInProcess(mode: BlockMode, levelsToRun: number[]): Promise<ModeResult> {
  return runMode(mode, levelsToRun);
}

function runModeInChild(mode: BlockMode, levelsToRun: number[]): Promise<ModeResult> {
  return new Promise((resolve, reject) => {
    const child = fork(join(PROJECT_ROOT, 'bench', 'block-mode-process.ts'), [JSON.stringify({ mode, levels: levelsToRun })], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env },
    });
    let result: ModeResult | undefined;
    let failure: string | undefined;
    child.on('message', (message: { result?: ModeResult; error?: string }) => {
      if (message.result) result = reviveBigints(message.result);
      if (message.error) failure = message.error;
    });
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(failure ?? `the ${mode.label} process exited with ${code}`))));
  });
}

/** Prices travel between processes as strings. */
function reviveBigints(result: ModeResult): ModeResult {
  for (const side of Object.values(result.sides)) side.spec.price = BigInt(side.spec.price as unknown as string);
  return result;
}

/** The side-by-side section of `npm run bench` and all of `npm run bench:reference`. Returns false if a mode failed. */
export async function compareUnderBlockTimes(): Promise<boolean> {
  const levelsToRun = levels();
  process.env.LOCAL_MAX_INSTANCES ??= String(Math.max(...levelsToRun));
  if (MODEL_MS > 0) {
    // The reasoning side's agent reasons, on a Bedrock fake that takes a model's time (the other sides' agents do not).
    process.env.AGENT_REASONING = REASONING_AGENT.slug;
    process.env[LOCAL_MODEL_MS] = String(MODEL_MS);
  }
  console.log(
    `\nPaid path side by side under block times: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown cpu'}, load average ${loadavg()[0].toFixed(2)} at the start; ` +
      `the embedded runtime may run ${process.env.LOCAL_MAX_INSTANCES} instances of a function (LOCAL_MAX_INSTANCES); ` +
      `buyers ${levelsToRun.join(', ')}, paid requests per buyer ${levelsToRun.map((c) => `${c}: ${perLane(c)}`).join(', ')}, each after a random pause of up to one block (not timed); ` +
      'every buyer a fresh funded key, all of them in a client process of their own; each block setting on a fresh runtime in a process of its own.',
  );
  const results: ModeResult[] = [];
  let ok = true;
  for (const mode of modes()) {
    const start = performance.now();
    try {
      const result = await runModeInChild(mode, levelsToRun);
      results.push(result);
      printMode(result);
      printCpu(result);
      console.log(`(${mode.label}: ${f((performance.now() - start) / 1000)} s)`);
    } catch (error) {
      ok = false;
      console.error(`${mode.label}: the comparison failed:`, error);
    }
  }
  printGoals(results);
  return ok;
}
