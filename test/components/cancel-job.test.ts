/**
 * Cancellation with refund (docs/decisions/0017), end to end on the embedded runtime's real parts: a buyer pays with the
 * official `@x402/fetch` client, the paid 202 gives the cancel token and URL, the cancel route (its own function, its
 * calls checked against its synthesized policy) fails the queued job and stops its execution on the local Step
 * Functions (StopExecution), and the sweeper's refund pass — running as the sweeper function — sends the price back,
 * once. A job is held `queued` by holding its render task (as a full render reservation holds it on AWS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedRuntime } from '../../lib/local/runtime.js';
import { chainReader, until } from '../support/refunds.js';
import { cancel, cancelRuntime, fundedBuyer, jobOf, sweepLater } from '../support/cancel.js';
import { signInHeader, signInInfo, signingFetch } from '../support/sign-in.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

const IMAGE_PRICE = 150_000n;
let runtime: EmbeddedRuntime;
let stop: () => Promise<void>;
/** Every job's workflow tasks wait until the test releases the job (as a full render reservation holds them on AWS). */
const gates = new Map<string, { opened: Promise<void>; open: () => void }>();
function gate(jobId: string) {
  let found = gates.get(jobId);
  if (!found) {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    found = { opened, open };
    gates.set(jobId, found);
  }
  return found;
}
const release = (jobId: string) => gate(jobId).open();

beforeAll(async () => {
  ({ runtime, stop } = await cancelRuntime('cancel-job', { beforeTask: (_stateName, input) => gate((input as { jobId?: string }).jobId ?? '').opened }));
});

afterAll(async () => {
  for (const jobId of gates.keys()) release(jobId);
  await stop?.();
});

/** Buys an image; its render is held before it starts, so the job stays `queued` until the test releases it. */
async function queuedImage() {
  const { address, account, pay } = await fundedBuyer(runtime, 1_000_000n);
  const response = await pay(`${runtime.info.baseUrl}/agent/image`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ prompt: 'a lighthouse at dusk', aspect_ratio: '1:1' }) });
  expect(response.status).toBe(202);
  const body = (await response.json()) as { jobId: string; pollUrl: string; cancelUrl: string; cancelToken: string; status: string };
  return { address, account, body };
}

/** The job's execution's status, through the local Step Functions endpoint (DescribeExecution). */
async function executionStatus(jobId: string) {
  const { WorkflowStarter } = await import('../../lambdas/store/workflow.js');
  return new WorkflowStarter().state(jobId, 'agent_image');
}

