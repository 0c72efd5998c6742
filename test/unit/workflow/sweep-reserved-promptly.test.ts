/**
 * Spec "one payment pays for one job": a job whose payment's outcome was unknown starts as soon as the chain shows
 * the authorization used, not after the grace that only voiding needs. Voiding still waits for
 * both: the request's own life (RESERVED_GRACE_SECONDS) and the authorization's validBefore.
 */
import { describe, expect, it, vi } from 'vitest';
import { RESERVED_GRACE_SECONDS, RESERVED_RECONCILE_SECONDS, sweep, type SweepDeps } from '../../../lambdas/workflow/sweeper.js';
import type { JobRecord } from '../../../lambdas/store/jobs.js';
import { PurchaseConflictError, type LockState } from '../../../lambdas/store/ledger.js';
import { logger } from '../../../lambdas/shared/logger.js';
import type { OnChainPayment, PaidOnChain } from '../../../lambdas/payments/core/paid-on-chain.js';

const TX = `0x${'7a'.repeat(32)}` as const;

const NOW = new Date('2026-11-22T12:00:00Z');
const AT = Math.floor(NOW.getTime() / 1000);
const secondsAgo = (s: number) => new Date(NOW.getTime() - s * 1000).toISOString();

/** A reserved job last touched `age` seconds before NOW. */
const reserved = (jobId: string, age: number, over: Partial<JobRecord> = {}): JobRecord =>
  ({
    jobId,
    status: 'reserved',
    product: 'agent_image',
    paymentKind: 'x402',
    nonceKey: `eip155:8453:0xa:0xb:0x${jobId}`,
    amount: '150000',
    createdAt: secondsAgo(age),
    updatedAt: secondsAgo(age),
    ...over,
  }) as JobRecord;

function deps(jobs: JobRecord[], used: boolean, over: Partial<SweepDeps> = {}) {
  const base = {
    jobs: {
      // The index query: reserved jobs touched before `olderThan`.
      listStale: vi.fn(async (olderThan: Date, statuses = ['queued', 'processing']) =>
        jobs.filter((j) => statuses.includes(j.status) && Date.parse(j.updatedAt) < olderThan.getTime()),
      ),
      fail: vi.fn(async () => true),
      queueItem: vi.fn((jobId: string, transaction: string) => ({ queue: [jobId, transaction] }) as never),
      voidItem: vi.fn((jobId: string, reason: string) => ({ void: [jobId, reason] }) as never),
    },
    ledger: {
      markSettled: vi.fn(async (_nonceKey: string, _transaction: string, _item?: unknown) => {}),
      markFailed: vi.fn(async (_nonceKey: string, _reason: string, _outcome: string, _item?: unknown) => {}),
      state: vi.fn(async (): Promise<LockState | undefined> => 'locked'),
    },
    workflow: { start: vi.fn(async () => 'started' as const), state: vi.fn(async () => 'RUNNING' as never) },
    paidOnChain: vi.fn(async (_p: OnChainPayment): Promise<PaidOnChain> => (used ? { state: 'paid', transaction: TX } : { state: 'unused' })),
    now: () => NOW,
  };
  return { ...base, ...over } as typeof base;
}

describe('Sweeper: a landed payment starts its job at the next sweep', () => {
  it('waits only a few seconds (not the void grace) before asking the chain about a reserved job', async () => {
    expect(RESERVED_RECONCILE_SECONDS).toBeGreaterThan(0);
    expect(RESERVED_RECONCILE_SECONDS).toBeLessThanOrEqual(30);
    const d = deps([], true);
    await sweep(d, 120);
    expect(d.jobs.listStale).toHaveBeenCalledWith(new Date(NOW.getTime() - RESERVED_RECONCILE_SECONDS * 1000), ['reserved']);
  });

  it('records the receipt and starts a job reserved seconds ago whose transfer the chain shows', async () => {
    const d = deps([reserved('j1', RESERVED_RECONCILE_SECONDS + 1, { validBefore: AT + 300 })], true);
    const result = await sweep(d, 120);
    expect(d.ledger.markSettled).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xj1', TX, { queue: ['j1', TX] });
    expect(d.workflow.start).toHaveBeenCalledWith(expect.objectContaining({ jobId: 'j1', product: 'agent_image' }));
    expect(result).toMatchObject({ reconciled: ['j1'], started: ['j1'], voided: [] });
  });

  it('leaves a job younger than the short grace to the request still recording it', async () => {
    const d = deps([reserved('j2', 1, { validBefore: AT + 300 })], true);
    expect(await sweep(d, 120)).toMatchObject({ reconciled: [], running: [], voided: [] });
    expect(d.paidOnChain).not.toHaveBeenCalled();
  });

  it('counts a job its own request recorded meanwhile as nobody’s failure: no error, nothing started twice', async () => {
    const d = deps([reserved('j3', 20, { validBefore: AT + 300 })], true);
    d.ledger.markSettled.mockRejectedValue(new PurchaseConflictError('ledger transaction item 1 failed its condition'));
    const errors = vi.spyOn(logger, 'error');
    try {
      const result = await sweep(d, 120);
      expect(result).toMatchObject({ reconciled: [], started: [], voided: [] });
      expect(d.workflow.start).not.toHaveBeenCalled();
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });
});

describe('Sweeper: voiding still waits for the request and for validBefore', () => {
  it('does not void an unused authorization past its validBefore while the job is younger than the void grace', async () => {
    const d = deps([reserved('v1', 60, { validBefore: AT - 1 })], false);
    expect(await sweep(d, 120)).toMatchObject({ voided: [], running: ['v1'] });
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
  });

  it('does not void an unused authorization before its validBefore, however old the job', async () => {
    const d = deps([reserved('v2', RESERVED_GRACE_SECONDS + 60, { validBefore: AT + 60 })], false);
    expect(await sweep(d, 120)).toMatchObject({ voided: [], running: ['v2'] });
  });

  it('voids an unused authorization once both have passed (nothing moved)', async () => {
    const d = deps([reserved('v3', RESERVED_GRACE_SECONDS + 1, { validBefore: AT - 1 })], false);
    expect((await sweep(d, 120)).voided).toEqual(['v3']);
    expect(d.ledger.markFailed).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xv3', expect.any(String), 'nothing-moved', expect.anything());
  });

  it('leaves a token job alone until the void grace: its charge may still be in flight', async () => {
    const token = reserved('t1', 60, { paymentKind: 'token', nonceKey: 'token:iss:t1' });
    const d = deps([token], false);
    d.ledger.state.mockResolvedValue('charging');
    expect(await sweep(d, 120)).toMatchObject({ voided: [], reconciled: [] });
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
    const old = deps([{ ...token, updatedAt: secondsAgo(RESERVED_GRACE_SECONDS + 1) }], false);
    expect((await sweep(old, 120)).voided).toEqual(['t1']);
  });
});
