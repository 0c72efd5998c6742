import { describe, expect, it, vi } from 'vitest';
import { RECONCILED_RUN_NOTE, RUN_IDLE_SECONDS, sweep, type SweepDeps } from '../../../lambdas/workflow/sweeper.js';
import type { OnChainPayment, PaidOnChain } from '../../../lambdas/payments/core/paid-on-chain.js';
import type { LedgerItem } from '../../../lambdas/store/ledger.js';
import type { RunRecord, RunStatus } from '../../../lambdas/store/runs.js';

const CREATED = '2026-11-22T11:50:00.000Z';
const run = (runId: string, status: RunStatus): RunRecord =>
  ({ runId, status, mode: 'paid', payer: '0xpayer', cost: '60000', createdAt: CREATED, nonceKey: `eip155:8453:0xa:0xb:0x${runId}` }) as RunRecord;
/** What the chain is asked of run `runId`: its nonce key, its price and when it was recorded. */
const asked = (runId: string): OnChainPayment => ({ nonceKey: `eip155:8453:0xa:0xb:0x${runId}`, amount: 60_000n, notBefore: Date.parse(CREATED) });
const TX = `0x${'7a'.repeat(32)}` as const;
const paid = vi.fn(async (_p: OnChainPayment): Promise<PaidOnChain> => ({ state: 'paid', transaction: TX }));
const says = (answer: PaidOnChain) => vi.fn(async (_p: OnChainPayment): Promise<PaidOnChain> => answer);

/** The run store's ledger items, tagged so a test can see which one travelled with which ledger move. */
const reconciledMark = (runId: string, transaction: string, note: string) => ({ reconciled: [runId, transaction, note] }) as unknown as LedgerItem;
const unknownMark = (runId: string, error: string) => ({ unknown: [runId, error] }) as unknown as LedgerItem;
const failMark = (runId: string, error: string, from?: readonly RunStatus[]) => ({ failed: [runId, error, from] }) as unknown as LedgerItem;

function deps(runs: RunRecord[], over: Partial<SweepDeps> = {}) {
  const base = {
    jobs: {
      listStale: vi.fn(async () => []),
      fail: vi.fn(async () => true),
      queueItem: vi.fn(() => ({}) as LedgerItem),
      voidItem: vi.fn(() => ({}) as LedgerItem),
    },
    runs: {
      listStale: vi.fn(async (_: Date, statuses: readonly RunStatus[] = []) => runs.filter((r) => statuses.includes(r.status))),
      reconciledItem: vi.fn(reconciledMark),
      unknownItem: vi.fn(unknownMark),
      failItem: vi.fn(failMark),
    },
    ledger: {
      markSettled: vi.fn(async (_nonceKey: string, _transaction: string, _item?: LedgerItem) => {}),
      markFailed: vi.fn(async (_nonceKey: string, _reason: string, _outcome: string, _item?: LedgerItem) => {}),
      state: vi.fn(async () => 'locked' as const),
    },
    workflow: { start: vi.fn(async () => 'started' as const), state: vi.fn(async () => 'RUNNING' as never) },
    paidOnChain: says({ state: 'unused' }),
  };
  return { ...base, ...over } as typeof base & Pick<SweepDeps, 'now'>;
}

