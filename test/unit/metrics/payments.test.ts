/**
 * "Operability: an operator can see and trust the money": paid requests, revenue in base units per product
 * and settlements that failed or whose outcome is unknown, emitted by the purchase and run use cases
 * (lambdas/jobs/purchase.ts, lambdas/agents/run.ts) through lambdas/shared/metrics.ts. Revenue is counted only when
 * the money moved (a settled payment).
 */
import { describe, expect, it } from 'vitest';
import { purchaseJob, type PurchaseDeps, type PurchaseInput } from '../../../lambdas/jobs/purchase.js';
import { runAgent, type RunDeps } from '../../../lambdas/agents/run.js';
import { AGENTS } from '../../../lambdas/agents/registry.js';
import { flushMetrics } from '../../../lambdas/shared/metrics.js';
import { PaymentAlreadyUsedError, type LedgerItem } from '../../../lambdas/store/ledger.js';
import type { RunRecord } from '../../../lambdas/store/runs.js';
import type { Settlement } from '../../../lambdas/payments/core/types.js';
import type { VerifiedPayment } from '../../../lambdas/payments/types.js';
import type { VerifiedTokenPayment } from '../../../lambdas/payments/token/verify.js';
import { capturePerTest } from './emf.js';
import { RECEIPT, X402_PAYMENT } from '../../support/payment-fixtures.js';

const payment = X402_PAYMENT;
const token = { kind: 'token', payer: 'agent-7', amount: 150000n, nonceKey: 'token:iss:jti', token: 'a.b.c' } as unknown as VerifiedTokenPayment;
const item = {} as LedgerItem;

function purchaseDeps(settlement: Settlement): PurchaseDeps {
  return {
    jobs: { get: async () => undefined, reserveItem: () => item, queueItem: () => item, voidItem: () => item },
    ledger: { lock: async () => {}, markCharging: async () => {}, markSettled: async () => {}, markFailed: async () => {} },
    settle: async () => settlement,
    workflow: { start: async () => 'started' as const },
    providerFor: () => 'local',
    newId: () => 'job-1',
  };
}
const buy = (over: Partial<PurchaseInput> = {}): PurchaseInput => ({ product: 'agent_image', request: { prompt: 'x' }, payment, blockingWaitMs: 0, ...over });

const metrics = capturePerTest();

describe('Metrics: a settled purchase is a paid request and revenue in base units, per product', () => {
  it('emits PaidRequests 1 and RevenueBaseUnits 150000 (Count) for agent_image, with the product and service dimensions', async () => {
    const result = await purchaseJob(purchaseDeps({ type: 'settled', receipt: RECEIPT }), buy());
    expect(result.type).toBe('accepted');
    expect(metrics.named('PaidRequests')).toEqual([
      { name: 'PaidRequests', unit: 'Count', value: 1, namespace: 'Paycall', dimensions: { service: 'paycall', product: 'agent_image' } },
    ]);
    expect(metrics.named('RevenueBaseUnits')).toEqual([
      { name: 'RevenueBaseUnits', unit: 'Count', value: 150000, namespace: 'Paycall', dimensions: { service: 'paycall', product: 'agent_image' } },
    ]);
    flushMetrics();
    expect(metrics.named('SettlementFailed')).toEqual([]);
  });

  it('counts a token payment that settled the same way', async () => {
    await purchaseJob(purchaseDeps({ type: 'settled', receipt: RECEIPT }), buy({ product: 'create_music', payment: token }));
    expect(metrics.named('RevenueBaseUnits')).toMatchObject([{ value: 150000, dimensions: { product: 'create_music' } }]);
  });
});

