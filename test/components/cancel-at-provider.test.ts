/**
 * Cancellation at a provider whose queue takes it (docs/decisions/0017): a video sold with fal-veo, submitted to fal's queue (the
 * wire-level fake, through the official `@fal-ai/client` in the cancel function) and not yet started there, is
 * canceled in fal's queue by the cancel route, its execution stopped and its price refunded once by the sweeper. The
 * render's checks are held so fal's queue has not started the request (the fake starts it at its second status poll).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedRuntime } from '../../lib/local/runtime.js';
import { renderStateName } from '../../lambdas/workflow/render-functions.js';
import { chainReader, until } from '../support/refunds.js';
import { cancel, cancelRuntime, fundedBuyer, jobOf, sweepLater } from '../support/cancel.js';

const VIDEO_PRICE = 4_990_000n;
const FUNDS = 10_000_000n;
let runtime: EmbeddedRuntime;
let stop: () => Promise<void>;
let openChecks!: () => void;
const checksHeld = new Promise<void>((resolve) => (openChecks = resolve));

beforeAll(async () => {
  ({ runtime, stop } = await cancelRuntime('cancel-fal', {
    renderProviders: { create_music: 'local', agent_video: 'fal-veo', agent_image: 'local' },
    // The submit runs (the request enters fal's queue); every check waits until the test opens them.
    beforeTask: (stateName) => (stateName === renderStateName('check', 'fal-veo') ? checksHeld : Promise.resolve()),
  }));
}, 120_000);

afterAll(async () => {
  openChecks();
  await stop?.();
});

describe('Cancel a video in fal\'s queue', () => {
  it('a processing job fal has not started is canceled there: failed "canceled", its execution stopped, refunded once', async () => {
    const { address, pay } = await fundedBuyer(runtime, FUNDS);
    const response = await pay(`${runtime.info.baseUrl}/agent/video`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ prompt: 'waves on a pier at night' }) });
    expect(response.status).toBe(202);
    const body = (await response.json()) as { jobId: string; cancelUrl: string; cancelToken: string; provider: string };
    expect(body.provider).toBe('fal-veo');

    // Submitted to fal's queue: processing, with fal's request id on the job.
    await until(() => jobOf(body.jobId), (j) => j?.status === 'processing' && typeof j.providerJobId === 'string', 'the fal submit');
    expect(await chainReader(runtime).balanceOf(address)).toBe(FUNDS - VIDEO_PRICE);

    expect(await cancel(body.cancelUrl, body.cancelToken)).toMatchObject({ status: 200, body: { jobId: body.jobId, status: 'failed', error: 'canceled', refund: { status: 'pending' } } });
    const { WorkflowStarter } = await import('../../lambdas/store/workflow.js');
    expect(await until(() => new WorkflowStarter().state(body.jobId, 'agent_video'), (s) => s !== 'RUNNING', 'the stop')).toBe('ABORTED');

    // Its checks, let go now, never run: the execution is stopped, and the job stays canceled.
    openChecks();
    await new Promise((r) => setTimeout(r, 500));
    expect(await jobOf(body.jobId)).toMatchObject({ status: 'failed', error: 'canceled' });
    expect((await sweepLater()).refunded).toContain(body.jobId);
    expect(await chainReader(runtime).balanceOf(address)).toBe(FUNDS);
    expect(await jobOf(body.jobId)).toMatchObject({ status: 'failed', error: 'canceled', refund: { status: 'refunded' } });
    expect((await sweepLater()).refunded).not.toContain(body.jobId);
    expect(await chainReader(runtime).balanceOf(address)).toBe(FUNDS);
  });
});
