/**
 * A run billed from workspace credit (lambdas/agents/credit-run.ts, docs/decisions/0015) with in-memory fakes of the
 * credit store and the runs store: when work is done, what travels in the debit's transaction, and what is billed.
 */
import { describe, expect, it, vi } from 'vitest';
import { runOnCredit, type CreditRunDeps } from '../../../lambdas/agents/credit-run.js';
import { AGENTS, type AgentDefinition } from '../../../lambdas/agents/registry.js';
import { InsufficientCreditError, type LedgerEntry, type Workspace } from '../../../lambdas/store/credits.js';
import type { LedgerItem } from '../../../lambdas/store/ledger.js';
import type { RunRecord } from '../../../lambdas/store/runs.js';
import type { AgentReasoner } from '../../../lambdas/agents/reasoning/converse.js';
import { BANK, BOOKS, EXPECTED, INPUT, UNREADABLE_BANK } from '../../support/bank-rec-case.js';

const agent = (slug: string): AgentDefinition => AGENTS.find((a) => a.slug.startsWith(slug))!;
const BANK_REC = agent('bank-rec-discrepancy-finder'); // 0.06 USDC
const EXPORT_TX = agent('export-to-transactions'); // free
const NOW = new Date('2026-11-25T10:00:00.000Z');


const workspace = (balance: bigint): Workspace => ({ keyHash: 'h'.repeat(64), workspaceId: 'ws_1', balance, createdAt: NOW.toISOString() });
const doneMark = (run: RunRecord, result: unknown, engine?: string) => ({ done: { run, result, engine } }) as unknown as LedgerItem;

function fakes(debit: CreditRunDeps['credits']['debit'] = async () => ({ type: 'debited' })) {
  return {
    runs: { creditDoneItem: vi.fn(doneMark), recordUnpaid: vi.fn(async () => {}) },
    credits: { debit: vi.fn(debit), getEntry: vi.fn(async (): Promise<LedgerEntry | undefined> => undefined) },
    now: () => NOW,
    newId: () => 'fixed',
  } satisfies CreditRunDeps;
}

describe('runOnCredit', () => {
  it('bills exactly the price in one transaction with the finished run, and answers the result', async () => {
    const deps = fakes();
    const outcome = await runOnCredit(deps, { agent: BANK_REC, input: INPUT, workspace: workspace(1_000_000n) });
    expect(outcome).toMatchObject({ type: 'done', charged: 60_000n, answer: { runId: 'run_fixed', settled: true, totalCostUsdc: 0.06 } });
    if (outcome.type !== 'done') throw new Error('not done');
    expect(outcome.answer.result).toEqual(EXPECTED);
    expect(deps.credits.debit).toHaveBeenCalledTimes(1);
    const [ws, runId, price, also] = deps.credits.debit.mock.calls[0];
    expect([ws.workspaceId, runId, price, also?.agent]).toEqual(['ws_1', 'run_fixed', 60_000n, BANK_REC.slug]);
    // The run travels in the debit's transaction, finished, with the result the buyer gets.
    expect(also?.items).toEqual([doneMark(expect.anything(), outcome.answer.result)]);
    const [run] = deps.runs.creditDoneItem.mock.calls[0];
    expect(run).toMatchObject({ runId: 'run_fixed', mode: 'credit', workspaceId: 'ws_1', cost: '60000', agent: BANK_REC.slug });
    expect(run).not.toHaveProperty('payer');
  });

  it('refuses without a workspace, and with a balance below the price, before any work', async () => {
    const analyse = vi.spyOn(BANK_REC.engine, 'explain');
    try {
      const deps = fakes();
      expect(await runOnCredit(deps, { agent: BANK_REC, input: INPUT })).toEqual({ type: 'no-workspace', price: 60_000n });
      expect(await runOnCredit(deps, { agent: BANK_REC, input: INPUT, workspace: workspace(59_999n) })).toEqual({
        type: 'insufficient-credit',
        balance: 59_999n,
        price: 60_000n,
      });
      expect(analyse).not.toHaveBeenCalled();
      expect(deps.credits.debit).not.toHaveBeenCalled();
    } finally {
      analyse.mockRestore();
    }
  });

  it('a balance drained by concurrent calls between the read and the debit: refused, nothing billed or answered', async () => {
    const deps = fakes(async () => {
      throw new InsufficientCreditError(20_000n, 60_000n);
    });
    expect(await runOnCredit(deps, { agent: BANK_REC, input: INPUT, workspace: workspace(60_000n) })).toEqual({
      type: 'insufficient-credit',
      balance: 20_000n,
      price: 60_000n,
    });
  });

  it('input the engine cannot read is the buyer’s error: nothing billed', async () => {
    const deps = fakes();
    const outcome = await runOnCredit(deps, { agent: BANK_REC, input: { bankStatement: UNREADABLE_BANK, bookEntries: BOOKS }, workspace: workspace(1_000_000n) });
    expect(outcome).toMatchObject({ type: 'invalid-input', field: 'bankStatement' });
    expect(deps.credits.debit).not.toHaveBeenCalled();
  });

  it('our failure during the work is thrown, nothing billed', async () => {
    const analyse = vi.spyOn(BANK_REC.engine, 'explain').mockImplementation(() => {
      throw new Error('bug');
    });
    try {
      const deps = fakes();
      await expect(runOnCredit(deps, { agent: BANK_REC, input: INPUT, workspace: workspace(1_000_000n) })).rejects.toThrow('bug');
      expect(deps.credits.debit).not.toHaveBeenCalled();
    } finally {
      analyse.mockRestore();
    }
  });

  it('a debit whose write throws is decided by its entry: present → answered; absent → our failure', async () => {
    const timedOut = async (): Promise<never> => {
      throw new Error('socket hang up');
    };
    const applied = fakes(timedOut);
    applied.credits.getEntry.mockResolvedValue({ entryKey: 'debit#run_fixed' } as LedgerEntry);
    expect(await runOnCredit(applied, { agent: BANK_REC, input: INPUT, workspace: workspace(1_000_000n) })).toMatchObject({ type: 'done', charged: 60_000n });
    expect(applied.credits.getEntry).toHaveBeenCalledWith('ws_1', 'debit#run_fixed');

    const notApplied = fakes(timedOut);
    await expect(runOnCredit(notApplied, { agent: BANK_REC, input: INPUT, workspace: workspace(1_000_000n) })).rejects.toThrow('socket hang up');
  });

  it('records the model’s engine when the model answered (ADR 0009)', async () => {
    const reasoner: AgentReasoner = { covers: () => true, reason: async (_a, _i, rules) => ({ result: rules, engine: 'bank-rec/model@1' }) };
    const deps = { ...fakes(), reasoner };
    await runOnCredit(deps, { agent: BANK_REC, input: INPUT, workspace: workspace(1_000_000n) });
    expect(deps.runs.creditDoneItem.mock.calls[0][2]).toBe('bank-rec/model@1');
  });

  it('a free agent runs without a workspace, is recorded unpaid, and bills nothing', async () => {
    const deps = fakes();
    const outcome = await runOnCredit(deps, { agent: EXPORT_TX, input: { export: BANK } });
    expect(outcome).toMatchObject({ type: 'done', charged: 0n, answer: { settled: false, totalCostUsdc: 0 } });
    expect(deps.runs.recordUnpaid).toHaveBeenCalledTimes(1);
    expect(deps.runs.recordUnpaid.mock.calls[0]).toEqual([expect.objectContaining({ mode: 'free', status: 'done' }), expect.anything(), []]); // the conversion has no findings: no evidence
    expect(deps.credits.debit).not.toHaveBeenCalled();
  });
});
