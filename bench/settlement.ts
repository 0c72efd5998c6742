/**
 * `npm run bench:settlement`: where a paid request's time goes before its transfer reaches the node, how often that
 * makes the transfer miss the first block it could have made, and how long the buyer waits after its block — ours
 * (a generation 202 and an agent run 200) beside the reference (@x402/express with an in-process @x402/core
 * facilitator, bench/reference-server.ts), paid by the same official client (bench/client-process.ts).
 *
 * Each block interval (BENCH_BLOCKS, default `2000,200`) and key pool (BENCH_KEYS, default `4,8,16`: the settlement
 * keys the embedded runtime funds and leases, ADR 0005) runs on a fresh runtime in a process of its own, its function
 * instances at LOG_LEVEL=DEBUG so that each paid request writes its settlement timing lines
 * (lambdas/payments/settlement-timing.ts); the bench reads them off its stdout and the chain's view off its provider
 * (bench/settlement-capture.ts), and lines both up with each buyer's marks (bench/settlement-report.ts). At 1, 4 and 16
 * buyers (BENCH_LEVELS), BENCH_PER_LANE paid requests per buyer (default `1:12,4:6,16:3`), each after a random pause
 * of up to one block, as in `npm run bench:reference`. DEBUG also turns the functions' INFO lines on (as on AWS, where
 * no level is set): `npm run bench:reference` runs at WARN, so its figures are a little lighter. Prints; asserts nothing.
 * BENCH_RENDERS=paused holds every job's workflow before its first task (bench/reference.ts benchRuntime), to show
 * what the paid path costs with the local renders' CPU out of the way (on AWS they run in Lambdas of their own).
 */
