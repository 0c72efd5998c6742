/**
 * A poll of a reserved job reconciles it (lambdas/workflow/poll-reconcile.ts), end to end on the embedded runtime's real parts (DynamoDB Local, the local chain, the local
 * Step Functions, the sweeper run by its own function instances on a schedule): a transfer broadcast without a
 * receipt by the request's deadline leaves the job `reserved`; when the transfer lands, the next scheduled sweep
 * records the receipt and starts the job — seconds after its money, not after the 600 s void grace. Nobody calls
 * the sweeper by hand here. Spec: "one payment pays for one job", "a job always ends completed or failed".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedRuntime } from '../../lib/local/runtime.js';
import { purchaseWithPendingTransfer } from '../support/pending-purchase.js';

/** The schedule this test runs the sweeper on (the runtime's default is 10 s). */
const SWEEP_INTERVAL_MS = 500;
/** The job must start within this long of its transfer landing: the short reconcile grace plus a few sweeps. */
const PROMPTLY_MS = 15_000;

let runtime: EmbeddedRuntime;
let stateDir: string;
const logs: string[] = [];

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'prompt-reconcile-'));
  runtime = await startEmbedded({
    generationPort: 0,
    chainPort: 0,
    stateDir,
    log: (line) => logs.push(line),
    renderWaitMs: 100,
    sweepIntervalMs: SWEEP_INTERVAL_MS,
  });
});

afterAll(async () => {
  await runtime?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

async function until<T>(what: string, ms: number, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms; last seen ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Settlement of unknown outcome: a transfer that lands starts its job at the next sweep', () => {
  it('queues and runs the job within seconds of the transfer landing, through the scheduled sweeper', async () => {
    // Modules that read configuration at construction load after the runtime has set it.
    const { JobStore } = await import('../../lambdas/store/jobs.js');
    const { DynamoPaymentLedger } = await import('../../lambdas/store/ledger.js');
    const { info, chain } = runtime;
    const { purchase, buyer, rpc, payment, requirement } = await purchaseWithPendingTransfer(runtime);
    expect(purchase.type).toBe('accepted');
    const jobId = (purchase as { job: { jobId: string } }).job.jobId;
    const jobs = new JobStore();
    expect(await jobs.get(jobId)).toMatchObject({ status: 'reserved' });

    // Unused on chain so far, and its authorization still valid: the scheduled sweeps leave it reserved.
    await new Promise((r) => setTimeout(r, 3 * SWEEP_INTERVAL_MS));
    expect(await jobs.get(jobId)).toMatchObject({ status: 'reserved' });

    await rpc('evm_mine');
    expect(await chain.balanceOf(buyer.address)).toBe(850_000n);
    const landed = Date.now();

    const started = await until(
      'the job left `reserved`',
      PROMPTLY_MS,
      () => jobs.get(jobId),
      (job) => job?.status !== 'reserved',
    );
    expect(started).toMatchObject({ transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) }) // our transfer's transaction, from the chain's events;
    expect(['queued', 'processing', 'completed']).toContain(started!.status);
    expect(Date.now() - landed).toBeLessThan(PROMPTLY_MS);
    expect(await new DynamoPaymentLedger().state(payment.nonceKey)).toBe('settled');
    // The sweep that did it was the scheduled one, run by the sweeper function (it reports once its sweep ends).
    await until('the scheduled sweep reported it', 5_000, async () => logs.filter((line) => line.startsWith('[local] sweep')), (lines) =>
      lines.some((line) => /^\[local\] sweep \(JobSweeper\): reconciled 1, started 1$/.test(line)),
    );

    const done = await until('the job ended', 30_000, () => jobs.get(jobId), (job) => job?.status === 'completed' || job?.status === 'failed');
    expect(done).toMatchObject({ status: 'completed' });
  });
});
