/**
 * What the side-by-side bench yields for a block setting (its sides and their phases) and how it is printed: the
 * figures, the CPU split and the paid path's goals against the reference. Apart from bench/block-time.ts because
 * printing only reads a finished ModeResult, which has crossed a process boundary by then, never the runtime.
 */
import { cpus } from 'node:os';
import type { LoadResult } from './load.js';
import { MODEL_MS, REASONING_AGENT } from './bench-processes.js';
import type { CpuSplit } from './bench-cpu.js';
import type { BlockMode } from './block-time.js';

export interface SideSpec {
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

export interface Phase {
  concurrency: number;
  load: LoadResult;
  cpu: CpuSplit;
  onChain: string;
  /** JSON-RPC requests the chain answered during the timed load, per paid answer: receipt polls, and all methods. */
  rpc: { receipts: number; all: number };
}

export const f = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

/** The sides measured at every level against the reference (the reasoning side is at one buyer only). */
export type ComparedKey = Exclude<SideSpec['key'], 'reasoning'>;

export interface ModeResult {
  mode: BlockMode;
  sides: Record<ComparedKey, { spec: SideSpec; phases: Phase[] }> & { reasoning?: { spec: SideSpec; phases: Phase[] } };
  referencePollMs: number;
  gatewayMs: number;
}

export function printMode(r: ModeResult): void {
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

export function printCpu(r: ModeResult): void {
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
export function printGoals(results: ModeResult[]): void {
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
