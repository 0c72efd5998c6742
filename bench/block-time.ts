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
 *
 * The buyers' client, the reference's process and the funding are in bench/bench-processes.ts, the /proc sampling in
 * bench/bench-cpu.ts, the result types and their printing in bench/block-time-report.ts; this file measures.
 */
import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { PROJECT_ROOT, type EmbeddedRuntime } from '../lib/local/runtime.js';
import { freshBuyers, quiesce, settlementLedger, type Buyer } from './load.js';
import { benchRuntime } from './reference.js';
import { LOCAL_MODEL_MS } from '../lib/local/agent-reasoning.js';
import {
  BENCH_BOOKS,
  BENCH_PO,
  BENCH_PROMPT,
  BENCH_STATEMENT,
  fundAll,
  IMAGE_PRICE,
  MODEL_MS,
  PHASE_BUDGET_MS,
  QUIET_MS,
  REASONING_AGENT,
  RUN_PRICE,
  startClient,
  startReferenceProcess,
  WARM_PER_LANE,
  type ClientHandle,
  type ReferenceHandle,
} from './bench-processes.js';
import { gatewayPerRequest, sampler, split, type CpuReading } from './bench-cpu.js';
import { f, printCpu, printGoals, printMode, type ModeResult, type Phase, type SideSpec } from './block-time-report.js';

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

// ---------- one side, one mode ----------

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
