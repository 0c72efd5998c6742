/**
 * "Operability": renders completed / failed per product and provider with render time
 * (lambdas/workflow/tasks.ts), jobs voided, reconciled and stuck (lambdas/workflow/sweeper.ts), 402s and 429s (the
 * HTTP frame), each invocation's counts flushed as it ends, and the rule of lambdas/payments/gas-metric.ts: nothing
 * written off Lambda unless PAYCALL_METRICS=stdout, nothing under LOG_LEVEL=SILENT.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { markCompleted, markFailed, type TaskDeps } from '../../../lambdas/workflow/tasks.js';
import { sweep, type SweepDeps } from '../../../lambdas/workflow/sweeper.js';
import { frame } from '../../../lambdas/middleware/http-frame.js';
import { count, countPaid, flushMetrics } from '../../../lambdas/shared/metrics.js';
import { PaymentRequiredError, RateLimitedError } from '../../../lambdas/shared/errors.js';
import { GENERATION } from '../../../lambdas/surfaces/surface.js';
import type { JobRecord, JobStatus } from '../../../lambdas/store/jobs.js';
import type { LedgerItem } from '../../../lambdas/store/ledger.js';
import { chain, httpEvent } from '../../support/events.js';
import { capturePerTest } from './emf.js';

const metrics = capturePerTest();
afterEach(() => {
  vi.doUnmock('../../../lambdas/workflow/sweep-deps.js');
});

const CREATED = '2026-11-22T12:00:00.000Z';
const storedJob = (over: Partial<JobRecord> = {}): JobRecord =>
  ({ jobId: 'j1', product: 'agent_video', status: 'completed', provider: 'replicate', createdAt: CREATED, updatedAt: '2026-11-22T12:01:30.500Z', ...over }) as JobRecord;

function taskDeps(job: JobRecord | undefined, moved = true) {
  const jobs = {
    get: vi.fn(async (_jobId: string) => job),
    markProcessing: vi.fn(async () => true),
    recordProviderJob: vi.fn(async () => undefined),
    complete: vi.fn(async () => moved),
    fail: vi.fn(async () => moved),
  };
  return { jobs, provider: () => ({}) as never, assets: () => ({}) as never } satisfies TaskDeps;
}
const stored = { assets: { video: 'assets/j1/video.mp4' }, metadata: {} };
const render = { renderId: 'r1', provider: 'replicate', state: 'done' as const, attempts: 3 };

describe('Metrics: renders completed and failed, per product and provider, with render time', () => {
  it('a completed job counts RendersCompleted 1 and RenderSeconds from purchase to asset (createdAt → updatedAt)', async () => {
    await markCompleted(taskDeps(storedJob()), { jobId: 'j1', product: 'agent_video', render, stored });
    const dimensions = { service: 'paycall', product: 'agent_video', provider: 'replicate' };
    expect(metrics.emitted()).toEqual([
      { name: 'RendersCompleted', unit: 'Count', value: 1, namespace: 'Paycall', dimensions },
      { name: 'RenderSeconds', unit: 'Seconds', value: 90.5, namespace: 'Paycall', dimensions },
    ]);
  });

  it('a failed job counts RendersFailed 1 with the provider the job was bought from, and no render time', async () => {
    const result = await markFailed(taskDeps(storedJob({ product: 'agent_image', provider: 'local', status: 'failed' })), { jobId: 'j1', product: 'agent_image' });
    expect(result.status).toBe('failed');
    expect(metrics.emitted()).toEqual([
      { name: 'RendersFailed', unit: 'Count', value: 1, namespace: 'Paycall', dimensions: { service: 'paycall', product: 'agent_image', provider: 'local' } },
    ]);
  });

  it('a task that did not move the job (already final, a retried task) counts nothing', async () => {
    const deps = taskDeps(storedJob(), false);
    await markCompleted(deps, { jobId: 'j1', product: 'agent_video', render, stored });
    expect(deps.jobs.get).not.toHaveBeenCalled();
    await markFailed(deps, { jobId: 'j1', product: 'agent_video' });
    expect(metrics.emitted()).toEqual([]);
    // Mark failed reads the job once, before failing it, to know whether a refund is owed; not again for metrics.
    expect(deps.jobs.get).toHaveBeenCalledTimes(1);
  });

  it('a job that cannot be read still counts the render, without its time; a failing read never fails the task', async () => {
    await markCompleted(taskDeps(undefined), { jobId: 'j1', product: 'agent_video', render, stored });
    const deps = taskDeps(undefined);
    deps.jobs.get.mockRejectedValueOnce(new Error('throttled'));
    await expect(markCompleted(deps, { jobId: 'j1', product: 'agent_video', render, stored })).resolves.toEqual({ status: 'completed' });
    expect(metrics.emitted().map((m) => [m.name, m.dimensions.provider])).toEqual([['RendersCompleted', 'replicate']]);
  });
});

const reserved = (jobId: string): JobRecord =>
  ({ jobId, status: 'reserved', product: 'agent_image', paymentKind: 'x402', amount: '150000', createdAt: '2026-11-22T11:00:00Z', nonceKey: `n:${jobId}` }) as JobRecord;
const processing = (jobId: string): JobRecord => ({ jobId, status: 'processing', product: 'agent_image' }) as JobRecord;

function sweepDeps(jobs: JobRecord[], used: (nonceKey: string) => boolean): SweepDeps {
  return {
    jobs: {
      listStale: async (_: Date, statuses: JobStatus[] = ['queued', 'processing']) => jobs.filter((j) => statuses.includes(j.status)),
      fail: async () => true,
      queueItem: () => ({}) as LedgerItem,
      voidItem: () => ({}) as LedgerItem,
    },
    ledger: { markSettled: async () => {}, markFailed: async () => {}, state: async () => 'locked' },
    // An execution of the processing job already ended without marking it: the sweeper fails it (stuck).
    workflow: { start: async ({ jobId }) => (jobId.startsWith('p') ? 'exists' : 'started'), state: async () => 'FAILED' as never },
    paidOnChain: async ({ nonceKey }) => (used(nonceKey) ? { state: 'paid', transaction: '0xt' } : { state: 'unused' }),
  };
}

describe('Metrics: the sweeper counts jobs voided, reconciled and stuck', () => {
  it('one sweep: JobsVoided, JobsReconciled and JobsStuck with their counts, on one line as the invocation ends', async () => {
    const jobs = [reserved('v1'), reserved('v2'), reserved('c1'), processing('p1')];
    const result = await sweep(sweepDeps(jobs, (key) => key === 'n:c1'), 0, 0);
    expect(result).toMatchObject({ voided: ['v1', 'v2'], reconciled: ['c1'], failed: ['p1'] });
    expect(metrics.emitted()).toEqual([]);
    flushMetrics();
    expect(metrics.lines()).toHaveLength(1);
    expect(metrics.emitted().map((m) => [m.name, m.value, m.unit, m.dimensions])).toEqual([
      ['JobsVoided', 2, 'Count', { service: 'paycall' }],
      ['JobsReconciled', 1, 'Count', { service: 'paycall' }],
      ['JobsStuck', 1, 'Count', { service: 'paycall' }],
    ]);
  });

  it('a quiet sweep still writes zeros, so an alarm sees the sweeper run', async () => {
    await sweep(sweepDeps([], () => false), 0, 0);
    flushMetrics();
    expect(metrics.emitted().map((m) => [m.name, m.value])).toEqual([
      ['JobsVoided', 0],
      ['JobsReconciled', 0],
      ['JobsStuck', 0],
    ]);
  });

  it('the sweeper function publishes its counts as its invocation ends (a non-Middy handler)', async () => {
    vi.doMock('../../../lambdas/workflow/sweep-deps.js', () => ({ sweepDeps: () => sweepDeps([reserved('v1')], () => false) }));
    const { handler } = await import('../../../lambdas/workflow/sweep.js');
    await handler();
    expect(metrics.emitted().map((m) => [m.name, m.value])).toEqual([
      ['JobsVoided', 1],
      ['JobsReconciled', 0],
      ['JobsStuck', 0],
    ]);
  });
});

describe('Metrics: 402s and 429s, counted once in the HTTP frame as the answer is sent', () => {
  const challenge = { x402Version: 2, error: 'PAYMENT-SIGNATURE header is required', accepts: [] };

  it('a 402 from a presenter counts Http402 1, flushed at the end of the invocation', async () => {
    const c = chain(frame(GENERATION), () => {
      throw new PaymentRequiredError(challenge);
    });
    expect((await c.invoke(httpEvent())).statusCode).toBe(402);
    expect(metrics.emitted()).toEqual([{ name: 'Http402', unit: 'Count', value: 1, namespace: 'Paycall', dimensions: { service: 'paycall' } }]);
  });

  it('a 429 counts Http429 1; a 402 a handler returns itself is counted too', async () => {
    const limited = chain(frame(GENERATION), () => {
      throw new RateLimitedError(7);
    });
    expect((await limited.invoke(httpEvent())).statusCode).toBe(429);
    const returned = chain(frame(GENERATION), () => ({ statusCode: 402, headers: {}, body: '{}' }));
    expect((await returned.invoke(httpEvent())).statusCode).toBe(402);
    expect(metrics.emitted().map((m) => [m.name, m.value])).toEqual([
      ['Http429', 1],
      ['Http402', 1],
    ]);
  });

  it('a 200 counts nothing and writes nothing; a count made during the request is flushed with it', async () => {
    expect((await chain(frame(GENERATION)).invoke(httpEvent())).statusCode).toBe(200);
    expect(metrics.write).not.toHaveBeenCalled();
    const counting = chain(frame(GENERATION), () => {
      count('SettlementFailed');
      return { statusCode: 200, headers: {}, body: '{}' };
    });
    await counting.invoke(httpEvent());
    expect(metrics.emitted().map((m) => m.name)).toEqual(['SettlementFailed']);
  });
});

describe('Metrics stay off the developer terminal (the rule of gas-metric.ts)', () => {
  it('off Lambda without PAYCALL_METRICS nothing is written, and nothing is kept for later', async () => {
    vi.stubEnv('PAYCALL_METRICS', undefined as unknown as string);
    countPaid('agent_image', 150000n);
    count('Http402');
    flushMetrics();
    expect(metrics.write).not.toHaveBeenCalled();
    vi.stubEnv('PAYCALL_METRICS', 'stdout');
    flushMetrics();
    expect(metrics.write).not.toHaveBeenCalled();
  });

  it('under LOG_LEVEL=SILENT (the test suites) nothing is written, even on Lambda', () => {
    vi.stubEnv('LOG_LEVEL', 'SILENT');
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'AgentImage');
    countPaid('agent_image', 150000n);
    flushMetrics();
    expect(metrics.write).not.toHaveBeenCalled();
  });

  it('on Lambda (AWS_LAMBDA_FUNCTION_NAME set) metrics are written without PAYCALL_METRICS', () => {
    vi.stubEnv('PAYCALL_METRICS', undefined as unknown as string);
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'AgentImage');
    countPaid('agent_image', 150000n);
    expect(metrics.emitted().map((m) => [m.name, m.value])).toEqual([
      ['PaidRequests', 1],
      ['RevenueBaseUnits', 150000],
    ]);
  });
});
