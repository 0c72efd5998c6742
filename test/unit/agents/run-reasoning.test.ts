/**
 * The run use case with model reasoning (ADR 0009), a reasoner stand-in at the port (the adapter itself is tested
 * against the Bedrock fake in test/components/agent-reasoning.test.ts): who is asked, when (beside the block wait,
 * issue 25), and what is recorded.
 */
import { describe, expect, it, vi } from 'vitest';
import { runAgent, type RunDeps } from '../../../lambdas/agents/run.js';
import { AGENTS, type AgentDefinition } from '../../../lambdas/agents/registry.js';
import type { AgentReasoner } from '../../../lambdas/agents/reasoning/converse.js';
import type { LedgerItem } from '../../../lambdas/store/ledger.js';
import type { VerifiedPayment } from '../../../lambdas/payments/types.js';
import type { Settlement } from '../../../lambdas/payments/core/types.js';
import { ABANDONED, toldToSend } from '../../support/early-settler.js';

const BANK_REC = AGENTS.find((a) => a.slug === 'bank-rec-discrepancy-finder-bw0tt')!;
const EXPORT_TX = AGENTS.find((a) => a.slug === 'export-to-transactions-x7f3a')!;
const INPUT = { bankStatement: 'Date,Description,Amount\n2026-05-04,Deposit,10.00\n', bookEntries: 'Date,Memo,Amount\n2026-05-04,Deposit,10.00\n' };
const payment = { kind: 'x402', payer: '0xabc', amount: 60_000n, nonceKey: 'k1' } as unknown as VerifiedPayment;
const REASONED = { reasoned: true };

const SETTLED: Settlement = { type: 'settled', receipt: { success: true, transaction: '0xt', network: 'eip155:8453', payer: '0xabc' } };

/** A settler that sends (telling the run, as the self-settler does), then waits for its block and answers `outcome`. */
function sending(order: string[], outcome: Settlement = SETTLED, broadcasts = true): RunDeps['settle'] {
  return async (_payment, options) => {
    if (!(await toldToSend(options))) return ABANDONED;
    order.push('send');
    if (broadcasts) options?.onBroadcast?.();
    await new Promise((resolve) => setTimeout(resolve, 5));
    order.push('receipt');
    return outcome;
  };
}

function deps(reason: AgentReasoner['reason'], settle?: (order: string[]) => RunDeps['settle']) {
  const order: string[] = [];
  const reasoner: AgentReasoner = { covers: (agent: AgentDefinition) => agent.slug === BANK_REC.slug || agent.slug === EXPORT_TX.slug, reason: vi.fn(async (...args: Parameters<AgentReasoner['reason']>) => (order.push('reason'), reason(...args))) };
  const d: RunDeps = {
    runs: {
      reserveItem: () => ({}) as LedgerItem,
      doneItem: vi.fn((runId: string, transaction: string, result: unknown, engine?: string) => ({ done: { runId, transaction, result, engine } }) as unknown as LedgerItem),
      failItem: () => ({}) as LedgerItem,
      unknownItem: vi.fn(() => ({}) as LedgerItem),
      recordUnpaid: async () => {},
    },
    ledger: { lock: async () => void order.push('lock'), markSettled: vi.fn(async () => void order.push('markSettled')), markFailed: async () => void order.push('markFailed') },
    settle: settle ? settle(order) : sending(order),
    newId: () => 'r1',
    reasoner,
  };
  return { d, order, reasoner };
}

