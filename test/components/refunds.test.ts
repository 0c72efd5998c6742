/**
 * Automatic refunds, on the embedded runtime's real parts: a paid job whose render fails is refunded by the state
 * machine's "Refund payment" task (its function instance, its IAM policy, the refund wallet's key through the local
 * Secrets Manager, the settler), the buyer's balance ends where it started, and no retry, crash or concurrent attempt
 * pays twice (the refund's EIP-3009 nonce is derived from the job id). A refund that cannot be made is recorded
 * `failed` and made by the sweeper once it can.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedRuntime } from '../../lib/local/runtime.js';
import { chainReader, paidJobThatFails as paidJob, until } from '../support/refunds.js';

let runtime: EmbeddedRuntime;
let stateDir: string;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'refunds-'));
  // Sweeps by hand (the last case asserts what one sweep does).
  runtime = await startEmbedded({ generationPort: 0, chainPort: 0, stateDir, log: () => {}, renderWaitMs: 100, sweepIntervalMs: 0 });
  // This process refunds by hand as the sweeper does: with the sweeper's variable naming the refund wallet's secret
  // (the template gives it to the sweeper and the refund task only).
  const { REFUND_ENV } = await import('../../lambdas/payments/refund.js');
  process.env[REFUND_ENV.secretId] = 'paycall/refund-key';
});

afterAll(async () => {
  await runtime?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

const balanceOf = (address: `0x${string}`) => chainReader(runtime).balanceOf(address);
const transfersTo = (address: `0x${string}`) => chainReader(runtime).transfersTo(address);
const paidJobThatFails = () => paidJob(runtime);

describe('Automatic refunds of failed paid jobs', () => {
  it('refunds a failed render exactly once: the buyer ends where they started; retries and crashes do not pay twice', async () => {
    const { JobRefundStore: JobStore } = await import('../../lambdas/store/job-refunds.js');
    const { refundFailedJob } = await import('../../lambdas/jobs/refund.js');
    const { refunder } = await import('../../lambdas/workflow/refund-deps.js');
    const jobs = new JobStore();
    const { jobId, buyer } = await paidJobThatFails();
    expect(await balanceOf(buyer)).toBe(850_000n);

    // The state machine fails the job, then its "Refund payment" state sends the money back.
    const job = await until(() => jobs.get(jobId), (j) => j?.refund?.status === 'refunded', 'the refund');
    expect(job).toMatchObject({ status: 'failed', amount: '150000', refund: { status: 'refunded', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });
    expect(job!.refundOpen).toBeUndefined(); // no longer owed: out of the open-refunds index
    expect(await balanceOf(buyer)).toBe(1_000_000n);
    const refunds = await transfersTo(buyer);
    expect(refunds.filter((t) => t.from.toLowerCase() === runtime.chain.payTo.toLowerCase())).toEqual([
      { from: expect.anything(), value: 150_000n, transaction: job!.refund!.transaction },
    ]);
    // The poll answer says so (additive to the spec's shape).
    const poll = await (await fetch(`${runtime.info.baseUrl}/agent/image/${jobId}`)).json();
    expect(poll).toMatchObject({ status: 'failed', refund: { status: 'refunded', transaction: job!.refund!.transaction } });

    // A retried refund task finds it recorded and does nothing.
    expect(await refundFailedJob({ jobs, refunder: refunder() }, jobId)).toBe('already-refunded');
    // A crash after sending and before recording (the row still says pending), retried twice at once: the chain
    // shows the refund's nonce used, so both record the first transaction and none sends another.
    await jobs.setRefund(jobId, { status: 'pending' }).catch(() => undefined);
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient } = await import('../../lambdas/store/dynamo.js');
    const { storeConfig } = await import('../../lambdas/shared/config.js');
    await documentClient().send(
      new UpdateCommand({ TableName: storeConfig().jobsTable, Key: { jobId }, UpdateExpression: 'SET refund = :r, refundOpen = :o', ExpressionAttributeValues: { ':r': { status: 'pending' }, ':o': 'pending' } }),
    );
    const again = await Promise.all([refundFailedJob({ jobs, refunder: refunder() }, jobId), refundFailedJob({ jobs, refunder: refunder() }, jobId)]);
    expect(again).toEqual(['refunded', 'refunded']);
    expect((await jobs.get(jobId))!.refund).toEqual({ status: 'refunded', transaction: job!.refund!.transaction });
    expect(await balanceOf(buyer)).toBe(1_000_000n);
    expect((await transfersTo(buyer)).filter((t) => t.from.toLowerCase() === runtime.chain.payTo.toLowerCase())).toHaveLength(1);
  });

  it('records a refund that cannot be made as failed, and the sweeper makes it once it can', async () => {
    const { JobRefundStore: JobStore } = await import('../../lambdas/store/job-refunds.js');
    const { refundFailedJob } = await import('../../lambdas/jobs/refund.js');
    const { refunder } = await import('../../lambdas/workflow/refund-deps.js');
    const { sweep } = await import('../../lambdas/workflow/sweeper.js');
    const { sweepDeps } = await import('../../lambdas/workflow/sweep-deps.js');
    const { PutCommand, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient } = await import('../../lambdas/store/dynamo.js');
    const { storeConfig } = await import('../../lambdas/shared/config.js');
    const jobs = new JobStore();
    const { jobId, buyer } = await paidJobThatFails();
    await until(() => jobs.get(jobId), (j) => j?.refund?.status === 'refunded', 'the first refund');
    // Another failed paid job of this buyer (written as the ledger would have), whose refund the wallet cannot cover:
    // the dev wallet holds only what it was paid, and it has paid that back. Refused before broadcast, nothing
    // moves, the refund is recorded failed and stays owed.
    expect(await balanceOf(runtime.chain.payTo)).toBeLessThan(150_000n);
    const stuck = { ...(await jobs.get(jobId))!, jobId: crypto.randomUUID(), refund: { status: 'pending' as const }, refundOpen: 'pending' as const, refundAt: new Date().toISOString() };
    await documentClient().send(new PutCommand({ TableName: storeConfig().jobsTable, Item: stuck }));
    expect(await refundFailedJob({ jobs, refunder: refunder() }, stuck.jobId)).toBe('failed');
    expect(await jobs.get(stuck.jobId)).toMatchObject({ refund: { status: 'failed', reason: expect.stringContaining('exceeds balance') }, refundOpen: 'failed' });
    expect(await balanceOf(buyer)).toBe(1_000_000n);
    // Not retried before REFUND_RETRY_SECONDS.
    expect((await sweep(sweepDeps(), 3600)).refunded).toEqual([]);

    // The operator tops the wallet up; the next sweep after REFUND_RETRY_SECONDS (moved back here) makes the refund.
    await runtime.chain.fund(runtime.chain.payTo, 150_000n);
    await documentClient().send(
      new UpdateCommand({ TableName: storeConfig().jobsTable, Key: { jobId: stuck.jobId }, UpdateExpression: 'SET refundAt = :t', ExpressionAttributeValues: { ':t': new Date(Date.now() - 61_000).toISOString() } }),
    );
    const result = await sweep(sweepDeps(), 3600);
    expect(result.refunded).toEqual([stuck.jobId]);
    expect(await jobs.get(stuck.jobId)).toMatchObject({ refund: { status: 'refunded', transaction: expect.stringMatching(/^0x/) } });
    expect(await balanceOf(buyer)).toBe(1_150_000n);
    // Nothing owed is left, so the next sweep touches no refund.
    expect((await sweep(sweepDeps(), 3600)).refunded).toEqual([]);
  });
});
