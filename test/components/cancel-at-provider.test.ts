/**
 * Cancellation at a provider whose queue takes it (issue 23): a video sold with fal-veo, submitted to fal's queue (the
 * wire-level fake, through the official `@fal-ai/client` in the cancel function) and not yet started there, is
 * canceled in fal's queue by the cancel route, its execution stopped and its price refunded once by the sweeper. The
 * render's checks are held so fal's queue has not started the request (the fake starts it at its second status poll).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startEmbedded, type EmbeddedRuntime } from '../../lib/local/runtime.js';
import { asFunction } from '../../lib/local/iam/enforce.js';
import { SWEEPER } from '../../lambdas/surfaces/routes.js';
import { renderStateName } from '../../lambdas/workflow/render-functions.js';
import { chainReader, until } from '../support/refunds.js';

const VIDEO_PRICE = 4_990_000n;
const FUNDS = 10_000_000n;
let runtime: EmbeddedRuntime;
let stateDir: string;
let openChecks!: () => void;
const checksHeld = new Promise<void>((resolve) => (openChecks = resolve));

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'cancel-fal-'));
  runtime = await startEmbedded({
    generationPort: 0,
    chainPort: 0,
    stateDir,
    log: () => {},
    renderWaitMs: 50,
    sweepIntervalMs: 0,
    renderProviders: { create_music: 'local', agent_video: 'fal-veo', agent_image: 'local' },
    // The submit runs (the request enters fal's queue); every check waits until the test opens them.
    beforeTask: (stateName) => (stateName === renderStateName('check', 'fal-veo') ? checksHeld : Promise.resolve()),
  });
  const { REFUND_ENV } = await import('../../lambdas/payments/refund.js');
  process.env[REFUND_ENV.secretId] = 'paycall/refund-key';
}, 120_000);

afterAll(async () => {
  openChecks();
  await runtime?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

async function jobOf(jobId: string) {
  const { JobStore } = await import('../../lambdas/store/jobs.js');
  return new JobStore().get(jobId);
}

describe('Cancel a video in fal\'s queue', () => {
  it('a processing job fal has not started is canceled there: failed "canceled", its execution stopped, refunded once', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await runtime.chain.fund(account.address, FUNDS);
    const pay = wrapFetchWithPaymentFromConfig(fetch, {
      schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(account) }],
      spendControls: { maxAmountPerPayment: '$5' },
    } as never);
    const response = await pay(`${runtime.info.baseUrl}/agent/video`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ prompt: 'waves on a pier at night' }) });
    expect(response.status).toBe(202);
    const body = (await response.json()) as { jobId: string; cancelUrl: string; cancelToken: string; provider: string };
    expect(body.provider).toBe('fal-veo');

    // Submitted to fal's queue: processing, with fal's request id on the job.
    await until(() => jobOf(body.jobId), (j) => j?.status === 'processing' && typeof j.providerJobId === 'string', 'the fal submit');
    expect(await chainReader(runtime).balanceOf(account.address)).toBe(FUNDS - VIDEO_PRICE);

    const answer = await fetch(body.cancelUrl, { method: 'POST', headers: { Authorization: `Bearer ${body.cancelToken}` } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ jobId: body.jobId, status: 'failed', error: 'canceled', refund: { status: 'pending' } });
    const { WorkflowStarter } = await import('../../lambdas/store/workflow.js');
    expect(await until(() => new WorkflowStarter().state(body.jobId, 'agent_video'), (s) => s !== 'RUNNING', 'the stop')).toBe('ABORTED');

    // Its checks, let go now, never run: the execution is stopped, and the job stays canceled.
    openChecks();
    await new Promise((r) => setTimeout(r, 500));
    expect(await jobOf(body.jobId)).toMatchObject({ status: 'failed', error: 'canceled' });
    const { sweep } = await import('../../lambdas/workflow/sweeper.js');
    const { sweepDeps } = await import('../../lambdas/workflow/sweep-deps.js');
    const later = new Date(Date.now() + 5 * 60_000);
    expect((await asFunction(SWEEPER.id, () => sweep({ ...sweepDeps(), now: () => later }, 3600))).refunded).toContain(body.jobId);
    expect(await chainReader(runtime).balanceOf(account.address)).toBe(FUNDS);
    expect(await jobOf(body.jobId)).toMatchObject({ status: 'failed', error: 'canceled', refund: { status: 'refunded' } });
    expect((await asFunction(SWEEPER.id, () => sweep({ ...sweepDeps(), now: () => later }, 3600))).refunded).not.toContain(body.jobId);
    expect(await chainReader(runtime).balanceOf(account.address)).toBe(FUNDS);
  });
});