describe('Agent run with model reasoning', () => {
  it('a paid run of a covered agent: the engine reads first, the model is asked once the transfer is sent (it works while the block is awaited), the receipt is recorded with its answer; outputs.engine and the run record name what produced the result', async () => {
    const { d, order, reasoner } = deps(async (agent) => ({ result: REASONED, engine: `${agent.engine.id}+bedrock:m` }));
    const outcome = await runAgent(d, { agent: BANK_REC, input: INPUT, dryRun: false, payment, deadline: 123 });
    expect(order).toEqual(['lock', 'send', 'reason', 'receipt', 'markSettled']);
    const rules = (BANK_REC.engine.explain as (i: unknown) => { result: unknown; evidence: unknown[] })(INPUT);
    // The rules' evidence is handed over with their result, so the reasoner never runs the engine on the input again.
    expect(reasoner.reason).toHaveBeenCalledWith(BANK_REC, INPUT, rules.result, { deadline: 123, runId: 'run_r1', evidence: rules.evidence });
    expect(outcome).toMatchObject({ type: 'done', answer: { result: REASONED, outputs: { engine: 'bank-rec/rules@1+bedrock:m' } } });
    // A result the model changed carries no evidence of the engine's (the reasoner gave none).
    expect(d.runs.doneItem).toHaveBeenCalledWith('run_r1', '0xt', REASONED, 'bank-rec/rules@1+bedrock:m', undefined);
  });

  it('a reasoner that throws does not fail the paid run: the engine’s result settles', async () => {
    const { d, order } = deps(async () => {
      throw new Error('bug');
    });
    const outcome = await runAgent(d, { agent: BANK_REC, input: INPUT, dryRun: false, payment });
    expect(order).toEqual(['lock', 'send', 'reason', 'receipt', 'markSettled']);
    expect(outcome).toMatchObject({ type: 'done', answer: { result: (BANK_REC.engine.analyse as (i: unknown) => unknown)(INPUT), outputs: { engine: 'bank-rec/rules@1' }, settled: true } });
  });

  it('the receipt waits for a model still answering: the run is recorded and answered with the model’s result', async () => {
    const { d, order } = deps(async (agent) => {
      await new Promise((resolve) => setTimeout(resolve, 40));
      order.push('answered');
      return { result: REASONED, engine: `${agent.engine.id}+bedrock:m` };
    });
    const outcome = await runAgent(d, { agent: BANK_REC, input: INPUT, dryRun: false, payment });
    expect(order).toEqual(['lock', 'send', 'reason', 'receipt', 'answered', 'markSettled']);
    // A result the model changed carries no evidence of the engine's (the reasoner gave none).
    expect(d.runs.doneItem).toHaveBeenCalledWith('run_r1', '0xt', REASONED, 'bank-rec/rules@1+bedrock:m', undefined);
    expect(outcome).toMatchObject({ type: 'done', answer: { result: REASONED } });
  });

  it('a settlement refused before anything was sent never asks the model', async () => {
    const refused: Settlement = { type: 'refused', reason: 'Settlement is back-pressured', retryAfterSeconds: 1 };
    const { d, order, reasoner } = deps(async () => ({ result: REASONED, engine: 'x' }), (o) => sending(o, refused, false));
    const outcome = await runAgent(d, { agent: BANK_REC, input: INPUT, dryRun: false, payment });
    expect(outcome).toMatchObject({ type: 'refused' });
    expect(reasoner.reason).not.toHaveBeenCalled();
    expect(order).toEqual(['lock', 'send', 'receipt', 'markFailed']);
  });

  it('a transfer sent and then reverted (nothing moved): the model’s answer is not recorded and nothing is delivered', async () => {
    const reverted: Settlement = { type: 'refused', reason: 'Settlement transaction 0x1 reverted' };
    const { d } = deps(async () => ({ result: REASONED, engine: 'x' }), (o) => sending(o, reverted));
    const outcome = await runAgent(d, { agent: BANK_REC, input: INPUT, dryRun: false, payment });
    expect(outcome).toMatchObject({ type: 'refused' });
    expect(d.runs.doneItem).not.toHaveBeenCalled();
  });

  it('an unknown outcome keeps the engine’s result with the run at once, not waiting for a model that never answers', async () => {
    const unknown: Settlement = { type: 'unknown-outcome', reason: 'no receipt by the deadline' };
    const { d } = deps(() => new Promise(() => {}), (o) => sending(o, unknown));
    const outcome = await runAgent(d, { agent: BANK_REC, input: INPUT, dryRun: false, payment });
    expect(outcome).toMatchObject({ type: 'settlement-unknown', runId: 'run_r1' });
    const rules = (BANK_REC.engine.explain as (i: unknown) => { result: unknown; evidence: unknown[] })(INPUT);
    expect(d.runs.unknownItem).toHaveBeenCalledWith('run_r1', 'no receipt by the deadline', rules.result, rules.evidence);
  });

  it('a settler that does not say when it sent (a remote facilitator): the model is asked once settled', async () => {
    const { d, order } = deps(async (agent) => ({ result: REASONED, engine: `${agent.engine.id}+bedrock:m` }), (o) => sending(o, SETTLED, false));
    const outcome = await runAgent(d, { agent: BANK_REC, input: INPUT, dryRun: false, payment });
    expect(order).toEqual(['lock', 'send', 'receipt', 'reason', 'markSettled']);
    expect(outcome).toMatchObject({ type: 'done', answer: { result: REASONED } });
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
