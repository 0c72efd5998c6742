import { describe, expect, it, vi } from 'vitest';
import { RESERVED_RECONCILE_SECONDS, sweep, type SweepDeps } from '../../../lambdas/workflow/sweeper.js';
import type { JobRecord, JobStatus } from '../../../lambdas/store/jobs.js';
import type { LedgerItem, LockState } from '../../../lambdas/store/ledger.js';
import type { OnChainPayment, PaidOnChain } from '../../../lambdas/payments/core/paid-on-chain.js';

const CREATED = '2026-11-22T11:50:00.000Z';
const job = (jobId: string, status: JobStatus): JobRecord =>
  ({ jobId, status, product: 'agent_image', paymentKind: 'x402', amount: '150000', createdAt: CREATED, nonceKey: `eip155:8453:0xa:0xb:0x${jobId}` }) as JobRecord;
const TX = `0x${'7a'.repeat(32)}` as const;
const says = (answer: PaidOnChain) => vi.fn(async (_p: OnChainPayment): Promise<PaidOnChain> => answer);
const paid = () => says({ state: 'paid', transaction: TX });
const tokenJob = (jobId: string): JobRecord =>
  ({ jobId, status: 'reserved', product: 'agent_image', paymentKind: 'token', nonceKey: `token:iss:${jobId}` }) as JobRecord;

/** The job store's ledger items, tagged so a test can see which one travelled with which ledger move. */
const queueMark = (jobId: string, transaction: string) => ({ queue: [jobId, transaction] }) as unknown as LedgerItem;
const voidMark = (jobId: string, reason: string) => ({ void: [jobId, reason] }) as unknown as LedgerItem;

function deps(jobs: JobRecord[], over: Partial<SweepDeps> = {}) {
  const base = {
    jobs: {
      listStale: vi.fn(async (_: Date, statuses: JobStatus[] = ['queued', 'processing']) => jobs.filter((j) => statuses.includes(j.status))),
      fail: vi.fn(async (_jobId: string, _error: string, _from?: JobStatus[]) => true),
      queueItem: vi.fn(queueMark),
      voidItem: vi.fn(voidMark),
    },
    ledger: {
      markSettled: vi.fn(async (_nonceKey: string, _transaction: string, _item?: LedgerItem) => {}),
      markFailed: vi.fn(async (_nonceKey: string, _reason: string, _outcome: string, _item?: LedgerItem) => {}),
      state: vi.fn(async (_nonceKey: string): Promise<LockState | undefined> => 'locked'),
    },
    workflow: {
      start: vi.fn(async (_job: { jobId: string; product: string; provider: string }): Promise<'started' | 'exists'> => 'started'),
      state: vi.fn(async (_jobId: string, _product: string) => 'RUNNING' as never),
    },
    paidOnChain: says({ state: 'unused' }),
  };
  // The overrides keep the fakes' Mock types for the assertions.
  return { ...base, ...over } as typeof base & Pick<SweepDeps, 'now'>;
}

