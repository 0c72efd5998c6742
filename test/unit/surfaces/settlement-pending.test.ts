/**
 * A run whose transfer was broadcast without a receipt (docs/decisions/0017): the 503 names where the run is fetched once it
 * settles, on the run route (the Error body) and over A2A (the ErrorInfo's metadata).
 */
import { describe, expect, it } from 'vitest';
import { SettlementPendingError } from '../../../lambdas/shared/errors.js';
import { a2aErrors, agentErrors } from '../../../lambdas/surfaces/error-presenters.js';

const RUN_URL = 'https://agents.example/api/runs/run_abc';
const pending = () => new SettlementPendingError('run_abc', 'no receipt before the deadline', RUN_URL);

describe('settlement_pending names the run and its URL', () => {
  it('run route: 503 with Retry-After, code, runId and runUrl', () => {
    const answer = agentErrors(pending());
    expect(answer.statusCode).toBe(503);
    expect(answer.headers).toMatchObject({ 'Retry-After': '30' });
    expect(JSON.parse(answer.body as string)).toEqual({ detail: expect.stringMatching(/Fetch it from runUrl/), code: 'settlement_pending', runId: 'run_abc', runUrl: RUN_URL });
  });

  it('A2A: the ErrorInfo reason SETTLEMENT_PENDING carries runId and runUrl', () => {
    const answer = a2aErrors(pending());
    expect(answer.statusCode).toBe(503);
    const details = (JSON.parse(answer.body as string) as { error: { details: { reason?: string; metadata?: Record<string, string> }[] } }).error.details;
    expect(details.find((d) => d.reason === 'SETTLEMENT_PENDING')?.metadata).toEqual({ runId: 'run_abc', runUrl: RUN_URL });
  });
});