describe('Sweeper: a paid run ends done or failed, and its payment with it', () => {
  it('looks for open runs (running, settlement-unknown) idle longer than a run can live', async () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const d = deps([], { now: () => now });
    await sweep(d, 120);
    expect(RUN_IDLE_SECONDS).toBeGreaterThan(30); // the run function's timeout
    expect(d.runs.listStale).toHaveBeenCalledWith(new Date(now.getTime() - RUN_IDLE_SECONDS * 1000), ['running', 'settlement-unknown']);
  });

  it('records a running run whose transfer the chain shows: ledger settled with its transaction, run done without a result', async () => {
    const d = deps([run('u1', 'running')], { paidOnChain: paid });
    const result = await sweep(d, 120);
    expect(d.paidOnChain).toHaveBeenCalledWith(asked('u1'));
    expect(d.ledger.markSettled).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xu1', TX, reconciledMark('u1', TX, RECONCILED_RUN_NOTE));
    expect(RECONCILED_RUN_NOTE).toMatch(/settled; result not recorded.*runId/);
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
    expect(result).toMatchObject({ runsSettled: ['u1'], runsUnknown: [], runsWaiting: [] });
  });

  it('records a settlement-unknown run once its transfer has landed, the same way', async () => {
    const d = deps([run('u2', 'settlement-unknown')], { paidOnChain: paid });
    const result = await sweep(d, 120);
    expect(d.ledger.markSettled).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xu2', TX, reconciledMark('u2', TX, RECONCILED_RUN_NOTE));
    expect(result.runsSettled).toEqual(['u2']);
  });

  it('records a settlement-unknown run that kept its result with that result: no "not recorded" note', async () => {
    const kept = { ...run('u3', 'settlement-unknown'), result: '{"matched":3}', resultSha256: 'ab' };
    const d = deps([kept], { paidOnChain: paid });
    const result = await sweep(d, 120);
    expect(d.runs.reconciledItem).toHaveBeenCalledWith('u3', TX, undefined);
    expect(d.ledger.markSettled).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xu3', TX, reconciledMark('u3', TX, undefined as never));
    expect(result.runsSettled).toEqual(['u3']);
  });

  it.each(['running', 'settlement-unknown'] as const)(
    'fails a %s run whose authorization was spent without paying (canceled): the lock released, nothing recorded as settled',
    async (status) => {
      const d = deps([run('c1', status)], { paidOnChain: says({ state: 'spent', reason: 'the buyer canceled the authorization before it paid' }) });
      const result = await sweep(d, 120);
      expect(d.ledger.markSettled).not.toHaveBeenCalled();
      expect(d.ledger.markFailed).toHaveBeenCalledTimes(1);
      const [nonceKey, reason, outcome, item] = d.ledger.markFailed.mock.calls[0];
      expect([nonceKey, outcome]).toEqual(['eip155:8453:0xa:0xb:0xc1', 'nothing-moved']);
      expect(reason).toMatch(/canceled/);
      expect(item).toEqual(failMark('c1', `Payment not settled: ${reason}`, ['running', 'settlement-unknown']));
      expect(result).toMatchObject({ runsSettled: [], runsVoided: ['c1'], runsUnknown: [], runsWaiting: [] });
    },
  );

  it('never releases the lock of a running run whose authorization is unused: it becomes settlement-unknown, the lock uncertain', async () => {
    const d = deps([run('n1', 'running')]);
    const result = await sweep(d, 120);
    expect(d.ledger.markFailed).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xn1', expect.any(String), 'may-have-moved', expect.anything());
    const [, reason, , item] = d.ledger.markFailed.mock.calls[0];
    expect(item).toEqual(unknownMark('n1', reason));
    expect(d.ledger.markFailed).not.toHaveBeenCalledWith(expect.anything(), expect.anything(), 'nothing-moved', expect.anything());
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
    expect(result).toMatchObject({ runsSettled: [], runsUnknown: ['n1'], runsWaiting: [] });
  });

  it('leaves a settlement-unknown run whose authorization is still unused as it is, to ask again next time', async () => {
    const d = deps([run('w1', 'settlement-unknown')]);
    const result = await sweep(d, 120);
    expect(d.paidOnChain).toHaveBeenCalledWith(asked('w1'));
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
    expect(result).toMatchObject({ runsSettled: [], runsUnknown: [], runsWaiting: ['w1'] });
  });

  it('leaves an open run without a payment lock alone', async () => {
    const d = deps([{ ...run('x1', 'running'), nonceKey: undefined }], { paidOnChain: paid });
    const result = await sweep(d, 120);
    expect(d.paidOnChain).not.toHaveBeenCalled();
    expect(result).toMatchObject({ runsSettled: [], runsUnknown: [], runsWaiting: [] });
  });

  it('goes on with the other runs when the chain cannot answer for one (it is asked again next time)', async () => {
    const used = vi.fn(async ({ nonceKey }: OnChainPayment): Promise<PaidOnChain> => {
      if (nonceKey.endsWith('e1')) throw new Error('rpc down');
      return { state: 'paid', transaction: TX };
    });
    const d = deps([run('e1', 'running'), run('e2', 'running')], { paidOnChain: used });
    const result = await sweep(d, 120);
    expect(result).toMatchObject({ runsSettled: ['e2'], runsUnknown: [] });
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
  });

  it('sweeps only jobs when it has no run store', async () => {
    const { runs: _runs, ...jobsOnly } = deps([run('j1', 'running')]);
    const result = await sweep(jobsOnly, 120);
    expect(result).toMatchObject({ runsSettled: [], runsUnknown: [], runsWaiting: [] });
    expect(jobsOnly.paidOnChain).not.toHaveBeenCalled();
  });
});