describe('Sweeper: a settled payment always has a job row and a receipt row', () => {
  it('looks for reserved jobs older than the short reconcile grace (voiding waits longer; sweep-reserved-promptly.test.ts)', async () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const d = deps([], { now: () => now });
    await sweep(d, 120);
    expect(d.jobs.listStale).toHaveBeenCalledWith(new Date(now.getTime() - RESERVED_RECONCILE_SECONDS * 1000), ['reserved']);
  });

  it('records the receipt (the transfer\'s transaction) with the queued job and starts a reserved job whose transfer the chain shows', async () => {
    const d = deps([job('r1', 'reserved')], { paidOnChain: paid() });
    const result = await sweep(d, 120);
    expect(d.paidOnChain).toHaveBeenCalledWith({ nonceKey: 'eip155:8453:0xa:0xb:0xr1', amount: 150_000n, notBefore: Date.parse(CREATED) });
    expect(d.ledger.markSettled).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xr1', TX, queueMark('r1', TX));
    expect(d.workflow.start).toHaveBeenCalledWith(expect.objectContaining({ jobId: 'r1', product: 'agent_image' }));
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
    expect(result.reconciled).toEqual(['r1']);
    expect(result.started).toEqual(['r1']);
  });

  it('voids at once a reserved job whose authorization was spent without paying (canceled), even before its validBefore', async () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const open = { ...job('r5', 'reserved'), updatedAt: now.toISOString(), validBefore: Math.floor(now.getTime() / 1000) + 300 };
    const d = deps([open], { now: () => now, paidOnChain: says({ state: 'spent', reason: 'the buyer canceled the authorization before it paid' }) });
    const result = await sweep(d, 120);
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
    expect(d.workflow.start).not.toHaveBeenCalled();
    expect(d.ledger.markFailed).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xr5', expect.stringMatching(/canceled/), 'nothing-moved', expect.anything());
    const [, reason, , item] = d.ledger.markFailed.mock.calls[0];
    expect(item).toEqual(voidMark('r5', reason));
    expect(result).toMatchObject({ voided: ['r5'], reconciled: [], started: [], running: [] });
  });

  it('decides nothing for a reserved job without an amount to look for (never a zero-value match)', async () => {
    const { amount: _amount, ...noAmount } = job('r7', 'reserved');
    const d = deps([noAmount as JobRecord], { paidOnChain: paid() });
    expect(await sweep(d, 120)).toMatchObject({ reconciled: [], voided: [], started: [] });
    expect(d.paidOnChain).not.toHaveBeenCalled();
  });

  it('voids a reserved job whose authorization was never used, releasing the lock (nothing moved)', async () => {
    const d = deps([job('r2', 'reserved')]);
    const result = await sweep(d, 120);
    expect(d.ledger.markFailed).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xr2', expect.any(String), 'nothing-moved', expect.anything());
    const [, reason, , item] = d.ledger.markFailed.mock.calls[0];
    expect(item).toEqual(voidMark('r2', reason));
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
    expect(d.workflow.start).not.toHaveBeenCalled();
    expect(result.voided).toEqual(['r2']);
  });

  it('does not void an unused authorization that could still land (before its validBefore); voids it after', async () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const at = Math.floor(now.getTime() / 1000);
    const open = { ...job('r3', 'reserved'), validBefore: at + 60 };
    const d = deps([open], { now: () => now });
    expect(await sweep(d, 120)).toMatchObject({ voided: [], running: ['r3'] });
    expect(d.ledger.markFailed).not.toHaveBeenCalled();

    const expired = { ...job('r4', 'reserved'), validBefore: at - 1 };
    const e = deps([expired], { now: () => now });
    expect((await sweep(e, 120)).voided).toEqual(['r4']);
    expect(e.ledger.markFailed).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xr4', expect.any(String), 'nothing-moved', expect.anything());
  });

  it('leaves a reserved job without a payment lock alone', async () => {
    const d = deps([{ ...job('r6', 'reserved'), nonceKey: undefined }], { paidOnChain: paid() });
    const result = await sweep(d, 120);
    expect(d.paidOnChain).not.toHaveBeenCalled();
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
    expect(result).toMatchObject({ reconciled: [], voided: [], started: [] });
  });
});

