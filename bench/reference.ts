/**
 * The embedded runtimes of the bench (`npm run bench`, `npm run bench:reference`), and the side-by-side comparison
 * with the reference a user would pick instead of our service: bench/block-time.ts (the paid path at automine, 2000 ms
 * and 200 ms blocks, 1 to 64 buyers), the reference itself in bench/reference-server.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded, type EmbeddedRuntime } from '../lib/local/runtime.js';
import { compareUnderBlockTimes } from './block-time.js';

/**
 * An embedded runtime of its own for a bench run (free ports, a fresh state dir, quiet; its chain mining every
 * `blockIntervalMs` when given); `close` removes it all.
 */
export async function benchRuntime(options: { blockIntervalMs?: number; preconfirmations?: boolean; settlerKeys?: number; pauseRenders?: boolean } = {}): Promise<{ runtime: EmbeddedRuntime; stateDir: string; close(): Promise<void> }> {
  const stateDir = mkdtempSync(join(tmpdir(), 'paycall-bench-'));
  const runtime = await startEmbedded({
    generationPort: 0,
    chainPort: 0,
    stateDir,
    log: () => {},
    ...(options.blockIntervalMs ? { blockIntervalMs: options.blockIntervalMs } : {}),
    ...(options.preconfirmations ? { preconfirmations: true } : {}),
    // A key's nonces are sent one instance at a time (ADR 0005): a deployment serving tens of concurrent buyers runs a
    // pool of keys, as the runbook says; eight here unless the bench sizes the pool (bench/settlement.ts).
    settlerKeys: options.settlerKeys ?? 8,
    // Renders run on these same two cores here (on AWS in their own Lambdas): two at a time, as an operator reserving
    // render concurrency would have it, so the paid path is not measured under a pile of cold render instances.
    context: { renderReservedConcurrency: '2' },
    // Renders paused (bench:settlement, BENCH_RENDERS=paused): every workflow task waits until the runtime stops, as
    // a task waits on AWS for a throttled function, so a paid job is accepted, settled and started and no render
    // takes a core. What is left of the paid path's time is then the service's and the other emulators' own.
    ...(options.pauseRenders ? { beforeTask: () => new Promise<void>(() => {}) } : {}),
  });
  return {
    runtime,
    stateDir,
    close: async () => {
      await runtime.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** The side-by-side comparison (each block setting on a runtime of its own), its failure printed, not thrown. */
export async function compareWithReferenceReported(): Promise<boolean> {
  try {
    return await compareUnderBlockTimes();
  } catch (error) {
    console.error('side-by-side comparison failed:', error);
    return false;
  }
}
