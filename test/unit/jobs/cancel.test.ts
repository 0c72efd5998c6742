/**
 * Cancel a job (docs/decisions/0017): the cancel token (lambdas/jobs/job-secrets.ts) and the use case (lambdas/jobs/cancel.ts),
 * with fakes for the store and the workflow. The races against the render and a second cancel run on the real parts
 * in test/components/cancel-job.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { cancelToken, isCancelToken, serviceKey } from '../../../lambdas/jobs/job-secrets.js';
import { CANCELED, cancelJob, cancelTarget, type CancelDeps } from '../../../lambdas/jobs/cancel.js';
import type { JobRecord, JobStatus } from '../../../lambdas/store/jobs.js';
import { resetSecretCache } from '../../../lambdas/shared/secrets.js';

const KEY = Buffer.alloc(32, 7);

describe('cancel tokens', () => {
  it('are derived per job and per key, url-safe, and checked in constant time', () => {
    const token = cancelToken(KEY, 'img_1');
    expect(token).toMatch(/^ct_[A-Za-z0-9_-]{43}$/);
    expect(cancelToken(KEY, 'img_1')).toBe(token);
    expect(cancelToken(KEY, 'img_2')).not.toBe(token);
    expect(cancelToken(randomBytes(32), 'img_1')).not.toBe(token);
    expect(isCancelToken(KEY, 'img_1', token)).toBe(true);
    expect(isCancelToken(KEY, 'img_2', token)).toBe(false);
    expect(isCancelToken(KEY, 'img_1', token.slice(0, -1))).toBe(false);
    expect(isCancelToken(KEY, 'img_1', '')).toBe(false);
  });

  it('the service key must be hex of at least 32 bytes; the error names the secret, never the value', async () => {
    const { SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
    for (const [value, ok] of [['ab'.repeat(32), true], ['ab'.repeat(31), false], ['not hex at all, but long enough to be a key of sorts', false]] as const) {
      resetSecretCache();
      vi.spyOn(SecretsManagerClient.prototype, 'send').mockResolvedValue({ SecretString: value } as never);
      const read = serviceKey({ SERVICE_KEY_SECRET_ID: 'paycall/service-key' });
      if (ok) await expect(read).resolves.toEqual(Buffer.from(value, 'hex'));
      else {
        const error = await read.catch((e: Error) => e);
        expect(error).toMatchObject({ name: 'ServiceKeyError', message: expect.stringContaining('secret paycall/service-key') });
        expect((error as Error).message).not.toContain(value);
      }
      vi.restoreAllMocks();
    }
    resetSecretCache();
    await expect(serviceKey({})).rejects.toThrow(/No service key configured: set SERVICE_KEY_SECRET_ID/);
  });
});

describe('cancelJob', () => {
  const job = (status: JobStatus, over: Partial<JobRecord> = {}) =>
    ({ jobId: 'img_1', product: 'agent_image', status, provider: 'local', transaction: '0xtx', payer: '0xpayer', ...over }) as JobRecord;

  function deps(current: JobRecord, failWins = true) {
    let row = current;
    const d = {
      jobs: {
        get: vi.fn(async () => row),
        fail: vi.fn(async (_id: string, error: string, _from?: JobStatus[], refund?: boolean) => {
          if (!failWins) return false;
          row = { ...row, status: 'failed', error, ...(refund ? { refund: { status: 'pending' } } : {}) } as JobRecord;
          return true;
        }),
      },
      workflow: { stop: vi.fn(async () => 'stopped' as const) },
    };
    return d satisfies CancelDeps;
  }

  it('a queued paid job: failed "canceled" from queued only, the refund owed in the same write, its execution stopped', async () => {
    const d = deps(job('queued'));
    const outcome = await cancelJob(d, job('queued'));
    expect(d.jobs.fail).toHaveBeenCalledWith('img_1', CANCELED, ['queued'], true);
    expect(d.workflow.stop).toHaveBeenCalledWith('img_1', 'agent_image', expect.any(String));
    expect(outcome).toMatchObject({ type: 'canceled', job: { status: 'failed', error: 'canceled', refund: { status: 'pending' } } });
  });

  it('a job with no settled payment owes no refund', async () => {
    const unpaid = job('queued', { transaction: undefined });
    const d = deps(unpaid);
    await cancelJob(d, unpaid);
    expect(d.jobs.fail).toHaveBeenCalledWith('img_1', CANCELED, ['queued'], false);
  });

  it.each([
    ['reserved', /payment is not confirmed/],
    ['processing', /handed to the provider/],
    ['completed', /completed/],
    ['failed', /already failed/],
  ] as const)('a %s job is not cancellable and nothing is written or stopped', async (status, reason) => {
    const d = deps(job(status));
    const outcome = await cancelJob(d, job(status));
    expect(outcome).toMatchObject({ type: 'not-cancellable', reason: expect.stringMatching(reason) });
    expect(d.jobs.fail).not.toHaveBeenCalled();
    expect(d.workflow.stop).not.toHaveBeenCalled();
  });

  it('a job already canceled answers canceled again, without a second write', async () => {
    const canceled = job('failed', { error: CANCELED });
    const d = deps(canceled);
    expect(await cancelJob(d, canceled)).toMatchObject({ type: 'canceled' });
    expect(d.jobs.fail).not.toHaveBeenCalled();
  });

  it('lost the race (the render moved it first): not cancellable as it now reads, nothing stopped', async () => {
    const d = deps(job('processing'), false);
    const outcome = await cancelJob(d, job('queued'));
    expect(outcome).toMatchObject({ type: 'not-cancellable', reason: expect.stringMatching(/handed to the provider/) });
    expect(d.workflow.stop).not.toHaveBeenCalled();
  });

  it('a stop that fails does not undo the cancel (the execution finds the job final)', async () => {
    const d = deps(job('queued'));
    d.workflow.stop.mockRejectedValueOnce(new Error('throttled'));
    expect(await cancelJob(d, job('queued'))).toMatchObject({ type: 'canceled' });
  });
});

describe('cancelJob at a provider whose queue takes cancellations (fal)', () => {
  const processing = { jobId: 'vid_1', product: 'agent_video', status: 'processing', provider: 'fal-veo', providerJobId: 'req-1', transaction: '0xtx', payer: '0xp' } as JobRecord;

  function deps(answer: 'canceled' | 'too-late' | 'unsupported') {
    const order: string[] = [];
    let row = processing;
    return {
      order,
      jobs: {
        get: vi.fn(async () => row),
        fail: vi.fn(async (_id: string, error: string) => {
          order.push('fail');
          row = { ...row, status: 'failed', error, refund: { status: 'pending' } } as JobRecord;
          return true;
        }),
      },
      workflow: { stop: vi.fn(async () => (order.push('stop'), 'stopped' as const)) },
      atProvider: vi.fn(async () => answer),
    };
  }

  it('dropped by the provider: the execution is stopped before the job moves processing -> failed "canceled", refund owed', async () => {
    const d = deps('canceled');
    expect(await cancelJob(d, processing)).toMatchObject({ type: 'canceled', job: { status: 'failed', error: CANCELED } });
    expect(d.atProvider).toHaveBeenCalledWith(processing);
    expect(d.order).toEqual(['stop', 'fail']);
    expect(d.jobs.fail).toHaveBeenCalledWith('vid_1', CANCELED, ['processing'], true);
  });

  it('started at the provider: 409, nothing stopped or written', async () => {
    const d = deps('too-late');
    expect(await cancelJob(d, processing)).toMatchObject({ type: 'not-cancellable', reason: expect.stringMatching(/started rendering/) });
    expect(d.order).toEqual([]);
  });

  it('a provider without cancellation: 409 as any processing job', async () => {
    const d = deps('unsupported');
    expect(await cancelJob(d, processing)).toMatchObject({ type: 'not-cancellable', reason: expect.stringMatching(/handed to the provider/) });
    expect(d.order).toEqual([]);
  });
});

describe('cancelTarget: the job a cancel path names', () => {
  it('each product by its poll path + /cancel, behind any base path; nothing else', () => {
    expect(cancelTarget('/agent/video/vid_1/cancel')).toEqual({ product: 'agent_video', jobId: 'vid_1' });
    expect(cancelTarget('/agent/image/img_1/cancel')).toEqual({ product: 'agent_image', jobId: 'img_1' });
    expect(cancelTarget('/api/songs/song%201/cancel')).toEqual({ product: 'create_music', jobId: 'song 1' });
    expect(cancelTarget('/v1/agent/image/img_1/cancel')).toEqual({ product: 'agent_image', jobId: 'img_1' });
    expect(cancelTarget('/agent/image/img_1')).toBeUndefined();
    expect(cancelTarget('/agent/image/a/b/cancel')).toBeUndefined();
    // A malformed escape names no job (a 404, never a 500).
    expect(cancelTarget('/agent/image/%E0%A4%A/cancel')).toBeUndefined();
  });
});


describe('the cancel route\'s adapters', () => {
  it('are exactly the providers whose queue takes cancellations, each implementing cancel', async () => {
    const { CANCELLERS } = await import('../../../lambdas/jobs/cancellers.js');
    const { CANCELLING_PROVIDERS } = await import('../../../lambdas/render/providers.js');
    expect(Object.keys(CANCELLERS).sort()).toEqual([...CANCELLING_PROVIDERS].sort());
    expect(CANCELLING_PROVIDERS).toEqual(['fal-veo']);
  });
});
