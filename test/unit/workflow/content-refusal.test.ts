/**
 * A render the model refuses for its content is the buyer's outcome, not an incident. The buyer's
 * job ends `failed` with the model's buyer-safe message and its refund owed, as before; but Submit and Check render
 * return the refusal instead of throwing it (a thrown error is a function error, which the task alarm counts), and
 * Mark failed counts it as RendersRefused, not RendersFailed. The workflow's routing of it to a Succeed state is
 * asserted on the synthesised machine (test/infra/monitoring.test.ts) and run locally
 * (test/components/local-stepfunctions.test.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { checkRender, markFailed, submitRender, type TaskDeps } from '../../../lambdas/workflow/tasks.js';
import { ContentRefusedError, RenderError, type RenderProvider, type RenderStatus } from '../../../lambdas/render/provider.js';
import type { JobRecord } from '../../../lambdas/store/jobs.js';
import { capturePerTest } from '../metrics/emf.js';

const FILTERED = "The image was blocked by the provider's content filter";

const paidJob = {
  jobId: 'j1',
  product: 'agent_image',
  status: 'processing',
  provider: 'bedrock-stability',
  request: { prompt: 'p' },
  transaction: '0xt',
  payer: '0x1111111111111111111111111111111111111111',
  createdAt: '2026-11-22T12:00:00.000Z',
  updatedAt: '2026-11-22T12:00:05.000Z',
} as unknown as JobRecord;

function deps(provider: Partial<RenderProvider>) {
  const jobs = {
    get: vi.fn(async () => paidJob),
    markProcessing: vi.fn(async () => true),
    recordProviderJob: vi.fn(async () => undefined),
    complete: vi.fn(async () => true),
    fail: vi.fn(async () => true),
  };
  const full = { name: 'bedrock-stability', submit: vi.fn(), check: vi.fn(), ...provider } as RenderProvider;
  return { jobs, provider: async () => full, assets: () => ({}) as never } satisfies TaskDeps;
}

const metrics = capturePerTest();

describe('A content refusal is returned by the render tasks, never thrown', () => {
  it("Submit render: a synchronous model's refusal is a failed render state with refusal 'content'", async () => {
    const d = deps({ submit: async () => Promise.reject(new ContentRefusedError(FILTERED, { cause: new Error('finish reason Filter reason: prompt') })) });
    await expect(submitRender(d, { jobId: 'j1', product: 'agent_image' })).resolves.toEqual({
      renderId: 'j1',
      provider: 'bedrock-stability',
      state: 'failed',
      attempts: 0,
      error: FILTERED,
      refusal: 'content',
    });
  });

  it('Submit render: any other render error is still thrown (the workflow catches it and it counts as a task error)', async () => {
    const d = deps({ submit: async () => Promise.reject(new RenderError('The image model refused the request')) });
    await expect(submitRender(d, { jobId: 'j1', product: 'agent_image' })).rejects.toThrow(RenderError);
  });

  it("Check render: a provider's refused status keeps its refusal; a thrown refusal is returned the same way", async () => {
    const render = { renderId: 'r1', provider: 'bedrock-stability', state: 'running' as const, attempts: 2 };
    const refused: RenderStatus = { state: 'failed', error: FILTERED, refusal: 'content' };
    await expect(checkRender(deps({ check: async () => refused }), { jobId: 'j1', product: 'agent_image', render })).resolves.toEqual({
      renderId: 'r1',
      provider: 'bedrock-stability',
      attempts: 3,
      state: 'failed',
      error: FILTERED,
      refusal: 'content',
    });
    const throwing = deps({ check: async () => Promise.reject(new ContentRefusedError(FILTERED)) });
    await expect(checkRender(throwing, { jobId: 'j1', product: 'agent_image', render })).resolves.toMatchObject({ state: 'failed', error: FILTERED, refusal: 'content' });
    // A plain failure carries no refusal, so the workflow treats it as the failure it is.
    const failed = await checkRender(deps({ check: async () => ({ state: 'failed', error: 'The image model could not render this prompt' }) }), {
      jobId: 'j1',
      product: 'agent_image',
      render,
    });
    expect(failed).not.toHaveProperty('refusal');
  });
});

describe('Mark failed: a refused job fails and is refunded for the buyer, counted as refused', () => {
  it("fails the job with the model's message, refund owed, and counts RendersRefused, not RendersFailed", async () => {
    const d = deps({});
    const result = await markFailed(d, { jobId: 'j1', product: 'agent_image', error: { Error: ContentRefusedError.errorName, Cause: FILTERED } });
    expect(result).toEqual({ status: 'failed', error: `Generation failed: ${FILTERED}` });
    expect(d.jobs.fail).toHaveBeenCalledWith('j1', `Generation failed: ${FILTERED}`, ['queued', 'processing'], true);
    expect(metrics.emitted().map((m) => [m.name, m.dimensions])).toEqual([
      ['RendersRefused', { service: 'paycall', product: 'agent_image', provider: 'bedrock-stability' }],
    ]);
  });

  it('any other failure still counts RendersFailed', async () => {
    await markFailed(deps({}), { jobId: 'j1', product: 'agent_image', error: { Error: 'RenderError', Cause: 'The image model could not render this prompt' } });
    expect(metrics.emitted().map((m) => m.name)).toEqual(['RendersFailed']);
  });
});
