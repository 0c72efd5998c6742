/**
 * The run use case (lambdas/agents/run.ts) with in-memory fakes of the runs store, the ledger and the payment core's
 * settle: the order of the ledger moves, which run item travels with each, and what the outcome says.
 */
import { describe, expect, it, vi } from 'vitest';
import { runAgent, type RunDeps, type RunInput, type RunOutcome } from '../../../lambdas/agents/run.js';
import { AGENTS, agentExample, type AgentDefinition } from '../../../lambdas/agents/registry.js';
import { PaymentAlreadyUsedError, type LedgerItem, type PaymentLock } from '../../../lambdas/store/ledger.js';
import { sha256, type RunRecord } from '../../../lambdas/store/runs.js';
import type { AcceptedPayment, Settlement, SettleOptions } from '../../../lambdas/payments/core/types.js';
import { ABANDONED, toldToSend } from '../../support/early-settler.js';
import type { VerifiedPayment } from '../../../lambdas/payments/types.js';
import { BOOKS, EXPECTED, INPUT, UNREADABLE_BANK } from '../../support/bank-rec-case.js';

const agent = (slug: string): AgentDefinition => AGENTS.find((a) => a.slug.startsWith(slug))!;
const BANK_REC = agent('bank-rec-discrepancy-finder');
/** What the engine cites for the case's findings (its own evidence: the run passes it on untouched). */
const EVIDENCE = BANK_REC.engine.explain(INPUT as never).evidence;
const EXPORT_TX = agent('export-to-transactions');

const payment = { kind: 'x402', payer: '0xabc', amount: 60_000n, nonceKey: 'k1' } as unknown as VerifiedPayment;
const RECEIPT = { success: true as const, transaction: '0xt', network: 'eip155:8453', payer: '0xabc' };
const NOW = new Date('2026-11-24T10:00:00.000Z');

/** The ledger items the run store builds, tagged so a test sees which one travelled with which ledger move. */
const reserveMark = (run: RunRecord) => ({ reserve: { ...run } }) as unknown as LedgerItem;
const doneMark = (runId: string, transaction: string, result: unknown) => ({ done: [runId, transaction, result] }) as unknown as LedgerItem;
const failMark = (runId: string, error: string) => ({ fail: [runId, error] }) as unknown as LedgerItem;
const unknownMark = (runId: string, error: string) => ({ unknown: [runId, error] }) as unknown as LedgerItem;

/** Fakes whose every move appends its name to `order`. */
function fakes(settlement: () => Settlement = () => ({ type: 'settled', receipt: RECEIPT })) {
  const order: string[] = [];
  /** Called when the settlement sends: a run that must never settle holds it uncalled. */
  const sent = vi.fn();
  const d = {
    runs: {
      reserveItem: vi.fn(reserveMark),
      doneItem: vi.fn(doneMark),
      failItem: vi.fn(failMark),
      unknownItem: vi.fn(unknownMark),
      recordUnpaid: vi.fn(async (_run: RunRecord, _result: unknown) => void order.push('recordUnpaid')),
    },
    ledger: {
      lock: vi.fn(async (_lock: PaymentLock, _item?: LedgerItem) => void order.push('lock')),
      markSettled: vi.fn(async (_nonceKey: string, _transaction: string, _item?: LedgerItem) => void order.push('markSettled')),
      markFailed: vi.fn(async (_nonceKey: string, _reason: string, _outcome: string, _item?: LedgerItem) => void order.push('markFailed')),
    },
    // Begun beside the lock; `settle` is in the order when it sends, only once the purchase says to.
    settle: vi.fn(async (_payment: AcceptedPayment, options?: SettleOptions): Promise<Settlement> => {
      if (!(await toldToSend(options))) return ABANDONED;
      order.push('settle');
      sent();
      return settlement();
    }),
    now: () => NOW,
    newId: () => 'r1',
  };
  return { d: d satisfies RunDeps, order, sent };
}

const paid = (over: Partial<RunInput> = {}): RunInput => ({ agent: BANK_REC, input: INPUT, dryRun: false, payment, deadline: 1_900_000_000_000, ...over });

function expectType<T extends RunOutcome['type']>(outcome: RunOutcome, type: T): Extract<RunOutcome, { type: T }> {
  expect(outcome.type).toBe(type);
  return outcome as Extract<RunOutcome, { type: T }>;
}

