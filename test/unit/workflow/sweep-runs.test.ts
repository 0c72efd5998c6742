import { describe, expect, it, vi } from 'vitest';
import { RECONCILED_RUN_NOTE, RECONCILED_TRANSACTION, RUN_IDLE_SECONDS, sweep, type SweepDeps } from '../../../lambdas/workflow/sweeper.js';
import type { LedgerItem } from '../../../lambdas/store/ledger.js';
import type { RunRecord, RunStatus } from '../../../lambdas/store/runs.js';

const run = (runId: string, status: RunStatus): RunRecord =>
  ({ runId, status, mode: 'paid', payer: '0xpayer', nonceKey: `eip155:8453:0xa:0xb:0x${runId}` }) as RunRecord;

/** The run store's ledger items, tagged so a test can see which one travelled with which ledger move. */
const reconciledMark = (runId: string, transaction: string, note: string) => ({ reconciled: [runId, transaction, note] }) as unknown as LedgerItem;
const unknownMark = (runId: string, error: string) => ({ unknown: [runId, error] }) as unknown as LedgerItem;

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
    },
    ledger: {
      markSettled: vi.fn(async (_nonceKey: string, _transaction: string, _item?: LedgerItem) => {}),
      markFailed: vi.fn(async (_nonceKey: string, _reason: string, _outcome: string, _item?: LedgerItem) => {}),
      state: vi.fn(async () => 'locked' as const),
    },
    workflow: { start: vi.fn(async () => 'started' as const), state: vi.fn(async () => 'RUNNING' as never) },
    authorizationUsed: vi.fn(async (_nonceKey: string) => false),
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

  it('records a running run whose authorization the chain shows as used: ledger settled, run done without a result', async () => {
    const d = deps([run('u1', 'running')], { authorizationUsed: vi.fn(async () => true) });
    const result = await sweep(d, 120);
    expect(d.authorizationUsed).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xu1');
    expect(d.ledger.markSettled).toHaveBeenCalledWith(
      'eip155:8453:0xa:0xb:0xu1',
      RECONCILED_TRANSACTION,
      reconciledMark('u1', RECONCILED_TRANSACTION, RECONCILED_RUN_NOTE),
    );
    expect(RECONCILED_TRANSACTION).toBe('reconciled'); // the job sweeper's sentinel: the hash is not known
    expect(RECONCILED_RUN_NOTE).toMatch(/settled; result not recorded.*runId/);
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
    expect(result).toMatchObject({ runsSettled: ['u1'], runsUnknown: [], runsWaiting: [] });
  });

  it('records a settlement-unknown run once its transfer has landed, the same way', async () => {
    const d = deps([run('u2', 'settlement-unknown')], { authorizationUsed: vi.fn(async () => true) });
    const result = await sweep(d, 120);
    expect(d.ledger.markSettled).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xu2', 'reconciled', reconciledMark('u2', 'reconciled', RECONCILED_RUN_NOTE));
    expect(result.runsSettled).toEqual(['u2']);
  });

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
    expect(d.authorizationUsed).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xw1');
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
    expect(result).toMatchObject({ runsSettled: [], runsUnknown: [], runsWaiting: ['w1'] });
  });

  it('leaves an open run without a payment lock alone', async () => {
    const d = deps([{ ...run('x1', 'running'), nonceKey: undefined }], { authorizationUsed: vi.fn(async () => true) });
    const result = await sweep(d, 120);
    expect(d.authorizationUsed).not.toHaveBeenCalled();
    expect(result).toMatchObject({ runsSettled: [], runsUnknown: [], runsWaiting: [] });
  });

  it('goes on with the other runs when the chain cannot answer for one (it is asked again next time)', async () => {
    const used = vi.fn(async (nonceKey: string) => {
      if (nonceKey.endsWith('e1')) throw new Error('rpc down');
      return true;
    });
    const d = deps([run('e1', 'running'), run('e2', 'running')], { authorizationUsed: used });
    const result = await sweep(d, 120);
    expect(result).toMatchObject({ runsSettled: ['e2'], runsUnknown: [] });
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
  });

  it('sweeps only jobs when it has no run store', async () => {
    const { runs: _runs, ...jobsOnly } = deps([run('j1', 'running')]);
    const result = await sweep(jobsOnly, 120);
    expect(result).toMatchObject({ runsSettled: [], runsUnknown: [], runsWaiting: [] });
    expect(jobsOnly.authorizationUsed).not.toHaveBeenCalled();
  });
});
