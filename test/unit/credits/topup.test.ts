/**
 * The top-up on the purchase skeleton (lambdas/credits/topup.ts): which of the credit store's entries travels with
 * which ledger move, for each settlement outcome. The same flow against DynamoDB Local and the chain is in
 * test/components/credits.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { topUp, type TopUpDeps } from '../../../lambdas/credits/topup.js';
import { PaymentAlreadyUsedError, type LedgerItem } from '../../../lambdas/store/ledger.js';
import type { Settlement, SettleOptions } from '../../../lambdas/payments/core/types.js';
import type { VerifiedPayment } from '../../../lambdas/payments/types.js';

const workspace = { keyHash: 'h'.repeat(64), workspaceId: 'ws_1' };
const payment = { kind: 'x402', payer: '0xbuyer', amount: 1_000_000n, nonceKey: 'eip155:8453:0xa:0xbuyer:0x01' } as unknown as VerifiedPayment;
const RECEIPT = { success: true as const, transaction: '0xtx', network: 'eip155:8453', payer: '0xbuyer' };
const mark = (name: string) => (...args: unknown[]) => ({ [name]: args }) as unknown as LedgerItem;

/**
 * The settlement as the skeleton drives it: a top-up's is begun beside the lock (`proceed`) and sends — `sent` is
 * called — only once the purchase says to; told no, it sends nothing.
 */
function deps(settlement: Settlement) {
  const sent = vi.fn();
  return {
    credits: { reserveTopUpItem: vi.fn(mark('reserve')), creditTopUpItems: vi.fn((...a: unknown[]) => [mark('credit')(...a)]), voidTopUpItem: vi.fn(mark('void')), pendingTopUpItem: vi.fn(mark('pending')) },
    ledger: { lock: vi.fn(async () => {}), markSettled: vi.fn(async () => {}), markFailed: vi.fn(async () => {}) },
    settle: vi.fn(async (_payment: unknown, options?: SettleOptions): Promise<Settlement> => {
      if (options?.proceed && !(await options.proceed)) return { type: 'refused', reason: 'Settlement abandoned before broadcast' };
      sent();
      return settlement;
    }),
    sent,
  } satisfies TopUpDeps & { sent: unknown };
}
const entry = { workspaceId: 'ws_1', entryKey: 'topup#eip155:8453:0xa:0xbuyer:0x01', keyHash: workspace.keyHash, amount: 1_000_000n };

describe('a top-up credits exactly once, keyed by the settled authorization', () => {
  it('locks the authorization with the entry reserved, then records the receipt with the entry credited and the balance increment', async () => {
    const d = deps({ type: 'settled', receipt: RECEIPT });
    expect(await topUp(d, { workspace, tier: 1, payment })).toEqual({ type: 'credited', amount: 1_000_000n, receipt: RECEIPT, recorded: true });
    expect(d.ledger.lock).toHaveBeenCalledWith(
      { nonceKey: payment.nonceKey, amount: 1_000_000n, payer: '0xbuyer', purchase: 'topup#ws_1' },
      { reserve: [workspace, { nonceKey: payment.nonceKey, amount: 1_000_000n, tier: 1, payer: '0xbuyer' }] },
    );
    expect(d.ledger.markSettled).toHaveBeenCalledWith(payment.nonceKey, '0xtx', [{ credit: [entry, '0xtx'] }]);
  });

  it('a replayed payment (its lock exists) is refused before anything is settled or credited', async () => {
    const d = deps({ type: 'settled', receipt: RECEIPT });
    d.ledger.lock.mockRejectedValueOnce(new PaymentAlreadyUsedError());
    expect(await topUp(d, { workspace, tier: 1, payment })).toMatchObject({ type: 'refused' });
    expect(d.sent).not.toHaveBeenCalled();
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
  });

  it('nothing moved (refused, unavailable): the entry is removed with the lock', async () => {
    for (const settlement of [{ type: 'refused', reason: 'insufficient funds' }, { type: 'unavailable', reason: 'no key' }] as Settlement[]) {
      const d = deps(settlement);
      expect(await topUp(d, { workspace, tier: 1, payment })).toMatchObject({ type: settlement.type });
      expect(d.ledger.markFailed).toHaveBeenCalledWith(payment.nonceKey, expect.any(String), 'nothing-moved', { void: [entry] });
    }
  });

  it('an unknown outcome: the entry pending and the lock uncertain, nothing credited (the sweeper decides)', async () => {
    const d = deps({ type: 'unknown-outcome', reason: 'no receipt by the deadline' });
    expect(await topUp(d, { workspace, tier: 1, payment })).toEqual({ type: 'pending', entryKey: entry.entryKey, reason: 'no receipt by the deadline' });
    expect(d.ledger.markFailed).toHaveBeenCalledWith(payment.nonceKey, 'no receipt by the deadline', 'may-have-moved', { pending: [entry, 'no receipt by the deadline'] });
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
  });

  it('refuses a payment that is not the tier\'s amount (the payment core verified it against that offer)', async () => {
    await expect(topUp(deps({ type: 'settled', receipt: RECEIPT }), { workspace, tier: 5, payment })).rejects.toThrow(/tier 5/);
  });
});