/** An agent whose engine is a spy around the real one (or a replacement). */
function withEngine(base: AgentDefinition, analyse: (input: never) => unknown): AgentDefinition {
  const spy = vi.fn(analyse);
  return { ...base, engine: { id: base.engine.id, analyse: spy, explain: (input: never) => ({ result: spy(input), evidence: [] }) } };
}

describe('Agent run: a priced live run settles only after the engine answered', () => {
  it('locks with the running run, settles, then records the receipt and the result with the run done', async () => {
    const { d, order } = fakes();
    const outcome = expectType(await runAgent(d, paid()), 'done');

    expect(order).toEqual(['lock', 'settle', 'markSettled']);
    expect(d.ledger.lock).toHaveBeenCalledWith(
      { nonceKey: 'k1', amount: 60_000n, payer: '0xabc', purchase: 'run#run_r1' },
      {
        reserve: {
          runId: 'run_r1',
          agent: BANK_REC.slug,
          agentVersion: 'v1',
          engine: BANK_REC.engine.id,
          mode: 'paid',
          status: 'running',
          inputSha256: sha256(JSON.stringify(INPUT)),
          cost: '60000',
          payer: '0xabc',
          buyer: '0xabc',
          nonceKey: 'k1',
          createdAt: NOW.toISOString(),
          updatedAt: NOW.toISOString(),
        },
      },
    );
    expect(d.settle).toHaveBeenCalledWith(payment, { deadline: 1_900_000_000_000, proceed: expect.any(Promise) });
    expect(d.ledger.markSettled).toHaveBeenCalledWith('k1', '0xt', doneMark('run_r1', '0xt', EXPECTED));
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
    expect(d.runs.recordUnpaid).not.toHaveBeenCalled();

    expect(outcome.receipt).toEqual(RECEIPT);
    expect(outcome.answer).toEqual({
      runId: 'run_r1',
      status: 'done',
      totalCostUsdc: 0.06,
      // The evidence of each finding rides in outputs, and is recorded with the result.
      outputs: { agent: BANK_REC.slug, version: 'v1', engine: BANK_REC.engine.id, inputSha256: sha256(JSON.stringify(INPUT)), evidence: EVIDENCE },
      result: EXPECTED,
      settled: true,
    });
    expect(d.runs.doneItem).toHaveBeenCalledWith('run_r1', '0xt', EXPECTED, BANK_REC.engine.id, EVIDENCE);
    expect(BANK_REC.resultSchema.parse(outcome.answer.result)).toEqual(EXPECTED);
  });

  it('answers the result even when the settled record cannot be written (the money has moved)', async () => {
    const { d } = fakes();
    d.ledger.markSettled.mockRejectedValue(new Error('dynamo down'));
    const outcome = expectType(await runAgent(d, paid()), 'done');
    expect(outcome.answer).toMatchObject({ settled: true, result: EXPECTED });
  });
});

describe('Agent run: input the engine cannot read is a 400 and nothing settles', () => {
  it('closes the run failed and releases the lock (nothing moved), naming the input field', async () => {
    const { d, order, sent } = fakes();
    const input = { bankStatement: UNREADABLE_BANK, bookEntries: BOOKS };
    const outcome = expectType(await runAgent(d, paid({ input })), 'invalid-input');

    expect(outcome.field).toBe('bankStatement');
    expect(outcome.message).toMatch(/^bankStatement: no amount column found/);
    expect(order).toEqual(['lock', 'markFailed']);
    expect(sent).not.toHaveBeenCalled();
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
    const [nonceKey, reason, moved, item] = d.ledger.markFailed.mock.calls[0];
    expect([nonceKey, moved]).toEqual(['k1', 'nothing-moved']);
    expect(reason).toMatch(/^input rejected: bankStatement: no amount column found/);
    expect(item).toEqual(failMark('run_r1', reason));
  });
});

describe('Agent run: a failure of ours is a 500 and nothing settles', () => {
  it('closes the run failed (nothing moved), never settles, and rethrows the error', async () => {
    const { d, order, sent } = fakes();
    const broken = withEngine(BANK_REC, () => {
      throw new Error('engine bug');
    });
    await expect(runAgent(d, paid({ agent: broken }))).rejects.toThrow('engine bug');
    expect(order).toEqual(['lock', 'markFailed']);
    expect(sent).not.toHaveBeenCalled();
    expect(d.ledger.markFailed).toHaveBeenCalledWith('k1', 'the agent failed', 'nothing-moved', failMark('run_r1', 'the agent failed'));
  });

  it('an AgentInputError-like plain Error is still ours (only the class decides)', async () => {
    const { d, sent } = fakes();
    const broken = withEngine(BANK_REC, () => {
      throw Object.assign(new Error('bankStatement: nope'), { field: 'bankStatement' });
    });
    await expect(runAgent(d, paid({ agent: broken }))).rejects.toThrow('bankStatement: nope');
    expect(sent).not.toHaveBeenCalled();
  });
});

