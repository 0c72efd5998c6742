/**
 * Operability: "Powertools Tracer with the job id and payer as searchable annotations". The purchase and
 * run use cases annotate the invocation's trace as soon as the id is minted and the payer known; a workflow task
 * annotates it with its input's job id and product. The shared tracer is spied on (off Lambda it is disabled, so
 * the real putAnnotation is a no-op either way).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tracer, traced } from '../../../lambdas/shared/tracing.js';
import { purchaseJob, type PurchaseDeps } from '../../../lambdas/jobs/purchase.js';
import { runAgent, type RunDeps } from '../../../lambdas/agents/run.js';
import { AGENTS } from '../../../lambdas/agents/registry.js';
import { jobKeys } from '../../../lambdas/workflow/tasks.js';
import type { Settlement } from '../../../lambdas/payments/core/types.js';
import type { VerifiedPayment } from '../../../lambdas/payments/types.js';
import type { LedgerItem } from '../../../lambdas/store/ledger.js';
import { RECEIPT, X402_PAYMENT } from '../../support/payment-fixtures.js';

const settled = async (): Promise<Settlement> => ({ type: 'settled', receipt: RECEIPT });
const refused = async (): Promise<Settlement> => ({ type: 'refused', reason: 'insufficient funds' });
const item = () => ({}) as unknown as LedgerItem;

function annotations() {
  const put = vi.spyOn(tracer, 'putAnnotation').mockImplementation(() => {});
  return () => Object.fromEntries(put.mock.calls);
}

afterEach(() => vi.restoreAllMocks());

describe('Operability: a purchase annotates its trace with the job id, the payer and the product', () => {
  const payment = X402_PAYMENT;

  function deps(settle: PurchaseDeps['settle']): PurchaseDeps {
    return {
      jobs: { get: async () => undefined, reserveItem: item, queueItem: item, voidItem: item },
      ledger: { lock: async () => {}, markCharging: async () => {}, markSettled: async () => {}, markFailed: async () => {} },
      settle,
      workflow: { start: async () => 'started' as const },
      providerFor: () => 'local',
      newId: () => 'job-1',
    };
  }

  it.each([
    ['settled', settled],
    ['refused', refused],
  ])('puts jobId, payer and product (%s settlement)', async (_, settle) => {
    const put = annotations();
    await purchaseJob(deps(settle), { product: 'agent_image', request: { prompt: 'x' }, payment, blockingWaitMs: 0 });
    expect(put()).toEqual({ jobId: 'job-1', payer: '0xabc', product: 'agent_image' });
  });
});

describe('Operability: an agent run annotates its trace with the run id, the agent and (when paid) the payer', () => {
  const priced = AGENTS.find((a) => a.slug.startsWith('bank-rec-discrepancy-finder'))!;
  const INPUT = { bankStatement: 'Date,Description,Amount\n2026-05-04,Deposit,10.00\n', bookEntries: 'Date,Memo,Amount\n2026-05-04,Deposit,10.00\n' };
  const payment = { kind: 'x402', payer: '0xabc', amount: priced.price, nonceKey: 'k1' } as unknown as VerifiedPayment;

  function deps(): RunDeps {
    return {
      runs: { reserveItem: item, doneItem: item, failItem: item, unknownItem: item, recordUnpaid: async () => {} },
      ledger: { lock: async () => {}, markSettled: async () => {}, markFailed: async () => {} },
      settle: settled,
      newId: () => 'r1',
    };
  }

  it('a paid live run: runId, agent and payer', async () => {
    const put = annotations();
    const outcome = await runAgent(deps(), { agent: priced, input: INPUT, dryRun: false, payment });
    expect(outcome.type).toBe('done');
    expect(put()).toEqual({ runId: 'run_r1', agent: priced.slug, payer: '0xabc' });
  });

  it('a dry run has no payer: runId and agent only', async () => {
    const put = annotations();
    await runAgent(deps(), { agent: priced, input: INPUT, dryRun: true });
    expect(put()).toEqual({ runId: 'run_r1', agent: priced.slug });
  });
});

describe('Operability: a workflow task annotates its trace with its input\'s job id and product', () => {
  it('the traced task handler puts jobId and product before the work runs', async () => {
    const put = annotations();
    const seen: Record<string, unknown>[] = [];
    const handler = traced(async (input: { jobId: string; product: 'agent_video' }) => {
      seen.push(Object.fromEntries(vi.mocked(tracer.putAnnotation).mock.calls));
      return input.jobId;
    }, jobKeys);
    await expect(handler({ jobId: 'job-7', product: 'agent_video' })).resolves.toBe('job-7');
    expect(seen).toEqual([{ jobId: 'job-7', product: 'agent_video' }]);
    expect(put()).toEqual({ jobId: 'job-7', product: 'agent_video' });
  });

  it('a failing task still fails as it did (the wrapper changes no outcome)', async () => {
    annotations();
    const handler = traced(async (_: { jobId: string; product: 'agent_image' }) => {
      throw new Error('render failed');
    }, jobKeys);
    await expect(handler({ jobId: 'job-8', product: 'agent_image' })).rejects.toThrow('render failed');
  });
});
