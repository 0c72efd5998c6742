/** The sweeper's rule for open top-ups (lambdas/workflow/sweeper.ts reconcileTopUp): one rule per chain state. */
import { describe, expect, it, vi } from 'vitest';
import { sweep, type SweepDeps } from '../../../lambdas/workflow/sweeper.js';
import type { PaidOnChain } from '../../../lambdas/payments/core/paid-on-chain.js';
import type { LedgerItem } from '../../../lambdas/store/ledger.js';
import type { LedgerEntry, TopUpStatus } from '../../../lambdas/store/credits.js';

const CREATED = '2026-11-22T11:50:00.000Z';
const topUp = (n: string, status: TopUpStatus): LedgerEntry => ({
  workspaceId: 'ws_1', entryKey: `topup#k${n}`, kind: 'topup', status, amount: 1_000_000n, nonceKey: `k${n}`, keyHash: 'h', payer: '0xp', tier: 1, at: CREATED, createdAt: CREATED, updatedAt: CREATED,
});
const TX = `0x${'7a'.repeat(32)}` as const;
const mark = (name: string) => (...args: unknown[]) => ({ [name]: args }) as unknown as LedgerItem;

function deps(open: LedgerEntry[], chain: PaidOnChain) {
  return {
    jobs: { listStale: vi.fn(async () => []), fail: vi.fn(), queueItem: vi.fn(), voidItem: vi.fn() },
    topUps: {
      listOpenTopUps: vi.fn(async (_: Date, statuses: readonly TopUpStatus[] = []) => open.filter((e) => statuses.includes(e.status!))),
      creditTopUpItems: vi.fn((...a: unknown[]) => [mark('credit')(...a)]),
      voidTopUpItem: vi.fn(mark('void')),
      pendingTopUpItem: vi.fn(mark('pending')),
    },
    ledger: { markSettled: vi.fn(async () => {}), markFailed: vi.fn(async () => {}), state: vi.fn() },
    workflow: { start: vi.fn(), state: vi.fn() },
    paidOnChain: vi.fn(async () => chain),
  } as unknown as SweepDeps & { topUps: any; ledger: any; paidOnChain: any };
}

describe('Sweeper: an open top-up is credited once when our transfer landed, and never otherwise', () => {
  it('asks the chain for the top-up\'s authorization and amount, from the sparse index of reserved and pending top-ups', async () => {
    const d = deps([topUp('1', 'pending')], { state: 'unused' });
    await sweep(d, 120);
    expect(d.topUps.listOpenTopUps).toHaveBeenCalledWith(expect.any(Date), ['reserved', 'pending']);
    expect(d.paidOnChain).toHaveBeenCalledWith({ nonceKey: 'k1', amount: 1_000_000n, notBefore: Date.parse(CREATED) });
  });

  it('paid: the receipt recorded with the entry credited and the balance increment', async () => {
    for (const status of ['reserved', 'pending'] as const) {
      const d = deps([topUp('1', status)], { state: 'paid', transaction: TX });
      expect(await sweep(d, 120)).toMatchObject({ topUpsCredited: ['topup#k1'], topUpsVoided: [], topUpsPending: [], topUpsWaiting: [] });
      expect(d.ledger.markSettled).toHaveBeenCalledWith('k1', TX, [{ credit: [expect.objectContaining({ entryKey: 'topup#k1' }), TX] }]);
    }
  });

  it('spent without paying (canceled): the entry removed, the lock released, nothing credited', async () => {
    const d = deps([topUp('1', 'pending')], { state: 'spent', reason: 'the buyer canceled the authorization before it paid' });
    expect(await sweep(d, 120)).toMatchObject({ topUpsVoided: ['topup#k1'], topUpsCredited: [] });
    expect(d.ledger.markFailed).toHaveBeenCalledWith('k1', expect.stringMatching(/canceled/), 'nothing-moved', { void: [expect.objectContaining({ entryKey: 'topup#k1' })] });
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
  });

  it('unused: a reserved top-up becomes pending with its lock uncertain; a pending one waits', async () => {
    const d = deps([topUp('1', 'reserved'), topUp('2', 'pending')], { state: 'unused' });
    expect(await sweep(d, 120)).toMatchObject({ topUpsPending: ['topup#k1'], topUpsWaiting: ['topup#k2'], topUpsCredited: [], topUpsVoided: [] });
    expect(d.ledger.markFailed).toHaveBeenCalledTimes(1);
    expect(d.ledger.markFailed).toHaveBeenCalledWith('k1', expect.stringMatching(/unused/), 'may-have-moved', { pending: [expect.objectContaining({ entryKey: 'topup#k1' }), expect.any(String)] });
  });
});
