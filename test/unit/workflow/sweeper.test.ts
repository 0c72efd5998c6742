import { describe, expect, it, vi } from 'vitest';
import { sweep, type SweepDeps } from '../../../lambdas/workflow/sweeper.js';
import type { JobRecord, JobStatus } from '../../../lambdas/store/jobs.js';

const job = (jobId: string, status: JobStatus): JobRecord =>
  ({ jobId, status, product: 'agent_image', nonceKey: `eip155:8453:0xa:0xb:0x${jobId}` }) as JobRecord;

function deps(jobs: JobRecord[], over: Partial<SweepDeps> = {}) {
  return {
    jobs: {
      listStale: vi.fn(async (_: Date, statuses: JobStatus[] = ['queued', 'processing']) => jobs.filter((j) => statuses.includes(j.status))),
      fail: vi.fn(async () => true),
    },
    payments: { settled: vi.fn(async () => {}), settleFailed: vi.fn(async () => {}) },
    workflow: { start: vi.fn(async () => 'started' as const), state: vi.fn(async () => 'RUNNING' as const) },
    paymentMoved: vi.fn(async () => false),
    ...over,
  };
}

describe('Sweeper: a settled payment always has a job row and a receipt row', () => {
  it('records the receipt and starts a reserved job whose authorization the chain shows as used', async () => {
    const d = deps([job('r1', 'reserved')], { paymentMoved: vi.fn(async () => true) });
    const result = await sweep(d, 120);
    expect(d.payments.settled).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xr1', 'r1', 'reconciled');
    expect(d.workflow.start).toHaveBeenCalledWith('r1', 'agent_image');
    expect(result.reconciled).toEqual(['r1']);
  });
  it('voids a reserved job whose authorization was never used, releasing the nonce', async () => {
    const d = deps([job('r2', 'reserved')]);
    const result = await sweep(d, 120);
    expect(d.payments.settleFailed).toHaveBeenCalledWith('eip155:8453:0xa:0xb:0xr2', 'r2', expect.any(String), false);
    expect(d.workflow.start).not.toHaveBeenCalled();
    expect(result.voided).toEqual(['r2']);
  });
  it('does not void an unused authorization that could still land (before its validBefore); voids it after', async () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const at = Math.floor(now.getTime() / 1000);
    const open = { ...job('r3', 'reserved'), validBefore: at + 60 };
    const d = deps([open], { now: () => now });
    expect(await sweep(d, 120)).toMatchObject({ voided: [], running: ['r3'] });
    expect(d.payments.settleFailed).not.toHaveBeenCalled();

    const expired = { ...job('r4', 'reserved'), validBefore: at - 1 };
    const e = deps([expired], { now: () => now });
    expect((await sweep(e, 120)).voided).toEqual(['r4']);
  });
});

describe('Sweeper: a job always ends completed or failed', () => {
  it('starts a durable job whose execution never started', async () => {
    const d = deps([job('q1', 'queued')]);
    expect((await sweep(d, 120)).started).toEqual(['q1']);
  });
  it('leaves a running execution alone and fails a job whose execution ended without marking it', async () => {
    const d = deps([job('p1', 'processing'), job('p2', 'processing')], {
      workflow: { start: vi.fn(async () => 'exists' as const), state: vi.fn(async (id: string) => (id === 'p1' ? 'RUNNING' : 'FAILED') as never) },
    });
    const result = await sweep(d, 120);
    expect(result.running).toEqual(['p1']);
    expect(result.failed).toEqual(['p2']);
    expect(d.jobs.fail).toHaveBeenCalledWith('p2', expect.stringContaining('Generation failed'), ['queued', 'processing']);
  });
  it('keeps sweeping other jobs when one fails', async () => {
    const d = deps([job('a', 'queued'), job('b', 'queued')], {
      workflow: { start: vi.fn(async (id: string) => { if (id === 'a') throw new Error('throttled'); return 'started' as const; }), state: vi.fn() },
    });
    expect((await sweep(d, 120)).started).toEqual(['b']);
  });
});
