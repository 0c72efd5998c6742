/**
 * The settlement timing the bench reads (lambdas/payments/settlement-timing.ts, bench/settlement.ts): one paid
 * generation request through the embedded runtime — gateway, the function's own instance, DynamoDB Local, the local
 * chain mining every 200 ms — with its functions at LOG_LEVEL=DEBUG writes its verify, purchase and settle lines under
 * one request id, and the bench turns them, the buyer's marks and the chain's view into every phase: each a finite,
 * non-negative duration, the phases before the send adding up to no more than the send itself came after the request.
 * At any other level nothing is measured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedRuntime } from '../../lib/local/runtime.js';
import { paidOnce, payingFetch } from '../../bench/load.js';
import { captureTimingLines, watchChain, type ChainWatch, type LineCapture } from '../../bench/settlement-capture.js';
import { rowsOf } from '../../bench/settlement-report.js';
import { startMarks } from '../../lambdas/payments/settlement-timing.js';

const BLOCK_MS = 200;

let runtime: EmbeddedRuntime;
let stateDir: string;
let capture: LineCapture;
let chain: ChainWatch;
const level = process.env.LOG_LEVEL;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'settlement-timing-'));
  // The function instances take their level from this process's environment when they start.
  process.env.LOG_LEVEL = 'DEBUG';
  capture = captureTimingLines();
  runtime = await startEmbedded({ generationPort: 0, chainPort: 0, stateDir, log: () => {}, blockIntervalMs: BLOCK_MS, sweepIntervalMs: 0 });
  chain = watchChain(runtime.chain.provider);
}, 120_000);

afterAll(async () => {
  capture?.stop();
  process.env.LOG_LEVEL = level;
  await runtime?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

describe('settlement timing', () => {
  it('one paid request yields each phase before the send, the slip and the post-block latency', async () => {
    const pay = payingFetch(runtime.chain.buyers[0], fetch);
    const outcome = await paidOnce(pay, `${runtime.info.baseUrl}/agent/image`, JSON.stringify({ prompt: 'a lighthouse at dusk' }));
    expect(outcome.error).toBeUndefined();
    expect(outcome.status).toBe(202);
    expect(outcome.transaction).toMatch(/^0x[0-9a-f]{64}$/i);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const lines = capture.take();
    const layers = lines.map((l) => l.layer).sort();
    expect(layers).toEqual(['purchase', 'settle', 'verify']);
    expect(new Set(lines.map((l) => l.function_request_id)).size).toBe(1);

    const measured = {
      load: { answers: [outcome] } as never,
      lines,
      reference: [],
      arrivals: chain.arrivals(),
      blockOf: await chain.blockOf([outcome.transaction!]),
      blocks: chain.blocks(),
    };
    const [row] = rowsOf('generation', measured, BLOCK_MS);
    const phases = ['toVerify', 'offChain', 'chainReads', 'verifyOwn', 'lock', 'lockAndReads', 'keyWait', 'estimate', 'nonceRead', 'sign', 'commit', 'broadcast', 'held', 'preSend', 'receiptSeen', 'postBlock', 'slipBlocks'];
    for (const phase of phases) {
      expect(row[phase], phase).toBeTypeOf('number');
      expect(Number.isFinite(row[phase]) && row[phase]! >= 0, `${phase} = ${row[phase]}`).toBe(true);
    }
    // The verification and the settlement's steps all happened before the transfer reached the node.
    expect(row.verifyOwn! + row.nonceRead! + row.commit! + row.broadcast!).toBeLessThanOrEqual(row.preSend! + 1);
  });

  it('measures nothing below DEBUG', () => {
    // This process's logger kept the suite's level (read at import), which is not DEBUG.
    expect(startMarks()).toBeUndefined();
  });
});