describe('Agent run: a payment that does not settle gives no result', () => {
  it('refused: closes the run failed, releases the lock, and answers refused with the reason and Retry-After', async () => {
    const { d, order } = fakes(() => ({ type: 'refused', reason: 'settler busy', retryAfterSeconds: 3 }));
    const outcome = await runAgent(d, paid());
    expect(outcome).toEqual({ type: 'refused', reason: 'settler busy', retryAfterSeconds: 3 });
    expect(order).toEqual(['lock', 'settle', 'markFailed']);
    expect(d.ledger.markFailed).toHaveBeenCalledWith('k1', 'settler busy', 'nothing-moved', failMark('run_r1', 'Payment not settled: settler busy'));
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
  });

  it('refused without a retry hint: no retryAfterSeconds member', async () => {
    const { d } = fakes(() => ({ type: 'refused', reason: 'insufficient funds' }));
    expect(await runAgent(d, paid())).toEqual({ type: 'refused', reason: 'insufficient funds' });
  });

  it('unavailable: closes the run failed (nothing moved) and answers unavailable', async () => {
    const { d, order } = fakes(() => ({ type: 'unavailable', reason: 'no settlement key' }));
    const outcome = await runAgent(d, paid());
    expect(outcome).toEqual({ type: 'unavailable', reason: 'no settlement key' });
    expect(order).toEqual(['lock', 'settle', 'markFailed']);
    expect(d.ledger.markFailed).toHaveBeenCalledWith('k1', 'no settlement key', 'nothing-moved', failMark('run_r1', 'Payment not settled: no settlement key'));
  });

  it('unknown outcome: keeps the lock (may have moved), marks the run settlement-unknown and withholds the result', async () => {
    const { d, order } = fakes(() => ({ type: 'unknown-outcome', reason: 'no receipt by the deadline' }));
    const outcome = await runAgent(d, paid());
    expect(outcome).toEqual({ type: 'settlement-unknown', runId: 'run_r1', reason: 'no receipt by the deadline' });
    expect(order).toEqual(['lock', 'settle', 'markFailed']);
    expect(d.ledger.markFailed).toHaveBeenCalledWith(
      'k1',
      'no receipt by the deadline',
      'may-have-moved',
      unknownMark('run_r1', 'no receipt by the deadline'),
    );
    expect(d.runs.failItem).not.toHaveBeenCalled();
    expect(d.runs.doneItem).not.toHaveBeenCalled();
    // the result is in no member of the outcome, nor in any record written
    expect(JSON.stringify(outcome)).not.toContain('Wire fee');
    expect(JSON.stringify(d.ledger.markFailed.mock.calls)).not.toContain('Wire fee');
  });

  it('unknown outcome: still answers settlement-unknown when the mark cannot be written', async () => {
    const { d } = fakes(() => ({ type: 'unknown-outcome', reason: 'rpc timeout' }));
    d.ledger.markFailed.mockRejectedValue(new Error('dynamo down'));
    expect(await runAgent(d, paid())).toEqual({ type: 'settlement-unknown', runId: 'run_r1', reason: 'rpc timeout' });
  });
});

describe('Agent run: an authorization pays once', () => {
  it('a used authorization is refused at the lock: the engine never runs and nothing settles', async () => {
    const { d, order, sent } = fakes();
    d.ledger.lock.mockImplementation(async () => {
      order.push('lock');
      throw new PaymentAlreadyUsedError();
    });
    const spied = withEngine(BANK_REC, BANK_REC.engine.analyse as (input: never) => unknown);
    const outcome = await runAgent(d, paid({ agent: spied }));
    expect(outcome).toEqual({ type: 'refused', reason: 'Payment authorization already used' });
    expect(order).toEqual(['lock']);
    expect(spied.engine.analyse).not.toHaveBeenCalled();
    expect(sent).not.toHaveBeenCalled();
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
  });

  it('any other lock failure propagates (an outage is not a refusal) and the engine never runs', async () => {
    const { d, sent } = fakes();
    d.ledger.lock.mockRejectedValue(new Error('dynamo down'));
    const spied = withEngine(BANK_REC, BANK_REC.engine.analyse as (input: never) => unknown);
    await expect(runAgent(d, paid({ agent: spied }))).rejects.toThrow('dynamo down');
    expect(spied.engine.analyse).not.toHaveBeenCalled();
    expect(sent).not.toHaveBeenCalled();
  });
});