describe('Metrics: a purchase that did not settle is no revenue', () => {
  it('a refusal counts SettlementFailed 1 (written as the invocation ends) and no paid request', async () => {
    const result = await purchaseJob(purchaseDeps({ type: 'refused', reason: 'insufficient funds' }), buy());
    expect(result.type).toBe('refused');
    expect(metrics.emitted()).toEqual([]);
    flushMetrics();
    expect(metrics.emitted()).toEqual([
      { name: 'SettlementFailed', unit: 'Count', value: 1, namespace: 'Paycall', dimensions: { service: 'paycall' } },
    ]);
  });

  it('a settler that is unavailable counts SettlementFailed', async () => {
    const result = await purchaseJob(purchaseDeps({ type: 'unavailable', reason: 'no key with gas' }), buy());
    expect(result.type).toBe('unavailable');
    flushMetrics();
    expect(metrics.emitted().map((m) => [m.name, m.value])).toEqual([['SettlementFailed', 1]]);
  });

  it('an unknown outcome counts SettlementUnknownOutcome, not revenue (x402: the job is accepted; token: refused)', async () => {
    expect((await purchaseJob(purchaseDeps({ type: 'unknown-outcome', reason: 'no receipt' }), buy())).type).toBe('accepted');
    expect((await purchaseJob(purchaseDeps({ type: 'unknown-outcome', reason: 'timeout' }), buy({ payment: token }))).type).toBe('refused');
    flushMetrics();
    expect(metrics.emitted().map((m) => [m.name, m.value])).toEqual([['SettlementUnknownOutcome', [1, 1]]]);
  });

  it('an authorization already used never reached settlement: nothing is counted', async () => {
    const deps = purchaseDeps({ type: 'settled', receipt: RECEIPT });
    deps.ledger.lock = async () => {
      throw new PaymentAlreadyUsedError();
    };
    expect((await purchaseJob(deps, buy())).type).toBe('refused');
    flushMetrics();
    expect(metrics.emitted()).toEqual([]);
  });
});

describe('Metrics: a paid agent run', () => {
  const agent = AGENTS.find((a) => a.slug.startsWith('bank-rec-discrepancy-finder'))!;
  const input = {
    bankStatement: 'Date,Description,Amount\n2026-05-04,Deposit Zephyr Ltd,4321.09\n',
    bookEntries: 'Date,Memo,Amount\n2026-05-03,Zephyr Ltd receipt,4321.09\n',
  };
  const runPayment = { kind: 'x402', payer: '0xabc', amount: 60_000n, nonceKey: 'k2' } as unknown as VerifiedPayment;
  function runDeps(settlement: Settlement): RunDeps {
    return {
      runs: {
        reserveItem: (_run: RunRecord) => item,
        doneItem: () => item,
        failItem: () => item,
        unknownItem: () => item,
        recordUnpaid: async () => {},
      },
      ledger: { lock: async () => {}, markSettled: async () => {}, markFailed: async () => {} },
      settle: async () => settlement,
      newId: () => 'r1',
    };
  }

  it('settled: PaidRequests 1 and RevenueBaseUnits of the payment, with the agent as the product', async () => {
    const outcome = await runAgent(runDeps({ type: 'settled', receipt: RECEIPT }), { agent, input, dryRun: false, payment: runPayment });
    expect(outcome.type).toBe('done');
    expect(metrics.emitted().map((m) => [m.name, m.value, m.dimensions.product])).toEqual([
      ['PaidRequests', 1, agent.slug],
      ['RevenueBaseUnits', 60000, agent.slug],
    ]);
  });

  it('refused: SettlementFailed; unknown outcome: SettlementUnknownOutcome; neither is revenue', async () => {
    await runAgent(runDeps({ type: 'refused', reason: 'reverted' }), { agent, input, dryRun: false, payment: runPayment });
    await runAgent(runDeps({ type: 'unknown-outcome', reason: 'no receipt' }), { agent, input, dryRun: false, payment: runPayment });
    flushMetrics();
    expect(metrics.emitted().map((m) => [m.name, m.value])).toEqual([
      ['SettlementFailed', 1],
      ['SettlementUnknownOutcome', 1],
    ]);
  });

  it('a dry run moves no money and counts nothing', async () => {
    await runAgent(runDeps({ type: 'settled', receipt: RECEIPT }), { agent, input, dryRun: true });
    flushMetrics();
    expect(metrics.emitted()).toEqual([]);
  });
});
