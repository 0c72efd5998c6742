/**
 * GET /api/runs/{runId}'s answer, from a run's record (lambdas/agents/run-answer.ts): a pending run never shows the
 * result it keeps withheld; an ended one answers what its paying request answered, or would have.
 */
import { describe, expect, it } from 'vitest';
import { fetchedRun, runAnswer } from '../../../lambdas/agents/run-answer.js';
import type { RunRecord } from '../../../lambdas/store/runs.js';

const TX = `0x${'ab'.repeat(32)}`;
const record = (over: Partial<RunRecord>): RunRecord => ({
  runId: 'run_1',
  agent: 'bank-rec-discrepancy-finder-bw0tt',
  agentVersion: '3',
  engine: 'bank-rec@1',
  mode: 'paid',
  status: 'done',
  inputSha256: 'f00d',
  cost: '60000',
  createdAt: '2026-11-25T10:00:00.000Z',
  updatedAt: '2026-11-25T10:00:01.000Z',
  ...over,
});
const outputs = { agent: 'bank-rec-discrepancy-finder-bw0tt', version: '3', engine: 'bank-rec@1', inputSha256: 'f00d' };

describe('fetchedRun', () => {
  it.each(['running', 'settlement-unknown'] as const)('a %s run is 202 pending, and its kept result is not shown', (status) => {
    const fetched = fetchedRun(record({ status, result: '{"secret":"s3cr3t-result"}', resultSha256: 'x', transaction: undefined }));
    expect(fetched.status).toBe(202);
    expect(fetched.body).toEqual({ runId: 'run_1', status: 'pending', detail: expect.stringMatching(/not confirmed yet/) });
    expect(JSON.stringify(fetched.body)).not.toContain("s3cr3t");
  });

  it('a settled paid run is 200 with the answer its paying request gave, and its transaction', () => {
    const fetched = fetchedRun(record({ result: '{"matched":3,"unmatched":[]}', transaction: TX }));
    expect(fetched).toEqual({
      status: 200,
      body: { runId: 'run_1', status: 'done', totalCostUsdc: 0.06, outputs, result: { matched: 3, unmatched: [] }, settled: true, transaction: TX },
    });
    // The same shape the paying request answered (built by the same function).
    const { transaction: _t, ...answer } = fetched.body as Record<string, unknown>;
    expect(answer).toEqual(runAnswer({ run: record({}), price: 60_000n, result: { matched: 3, unmatched: [] }, settled: true }));
  });

  it('a paid run the sweeper recorded without a result says so: result null, the note', () => {
    const fetched = fetchedRun(record({ transaction: TX, note: 'settled; result not recorded' }));
    expect(fetched.body).toMatchObject({ status: 'done', result: null, settled: true, transaction: TX, note: 'settled; result not recorded' });
  });

  it('a failed run is 200 failed with why, nothing charged', () => {
    expect(fetchedRun(record({ status: 'failed', error: 'Payment not settled: insufficient balance' }))).toEqual({
      status: 200,
      body: { runId: 'run_1', status: 'failed', error: 'Payment not settled: insufficient balance', settled: false, totalCostUsdc: 0 },
    });
  });

  it('free, dry and credit runs: settled only when a price was charged', () => {
    expect(fetchedRun(record({ mode: 'free', cost: '0', result: '1' })).body).toMatchObject({ totalCostUsdc: 0, settled: false, result: 1 });
    expect(fetchedRun(record({ mode: 'dry-run', cost: '0', result: '{"preview":true}' })).body).toMatchObject({ totalCostUsdc: 0, settled: false, dryRun: true });
    expect(fetchedRun(record({ mode: 'credit', cost: '50000', result: '2' })).body).toMatchObject({ totalCostUsdc: 0.05, settled: true, result: 2 });
  });
});