describe('Agent run: a free agent moves no money', () => {
  const exportInput = { export: 'Date,Details,Amount\n2026-05-04,Deposit Zephyr Ltd,4321.09\n' };

  it('runs without a payment: no ledger move, no settlement, the run recorded free and done', async () => {
    expect(EXPORT_TX.price).toBe(0n);
    const { d, order } = fakes();
    const outcome = expectType(await runAgent(d, { agent: EXPORT_TX, input: exportInput, dryRun: false }), 'done');
    expect(order).toEqual(['recordUnpaid']);
    expect(d.ledger.lock).not.toHaveBeenCalled();
    expect(d.settle).not.toHaveBeenCalled();
    const { result: expected, evidence } = EXPORT_TX.engine.explain(exportInput as never);
    expect(d.runs.recordUnpaid).toHaveBeenCalledWith(
      expect.objectContaining({ runId: 'run_r1', mode: 'free', status: 'done', cost: '0', agent: EXPORT_TX.slug }),
      expected,
      evidence,
    );
    expect(d.runs.recordUnpaid.mock.calls[0][0]).not.toHaveProperty('payer');
    expect(outcome.receipt).toBeUndefined();
    expect(outcome.answer).toMatchObject({ runId: 'run_r1', status: 'done', totalCostUsdc: 0, settled: false, result: expected });
    expect(outcome.answer).not.toHaveProperty('dryRun');
    expect(JSON.stringify(outcome.answer.result)).toContain('4321.09');
  });

  it('unreadable input of a free run is invalid-input, and nothing is recorded', async () => {
    const { d } = fakes();
    const outcome = await runAgent(d, { agent: EXPORT_TX, input: { export: 'Date,Details\n2026-05-04,x\n' }, dryRun: false });
    expect(expectType(outcome, 'invalid-input').field).toBe('export');
    expect(d.runs.recordUnpaid).not.toHaveBeenCalled();
  });
});

describe('Agent run: a dry run validates the input and gives none of the paid work away', () => {
  it('records and answers the preview of the agent example, with the price it would cost, settled false', async () => {
    const { d, order } = fakes();
    const outcome = expectType(await runAgent(d, { agent: BANK_REC, input: INPUT, dryRun: true }), 'done');

    expect(order).toEqual(['recordUnpaid']);
    expect(d.ledger.lock).not.toHaveBeenCalled();
    expect(d.settle).not.toHaveBeenCalled();
    const [run, recorded] = d.runs.recordUnpaid.mock.calls[0];
    expect(run).toMatchObject({ runId: 'run_r1', mode: 'dry-run', status: 'done', cost: '0' });
    expect(recorded).toEqual(outcome.answer.result);

    const result = outcome.answer.result as Record<string, unknown>;
    expect(result).toMatchObject({ preview: true, inputAccepted: true, example: agentExample(BANK_REC) });
    expect(outcome.answer).toMatchObject({ runId: 'run_r1', status: 'done', totalCostUsdc: 0.06, settled: false, dryRun: true });
    expect(outcome.receipt).toBeUndefined();

    // None of the buyer's own result: not its amounts, descriptions, dates, nor the result object itself.
    const shown = JSON.stringify(outcome.answer) + JSON.stringify(recorded);
    for (const own of ['Zephyr', 'Wire fee', '4321.09', '-12.50', '2026-05-29', EXPECTED.note]) expect(shown).not.toContain(own);
    expect(JSON.stringify(result.example)).not.toContain(JSON.stringify(EXPECTED));
  });

  it('still reads the buyer input in full: unreadable input is invalid-input and nothing is recorded', async () => {
    const { d } = fakes();
    const outcome = await runAgent(d, { agent: BANK_REC, input: { ...INPUT, bookEntries: 'Date,Memo\n2026-05-03,x\n' }, dryRun: true });
    const invalid = expectType(outcome, 'invalid-input');
    expect(invalid.field).toBe('bookEntries');
    expect(invalid.message).toMatch(/no amount column/);
    expect(d.runs.recordUnpaid).not.toHaveBeenCalled();
  });
});