describe('Sweeper: a reserved token job is never delivered', () => {
  it('voids one whose charge was never sent (ledger `locked`) and releases the token (nothing moved)', async () => {
    const d = deps([tokenJob('t1')], { paidOnChain: paid() });
    d.ledger.state.mockResolvedValue('locked');
    const result = await sweep(d, 120);
    expect(d.ledger.state).toHaveBeenCalledWith('token:iss:t1');
    expect(d.ledger.markFailed).toHaveBeenCalledWith('token:iss:t1', expect.any(String), 'nothing-moved', expect.anything());
    const [, reason, , item] = d.ledger.markFailed.mock.calls[0];
    expect(item).toEqual(voidMark('t1', reason));
    expect(result.voided).toEqual(['t1']);
    // The chain knows nothing of tokens, and a job whose money never moved never runs.
    expect(d.paidOnChain).not.toHaveBeenCalled();
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
    expect(d.workflow.start).not.toHaveBeenCalled();
  });

  it('voids one whose charge was sent without an answer (ledger `charging`) and keeps the token locked (may have moved)', async () => {
    const d = deps([tokenJob('t2')], { paidOnChain: paid() });
    d.ledger.state.mockResolvedValue('charging');
    const result = await sweep(d, 120);
    expect(d.ledger.markFailed).toHaveBeenCalledWith('token:iss:t2', expect.any(String), 'may-have-moved', expect.anything());
    const [, reason, , item] = d.ledger.markFailed.mock.calls[0];
    expect(item).toEqual(voidMark('t2', reason));
    expect(result.voided).toEqual(['t2']);
    expect(d.paidOnChain).not.toHaveBeenCalled();
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
    expect(d.workflow.start).not.toHaveBeenCalled();
  });

  it('voids a token job even while its token is still valid (no validBefore wait)', async () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const d = deps([{ ...tokenJob('t3'), validBefore: Math.floor(now.getTime() / 1000) + 600 }], { now: () => now });
    expect(await sweep(d, 120)).toMatchObject({ voided: ['t3'], running: [], started: [] });
  });
});

describe('Sweeper: a job always ends completed or failed', () => {
  it('starts a durable job whose execution never started', async () => {
    const d = deps([job('q1', 'queued')]);
    expect((await sweep(d, 120)).started).toEqual(['q1']);
    expect(d.workflow.start).toHaveBeenCalledWith(expect.objectContaining({ jobId: 'q1', product: 'agent_image' }));
  });
  it('leaves a running execution alone and fails a job whose execution ended without marking it', async () => {
    const paid = { ...job('p3', 'processing'), payer: '0xbuyer', transaction: '0xpaid' } as JobRecord;
    const d = deps([job('p1', 'processing'), job('p2', 'processing'), paid], {
      workflow: { start: vi.fn(async () => 'exists' as const), state: vi.fn(async (id: string) => (id === 'p1' ? 'RUNNING' : 'FAILED') as never) },
    });
    const result = await sweep(d, 120);
    expect(result.running).toEqual(['p1']);
    expect(result.failed).toEqual(['p2', 'p3']);
    expect(d.jobs.fail).toHaveBeenCalledTimes(2);
    // A job whose payment settled is failed with its refund owed (in the same write); one with no receipt is not.
    expect(d.jobs.fail).toHaveBeenCalledWith('p2', expect.stringContaining('Generation failed'), ['queued', 'processing'], false);
    expect(d.jobs.fail).toHaveBeenCalledWith('p3', expect.stringContaining('Generation failed'), ['queued', 'processing'], true);
  });
  it('keeps sweeping other jobs when one fails', async () => {
    const d = deps([job('a', 'queued'), job('b', 'queued')], {
      workflow: { start: vi.fn(async ({ jobId: id }: { jobId: string }) => { if (id === 'a') throw new Error('throttled'); return 'started' as const; }), state: vi.fn() },
    });
    expect((await sweep(d, 120)).started).toEqual(['b']);
  });
  it('keeps sweeping other reserved jobs when one cannot be reconciled', async () => {
    const d = deps([job('x', 'reserved'), job('y', 'reserved')], {
      paidOnChain: vi.fn(async ({ nonceKey }: OnChainPayment): Promise<PaidOnChain> => { if (nonceKey.endsWith('0xx')) throw new Error('rpc down'); return { state: 'unused' }; }),
    });
    expect((await sweep(d, 120)).voided).toEqual(['y']);
  });
});