import { execFileSync, fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import type { Address } from 'viem';
import { benchRuntime } from './reference.js';
import { freshBuyers, quiesce, type Buyer } from './load.js';
import {
  BENCH_BOOKS,
  BENCH_PROMPT,
  BENCH_STATEMENT,
  fundAll,
  IMAGE_PRICE,
  PHASE_BUDGET_MS,
  QUIET_MS,
  startClient,
  startReferenceProcess,
  WARM_PER_LANE,
  type ReferenceHandle,
} from './bench-processes.js';
import { captureTimingLines, watchChain } from './settlement-capture.js';
import { probeTransactions } from './dynamo-probe.js';
import { printPhases, printSides, rowsOf, type Cell, type SideKey } from './settlement-report.js';

interface Config {
  blockMs: number;
  keys: number;
  levels: number[];
}

const list = (name: string, fallback: string) =>
  (process.env[name] ?? fallback).split(',').map((s) => {
    const value = Number(s.trim());
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name}: '${s}' is not a positive whole number`);
    return value;
  });

function perLane(buyers: number): number {
  const table = Object.fromEntries((process.env.BENCH_PER_LANE ?? '1:12,4:6,16:3').split(',').map((pair) => pair.split(':').map(Number) as [number, number]));
  return table[buyers] ?? Math.max(2, Math.ceil(12 / buyers));
}

/**
 * BENCH_PIN=dynamo: DynamoDB Local on a core of its own and everything else of the run (this process, its function
 * instances, the buyers' client, the reference) on the others, so the figures show what is left when the emulator's
 * CPU is out of the paid path's way (on AWS DynamoDB is not on the functions' cores). Linux `taskset`, every thread.
 */
function pinDynamo(stateDir: string): void {
  if (process.env.BENCH_PIN !== 'dynamo') return;
  const cores = cpus().length;
  if (cores < 2) throw new Error('BENCH_PIN=dynamo needs two cores or more');
  const pids = (pattern: string) => execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  const own = String(cores - 1);
  const rest = `0-${cores - 2}`;
  for (const pid of pids(`DynamoDBLocal.jar.*${stateDir}`)) execFileSync('taskset', ['-a', '-p', '-c', own, pid], { stdio: 'ignore' });
  execFileSync('taskset', ['-a', '-p', '-c', rest, String(process.pid)], { stdio: 'ignore' });
}

/** Pins the processes the run starts after the runtime (the client, the reference) with the rest (BENCH_PIN). */
function pinChildren(): void {
  if (process.env.BENCH_PIN !== 'dynamo') return;
  const rest = `0-${cpus().length - 2}`;
  const children = execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  for (const pid of children) {
    const command = execFileSync('ps', ['-o', 'args=', '-p', pid], { encoding: 'utf8' });
    if (!command.includes('DynamoDBLocal')) execFileSync('taskset', ['-a', '-p', '-c', rest, pid], { stdio: 'ignore' });
  }
}

/** One block interval and key pool, on a runtime of its own: every side at every level. */
async function runOne(config: Config): Promise<Cell[]> {
  const { runtime, close, stateDir } = await benchRuntime({ blockIntervalMs: config.blockMs, settlerKeys: config.keys, pauseRenders: process.env.BENCH_RENDERS === 'paused' });
  pinDynamo(stateDir);
  const capture = captureTimingLines();
  const chain = watchChain(runtime.chain.provider);
  const client = await startClient();
  let reference: ReferenceHandle | undefined;
  const cells: Cell[] = [];
  try {
    const { info } = runtime;
    reference = await startReferenceProcess(info.rpcUrl, info.payTo as Address);
    pinChildren();
    const image = JSON.stringify({ prompt: BENCH_PROMPT });
    const sides: { key: SideKey; url: string; body: string; functionId?: string; sourceBlock: number }[] = [
      { key: 'reference', url: `${reference.url}/agent/image`, body: image, sourceBlock: 21 },
      { key: 'generation', url: `${info.baseUrl}/agent/image`, body: image, functionId: 'AgentImage', sourceBlock: 22 },
      {
        key: 'run',
        url: `${String(info.agentsUrl)}/api/agents/bank-rec-discrepancy-finder-bw0tt/run`,
        body: JSON.stringify({ input: { bankStatement: BENCH_STATEMENT, bookEntries: BENCH_BOOKS } }),
        functionId: 'RunBankRec',
        sourceBlock: 23,
      },
    ];
    const lanes = Math.max(...config.levels);
    const buyers = Object.fromEntries(sides.map((s) => [s.key, freshBuyers(lanes)])) as Record<SideKey, Buyer[]>;
    const perBuyer = config.levels.reduce((sum, c) => sum + WARM_PER_LANE + perLane(c), 4);
    await fundAll(runtime, stateDir, Object.values(buyers).flat(), IMAGE_PRICE * BigInt(perBuyer));
    const probe = await probeTransactions(runtime.dynamodbEndpoint, lanes);
    console.log(
      `(blocks every ${config.blockMs} ms, ${config.keys} keys: DynamoDB Local answers a two-item transaction alone in ${probe.alone.toFixed(0)} ms p50, ` +
        `${probe.count} at once in ${probe.together.toFixed(0)} ms p50: it runs them one at a time, as DynamoDB does not)`,
    );
    for (const side of sides) {
      for (const concurrency of config.levels) {
        if (side.functionId) await runtime.prewarm(side.functionId, concurrency);
        const request = { url: side.url, body: side.body, buyers: buyers[side.key].slice(0, concurrency), budgetMs: PHASE_BUDGET_MS, sourceBlock: side.sourceBlock };
        await client.run({ ...request, perLane: WARM_PER_LANE });
        await quiesce(QUIET_MS);
        capture.take();
        await reference.timings();
        const load = await client.run({ ...request, perLane: perLane(concurrency), thinkMs: config.blockMs, detail: true });
        // The last lines reach this process's stdout after the answers (the instances write them through a pipe).
        await new Promise((resolve) => setTimeout(resolve, 500));
        const hashes = (load.answers ?? []).flatMap((a) => (a.transaction ? [a.transaction] : []));
        const measured = {
          load,
          lines: capture.take(),
          reference: side.key === 'reference' ? await reference.timings() : [],
          arrivals: chain.arrivals(),
          blockOf: await chain.blockOf(hashes),
          blocks: chain.blocks(),
        };
        cells.push({ blockMs: config.blockMs, keys: config.keys, buyers: concurrency, side: side.key, attempted: load.attempted, ok: load.ok, throughput: load.throughput, errors: load.errors, rows: rowsOf(side.key, measured, config.blockMs) });
      }
    }
    return cells;
  } finally {
    await reference?.stop();
    await client.stop();
    capture.stop();
    await close();
  }
}

function inChild(config: Config): Promise<Cell[]> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL(import.meta.url), ['--one', JSON.stringify(config)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, LOG_LEVEL: 'DEBUG', LOCAL_MAX_INSTANCES: process.env.LOCAL_MAX_INSTANCES ?? String(Math.max(...config.levels)) },
    });
    let cells: Cell[] | undefined;
    let failure: string | undefined;
    child.on('message', (message: { cells?: Cell[]; error?: string }) => {
      cells = message.cells ?? cells;
      failure = message.error ?? failure;
    });
    child.once('error', reject);
    child.once('exit', (code) => (cells ? resolve(cells) : reject(new Error(failure ?? `exited with ${code}`))));
  });
}

if (process.argv[2] === '--one') {
  let message: { cells?: Cell[]; error?: string };
  try {
    message = { cells: await runOne(JSON.parse(process.argv[3]) as Config) };
  } catch (error) {
    message = { error: (error as Error).stack ?? String(error) };
  }
  process.send!(message, () => process.exit(0));
} else {
  const blocks = list('BENCH_BLOCKS', '2000,200');
  const keys = list('BENCH_KEYS', '4,8,16');
  const levels = list('BENCH_LEVELS', '1,4,16');
  const cpu = cpus();
  console.log(
    `Settlement timing: ${cpu.length} × ${cpu[0]?.model ?? 'unknown cpu'}, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} at the start; ` +
      `blocks every ${blocks.join(', ')} ms; key pools ${keys.join(', ')}; buyers ${levels.join(', ')} (paid requests per buyer ${levels.map((c) => `${c}: ${perLane(c)}`).join(', ')}); ` +
      'each block interval and key pool on a fresh embedded runtime in a process of its own, its functions at LOG_LEVEL=DEBUG' +
      (process.env.BENCH_PIN === 'dynamo' ? `; DynamoDB Local pinned to core ${cpu.length - 1}, everything else to the others` : '') +
      (process.env.BENCH_RENDERS === 'paused' ? '; renders paused (jobs accepted, settled and started; no render runs).' : '.'),
  );
  const cells: Cell[] = [];
  let failed = false;
  for (const blockMs of blocks) {
    for (const pool of keys) {
      const start = performance.now();
      try {
        cells.push(...(await inChild({ blockMs, keys: pool, levels })));
        console.log(`(blocks every ${blockMs} ms, ${pool} keys: ${((performance.now() - start) / 1000).toFixed(0)} s; load average now ${loadavg()[0].toFixed(2)})`);
      } catch (error) {
        failed = true;
        console.error(`blocks every ${blockMs} ms, ${pool} keys: the run failed:`, error);
      }
    }
  }
  printSides(cells);
  printPhases(cells);
  process.exit(failed ? 1 : 0);
}
