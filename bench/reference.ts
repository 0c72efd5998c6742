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
export async function benchRuntime(options: { blockIntervalMs?: number; preconfirmations?: boolean } = {}): Promise<{ runtime: EmbeddedRuntime; stateDir: string; close(): Promise<void> }> {
  const stateDir = mkdtempSync(join(tmpdir(), 'paycall-bench-'));
  const runtime = await startEmbedded({
    generationPort: 0,
    chainPort: 0,
    stateDir,
    log: () => {},
    ...(options.blockIntervalMs ? { blockIntervalMs: options.blockIntervalMs } : {}),
    ...(options.preconfirmations ? { preconfirmations: true } : {}),
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
