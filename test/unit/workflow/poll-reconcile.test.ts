/**
 * A poll of a reserved job reconciles it (lambdas/workflow/poll-reconcile.ts), bounded: only a reserved job with a payment, only
 * when the poll wins the job's claim, the sweeper's rule for the rest, and never a failed poll. The end-to-end case
 * (DynamoDB Local, the chain, the poll function's own policy) is test/components/settlement-reconcile.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { POLL_RECONCILE_SECONDS, reconcileOnPoll } from '../../../lambdas/workflow/poll-reconcile.js';
import { RESERVED_GRACE_SECONDS } from '../../../lambdas/workflow/sweeper.js';
import type { JobRecord, JobStatus } from '../../../lambdas/store/jobs.js';
import type { LedgerItem } from '../../../lambdas/store/ledger.js';
import type { OnChainPayment, PaidOnChain } from '../../../lambdas/payments/core/paid-on-chain.js';

const TX = `0x${'7a'.repeat(32)}` as const;

const NOW = new Date('2026-11-22T12:00:00Z');
const job = (status: JobStatus, over: Partial<JobRecord> = {}): JobRecord =>
  ({
    jobId: 'j1',
    status,
    product: 'agent_image',
    paymentKind: 'x402',
    nonceKey: 'eip155:8453:0xa:0xb:0xj1',
    amount: '150000',
    createdAt: new Date(NOW.getTime() - 30_000).toISOString(),
    validBefore: NOW.getTime() / 1000 + 300,
    updatedAt: new Date(NOW.getTime() - 30_000).toISOString(),
    ...over,
  }) as JobRecord;

function deps(claimed = true, used = false, spent = false) {
  const chain: PaidOnChain = used ? { state: 'paid', transaction: TX } : spent ? { state: 'spent', reason: 'the buyer canceled the authorization before it paid' } : { state: 'unused' };
  return {
    jobs: {
      claimReconcile: vi.fn(async (_jobId: string, _seconds: number) => claimed),
      queueItem: vi.fn((jobId: string, transaction: string) => ({ queue: [jobId, transaction] }) as unknown as LedgerItem),
      voidItem: vi.fn((jobId: string, reason: string) => ({ void: [jobId, reason] }) as unknown as LedgerItem),
      get: vi.fn(async (jobId: string) => job('queued', { jobId, transaction: TX })),
    },
    ledger: {
      markSettled: vi.fn(async (_nonceKey: string, _transaction: string, _item?: LedgerItem) => {}),
      markFailed: vi.fn(async (_nonceKey: string, _reason: string, _outcome: string, _item?: LedgerItem) => {}),
      state: vi.fn(async () => 'locked' as const),
    },
    workflow: { start: vi.fn(async (): Promise<'started' | 'exists'> => 'started') },
    paidOnChain: vi.fn(async (_p: OnChainPayment): Promise<PaidOnChain> => chain),
    now: () => NOW,
  };
}

describe('A poll of a reserved job reconciles it, bounded', () => {
  it('leaves every job that is not reserved, or has no payment, to a plain read: no claim, no chain read', async () => {
    for (const j of [job('queued'), job('processing'), job('completed'), job('failed'), job('reserved', { nonceKey: undefined })]) {
      const d = deps(true, true);
      expect(await reconcileOnPoll(d, j)).toBe(j);
      expect(d.jobs.claimReconcile).not.toHaveBeenCalled();
      expect(d.paidOnChain).not.toHaveBeenCalled();
    }
  });

  it('asks the chain only when it wins the job’s claim (one poll per job per interval)', async () => {
    const d = deps(false, true);
    const j = job('reserved');
    expect(await reconcileOnPoll(d, j)).toBe(j);
    expect(d.jobs.claimReconcile).toHaveBeenCalledWith('j1', POLL_RECONCILE_SECONDS);
    expect(d.paidOnChain).not.toHaveBeenCalled();
  });

  it('records the receipt with the job queued, starts it, and answers the row as it now is', async () => {
    const d = deps(true, true);
    const answered = await reconcileOnPoll(d, job('reserved'));
    expect(d.ledger.markSettled).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xj1', TX, { queue: ['j1', TX] });
    expect(d.workflow.start).toHaveBeenCalledWith(expect.objectContaining({ jobId: 'j1', product: 'agent_image' }));
    expect(answered).toMatchObject({ status: 'queued', transaction: TX });
  });

  it('voids a job whose authorization the buyer canceled, while it is still valid, and answers the voided row', async () => {
    const d = deps(true, false, true);
    d.jobs.get.mockResolvedValue(job('failed'));
    const answered = await reconcileOnPoll(d, job('reserved'));
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
    expect(d.workflow.start).not.toHaveBeenCalled();
    expect(d.ledger.markFailed).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xj1', expect.stringMatching(/canceled/), 'nothing-moved', expect.anything());
    expect(answered).toMatchObject({ status: 'failed' });
  });

  it('keeps an unused authorization waiting while it can still be used (the sweeper’s rule), without a re-read', async () => {
    const d = deps(true, false);
    const j = job('reserved');
    expect(await reconcileOnPoll(d, j)).toBe(j);
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
    expect(d.jobs.get).not.toHaveBeenCalled();
  });

  it('voids an unused, expired authorization once its request is long over, as the sweeper would', async () => {
    const d = deps(true, false);
    const old = job('reserved', {
      validBefore: NOW.getTime() / 1000 - 1,
      updatedAt: new Date(NOW.getTime() - (RESERVED_GRACE_SECONDS + 1) * 1000).toISOString(),
    });
    await reconcileOnPoll(d, old);
    expect(d.ledger.markFailed).toHaveBeenCalledWith(old.nonceKey, 'settlement was not confirmed', 'nothing-moved', {
      void: ['j1', 'settlement was not confirmed'],
    });
    expect(d.jobs.get).toHaveBeenCalledWith('j1');
  });

  it('never fails the poll: a chain read that throws answers the row it read', async () => {
    const d = deps(true, true);
    d.paidOnChain.mockRejectedValue(new Error('rpc down'));
    const j = job('reserved');
    expect(await reconcileOnPoll(d, j)).toBe(j);
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
  });
});