describe('Cancel a queued job: failed "canceled", its execution stopped, the full price refunded once', () => {
  it('the paid 202 gives the cancel token and URL; no token is a 402 asking for a sign-in, a wrong one 401, and neither changes anything; the token cancels; the sweeper refunds exactly once', async () => {
    const { address, body } = await queuedImage();
    const balance = chainReader(runtime).balanceOf;
    expect(await balance(address)).toBe(1_000_000n - IMAGE_PRICE);
    expect(body).toMatchObject({ status: 'queued', cancelUrl: `${body.pollUrl}/cancel`, cancelToken: expect.stringMatching(/^ct_[A-Za-z0-9_-]{43}$/) });
    expect(await jobOf(body.jobId)).toMatchObject({ status: 'queued' });

    // Neither the token nor a sign-in: 402 with the sign-in declaration (docs/decisions/0020), the bearer offered beside it.
    const none = await cancel(body.cancelUrl);
    expect(none).toMatchObject({ status: 402, body: { accepts: [], extensions: { 'sign-in-with-x': { info: { uri: body.cancelUrl } } } } });
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    const other = await queuedImage();
    const wrong = await cancel(body.cancelUrl, other.body.cancelToken); // another job's token
    expect(wrong).toMatchObject({ status: 401, body: { code: 'invalid_token' } });
    expect(await jobOf(body.jobId)).toMatchObject({ status: 'queued' });

    const canceled = await cancel(body.cancelUrl, body.cancelToken);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ jobId: body.jobId, status: 'failed', error: 'canceled', refund: { status: 'pending', transaction: null } });
    // Its execution is stopped on the local Step Functions: ABORTED, and its render never runs after the release.
    expect(await until(() => executionStatus(body.jobId), (s) => s !== 'RUNNING', 'the stop')).toBe('ABORTED');
    release(body.jobId);
    await new Promise((r) => setTimeout(r, 300));
    expect(await jobOf(body.jobId)).toMatchObject({ status: 'failed', error: 'canceled', refund: { status: 'pending' } });

    // The existing refund path sends the price back, once; a second cancel and a second sweep change nothing.
    expect((await sweepLater()).refunded).toContain(body.jobId);
    expect(await balance(address)).toBe(1_000_000n);
    expect(await jobOf(body.jobId)).toMatchObject({ refund: { status: 'refunded', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });
    expect(await cancel(body.cancelUrl, body.cancelToken)).toMatchObject({ status: 200, body: { status: 'failed', error: 'canceled', refund: { status: 'refunded' } } });
    expect((await sweepLater()).refunded).not.toContain(body.jobId);
    expect(await balance(address)).toBe(1_000_000n);

    // The other buyer's job was never touched by the wrong token; it renders when released.
    release(other.body.jobId);
    expect(await until(() => jobOf(other.body.jobId), (j) => j?.status === 'completed', 'the other job')).toMatchObject({ status: 'completed' });
    expect(await cancel(other.body.cancelUrl, other.body.cancelToken)).toMatchObject({ status: 409, body: { code: 'not_cancellable', detail: expect.stringMatching(/completed/) } });
  });

  it('the wallet that paid cancels by signing in (sign-in-with-x, the official client hook); another wallet is 403 not_payer and a replayed sign-in a 402, changing nothing', async () => {
    const { address, account, body } = await queuedImage();
    const post = { method: 'POST' };
    const stranger = privateKeyToAccount(generatePrivateKey());
    const refused = await signingFetch(stranger)(body.cancelUrl, post);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'not_payer' });
    expect(await jobOf(body.jobId)).toMatchObject({ status: 'queued' });

    // The payer's own sign-in, by hand, used twice: the second is a replay (its nonce was used) and cancels nothing.
    const header = await signInHeader(await signInInfo(body.cancelUrl, post), account, body.cancelUrl);
    const first = await fetch(body.cancelUrl, { ...post, headers: { 'SIGN-IN-WITH-X': header } });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ jobId: body.jobId, status: 'failed', error: 'canceled', refund: { status: 'pending' } });
    const replayed = await fetch(body.cancelUrl, { ...post, headers: { 'SIGN-IN-WITH-X': header } });
    expect(replayed.status).toBe(402);
    expect(await replayed.json()).toMatchObject({ error: 'Sign-in refused: invalid_siwx_nonce' });

    // The official hook signs in by itself from the 402: the job is already canceled, the same answer again.
    const again = await signingFetch(account)(body.cancelUrl, post);
    expect(again.status).toBe(200);
    release(body.jobId);
    expect((await sweepLater()).refunded).toContain(body.jobId);
    expect(await balance(address)).toBe(1_000_000n);
  });

  it('two cancels at once: one outcome for both, one refund', async () => {
    const { address, body } = await queuedImage();
    const [a, b] = await Promise.all([cancel(body.cancelUrl, body.cancelToken), cancel(body.cancelUrl, body.cancelToken)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.error, b.body.error]).toEqual(['canceled', 'canceled']);
    release(body.jobId);
    expect((await sweepLater()).refunded).toContain(body.jobId);
    expect((await sweepLater()).refunded).not.toContain(body.jobId);
    expect(await balance(address)).toBe(1_000_000n);
  });

  it('cancel against the render starting: one outcome — canceled and refunded, or 409 and completed — never a completed job that was refunded', async () => {
    const { address, body } = await queuedImage();
    const [answer] = await Promise.all([cancel(body.cancelUrl, body.cancelToken), Promise.resolve().then(() => release(body.jobId))]);
    if (answer.status === 200) {
      expect(answer.body).toMatchObject({ status: 'failed', error: 'canceled' });
      await sweepLater();
      expect(await balance(address)).toBe(1_000_000n);
      expect(await jobOf(body.jobId)).toMatchObject({ status: 'failed', refund: { status: 'refunded' } });
    } else {
      expect(answer).toMatchObject({ status: 409, body: { code: 'not_cancellable' } });
      const job = await until(() => jobOf(body.jobId), (j) => j?.status === 'completed', 'the render');
      expect(job).not.toHaveProperty('refund');
      await sweepLater();
      expect(await balance(address)).toBe(1_000_000n - IMAGE_PRICE);
    }
  });

  it('a job whose render was handed to the provider is 409 not_cancellable and nothing changes; an unknown job is 404 (with a valid token)', async () => {
    const { address, body } = await queuedImage();
    release(body.jobId);
    await until(() => jobOf(body.jobId), (j) => j?.status === 'completed', 'the render');
    const answer = await cancel(body.cancelUrl, body.cancelToken);
    expect(answer).toMatchObject({ status: 409, body: { code: 'not_cancellable', job: { jobId: body.jobId, status: 'completed' } } });
    expect(await balance(address)).toBe(1_000_000n - IMAGE_PRICE);

    const { cancelToken, serviceKey } = await import('../../lambdas/jobs/job-secrets.js');
    const ghost = 'img_00000000-0000-4000-8000-000000000000';
    const token = cancelToken(await serviceKey(), ghost);
    expect(await cancel(`${runtime.info.baseUrl}/agent/image/${ghost}/cancel`, token)).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });
});

const balance = (address: `0x${string}`) => chainReader(runtime).balanceOf(address);
