/**
 * The run use case with model reasoning (ADR 0009), a reasoner stand-in at the port (the adapter itself is tested
 * against the Bedrock fake in test/components/agent-reasoning.test.ts): who is asked, when, and what is recorded.
 */
import { describe, expect, it, vi } from 'vitest';
import { runAgent, type RunDeps } from '../../../lambdas/agents/run.js';
import { AGENTS, type AgentDefinition } from '../../../lambdas/agents/registry.js';
import type { AgentReasoner } from '../../../lambdas/agents/reasoning/converse.js';
import type { LedgerItem } from '../../../lambdas/store/ledger.js';
import type { VerifiedPayment } from '../../../lambdas/payments/types.js';

const BANK_REC = AGENTS.find((a) => a.slug === 'bank-rec-discrepancy-finder-bw0tt')!;
const EXPORT_TX = AGENTS.find((a) => a.slug === 'export-to-transactions-x7f3a')!;
const INPUT = { bankStatement: 'Date,Description,Amount\n2026-05-04,Deposit,10.00\n', bookEntries: 'Date,Memo,Amount\n2026-05-04,Deposit,10.00\n' };
const payment = { kind: 'x402', payer: '0xabc', amount: 60_000n, nonceKey: 'k1' } as unknown as VerifiedPayment;
const REASONED = { reasoned: true };

function deps(reason: AgentReasoner['reason']) {
  const order: string[] = [];
  const reasoner: AgentReasoner = { covers: (agent: AgentDefinition) => agent.slug === BANK_REC.slug || agent.slug === EXPORT_TX.slug, reason: vi.fn(async (...args: Parameters<AgentReasoner['reason']>) => (order.push('reason'), reason(...args))) };
  const d: RunDeps = {
    runs: {
      reserveItem: () => ({}) as LedgerItem,
      doneItem: vi.fn((runId: string, transaction: string, result: unknown, engine?: string) => ({ done: { runId, transaction, result, engine } }) as unknown as LedgerItem),
      failItem: () => ({}) as LedgerItem,
      unknownItem: () => ({}) as LedgerItem,
      recordUnpaid: async () => {},
    },
    ledger: { lock: async () => void order.push('lock'), markSettled: vi.fn(async () => void order.push('markSettled')), markFailed: async () => void order.push('markFailed') },
    settle: async () => (order.push('settle'), { type: 'settled', receipt: { success: true, transaction: '0xt', network: 'eip155:8453', payer: '0xabc' } }),
    newId: () => 'r1',
    reasoner,
  };
  return { d, order, reasoner };
}

describe('Agent run with model reasoning', () => {
  it('a paid run of a covered agent: the engine reads first, then the model, then settlement; outputs.engine and the run record name what produced the result', async () => {
    const { d, order, reasoner } = deps(async (agent) => ({ result: REASONED, engine: `${agent.engine.id}+bedrock:m` }));
    const outcome = await runAgent(d, { agent: BANK_REC, input: INPUT, dryRun: false, payment, deadline: 123 });
    expect(order).toEqual(['lock', 'reason', 'settle', 'markSettled']);
    const rules = (BANK_REC.engine.analyse as (i: unknown) => unknown)(INPUT);
    expect(reasoner.reason).toHaveBeenCalledWith(BANK_REC, INPUT, rules, { deadline: 123, runId: 'run_r1' });
    expect(outcome).toMatchObject({ type: 'done', answer: { result: REASONED, outputs: { engine: 'bank-rec/rules@1+bedrock:m' } } });
    expect(d.runs.doneItem).toHaveBeenCalledWith('run_r1', '0xt', REASONED, 'bank-rec/rules@1+bedrock:m');
  });

  it('a reasoner that throws does not fail the paid run: the engine’s result settles', async () => {
    const { d, order } = deps(async () => {
      throw new Error('bug');
    });
    const outcome = await runAgent(d, { agent: BANK_REC, input: INPUT, dryRun: false, payment });
    expect(order).toEqual(['lock', 'reason', 'settle', 'markSettled']);
    expect(outcome).toMatchObject({ type: 'done', answer: { result: (BANK_REC.engine.analyse as (i: unknown) => unknown)(INPUT), outputs: { engine: 'bank-rec/rules@1' }, settled: true } });
  });

  it('input the engine cannot read is the 400 before any model call', async () => {
    const { d, reasoner } = deps(async () => ({ result: REASONED, engine: 'x' }));
    const outcome = await runAgent(d, { agent: BANK_REC, input: { bankStatement: 'no columns here', bookEntries: 'nor here' }, dryRun: false, payment });
    expect(outcome.type).toBe('invalid-input');
    expect(reasoner.reason).not.toHaveBeenCalled();
  });

  it('dry runs and free runs never call the model', async () => {
    const { d, reasoner } = deps(async () => ({ result: REASONED, engine: 'x' }));
    await runAgent(d, { agent: BANK_REC, input: INPUT, dryRun: true });
    const free = await runAgent(d, { agent: EXPORT_TX, input: { export: 'Date,Description,Amount\n2026-11-02,Coffee,-4.50' }, dryRun: false });
    expect(reasoner.reason).not.toHaveBeenCalled();
    expect(free).toMatchObject({ type: 'done', answer: { outputs: { engine: 'export-to-transactions/rules@1' } } });
  });
});
