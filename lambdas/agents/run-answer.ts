/**
 * The answer of a run (the spec's "Agent run" result), built from what the run was: the paying request's answer
 * (lambdas/agents/run.ts) and `GET /api/runs/{runId}` (lambdas/http/agents/get-run.ts, from the run's record) are
 * the same shape because they are built here, once.
 */
import type { RunRecord } from '../store/runs.js';
import { usdcNumber } from './money.js';

/** The run result shape of the spec (field names are the spec's); `transaction` only in a fetched paid run. */
export interface RunAnswer {
  runId: string;
  status: 'done';
  totalCostUsdc: number;
  outputs: Record<string, unknown>;
  result: unknown;
  settled: boolean;
  dryRun?: true;
}

export interface AnswerFields {
  run: Pick<RunRecord, 'runId' | 'inputSha256' | 'agent' | 'agentVersion' | 'engine'>;
  /** What the run costs (a dry run: what the live run would cost), USDC base units. */
  price: bigint;
  result: unknown;
  /** What each finding of the result rests on (the engine's evidence), when the run kept it. */
  evidence?: unknown[];
  settled: boolean;
  dryRun?: boolean;
}

export function runAnswer({ run, price, result, evidence, settled, dryRun }: AnswerFields): RunAnswer {
  return {
    runId: run.runId,
    status: 'done',
    // A dry run states the price the live run would cost (settled: false says nothing was charged).
    totalCostUsdc: settled || dryRun ? usdcNumber(price) : 0,
    // The evidence rides in `outputs`, outside the published result schema, so every protocol's answer carries it
    // (A2A and MCP answer `outputs` beside the result) and an auditor can check each finding against the input.
    outputs: { agent: run.agent, version: run.agentVersion, engine: run.engine, inputSha256: run.inputSha256, ...(evidence ? { evidence } : {}) },
    result,
    settled,
    ...(dryRun ? { dryRun: true as const } : {}),
  };
}

/** What `GET /api/runs/{runId}` answers for a run's record. */
export type FetchedRun =
  | { status: 202; body: { runId: string; status: 'pending'; detail: string } }
  | { status: 200; body: (RunAnswer & { transaction?: string; note?: string }) | { runId: string; status: 'failed'; error: string; settled: false; totalCostUsdc: 0 } };

/**
 * A run's record as its buyer fetches it. Open (`running`, `settlement-unknown`): 202, the result withheld until
 * the chain decides (the sweeper records it within a couple of minutes). Done: 200 with the answer the paying
 * request gave, or would have given — its result as recorded (null, with `note`, for a paid run whose function
 * died before it had one) and, for a paid run, its transaction. Failed: 200 with why; nothing was charged.
 * A dry run's record keeps no price: fetched, it states 0.
 */
export function fetchedRun(record: RunRecord): FetchedRun {
  const { runId } = record;
  if (record.status === 'running' || record.status === 'settlement-unknown') {
    return {
      status: 202,
      body: { runId, status: 'pending', detail: 'The payment of this run is not confirmed yet; its result is withheld until it settles. Ask again later.' },
    };
  }
  if (record.status === 'failed') {
    return { status: 200, body: { runId, status: 'failed', error: record.error ?? 'the run failed', settled: false, totalCostUsdc: 0 } };
  }
  const charged = record.mode === 'paid' || record.mode === 'credit';
  const answer = runAnswer({
    run: record,
    price: BigInt(record.cost),
    result: record.result === undefined ? null : JSON.parse(record.result),
    evidence: record.evidence === undefined ? undefined : (JSON.parse(record.evidence) as unknown[]),
    settled: charged,
    dryRun: record.mode === 'dry-run',
  });
  return {
    status: 200,
    body: { ...answer, ...(record.transaction ? { transaction: record.transaction } : {}), ...(record.note ? { note: record.note } : {}) },
  };
}
