/**
 * The answer deadline of a paid route counts from the request's arrival (API Gateway's 30 s), not only from the
 * handler's start: a cold start runs before the handler, and API Gateway answers 503 at its limit even when the
 * function still has time. A buyer who paid with `?async=false` gets the 202 with the poll URL, never that 503.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ANSWER_MARGIN_MS, API_GATEWAY_INTEGRATION_TIMEOUT_MS, answerDeadline, type HttpEvent } from '../../../lambdas/shared/http.js';
import type { PurchaseDeps } from '../../../lambdas/jobs/purchase.js';
import type { JobRecord } from '../../../lambdas/store/jobs.js';
import type { AcceptedPayment, Settlement } from '../../../lambdas/payments/core/types.js';
import type { PaidContext } from '../../../lambdas/http/paid-entry.js';
import { httpEvent } from '../../support/events.js';
import { RECEIPT, X402_PAYMENT } from '../../support/payment-fixtures.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const remaining = (ms: number) => ({ getRemainingTimeInMillis: () => ms });
const arrivedAt = (timeEpoch: number | undefined) => ({ requestContext: { timeEpoch } });

describe('answerDeadline: the earlier of the function time-out and API Gateway limit, less the margin', () => {
  it('a request that arrived 20 s ago (a cold start ran first): API Gateway limit governs, not the 30 s remaining', () => {
    const timeEpoch = NOW - 20_000;
    expect(answerDeadline(arrivedAt(timeEpoch), remaining(30_000), NOW)).toBe(timeEpoch + 30_000 - ANSWER_MARGIN_MS);
    expect(answerDeadline(arrivedAt(timeEpoch), remaining(30_000), NOW)).not.toBe(NOW + 30_000 - ANSWER_MARGIN_MS);
  });

  it('a fresh request: the function remaining time governs when it is shorter', () => {
    expect(answerDeadline(arrivedAt(NOW), remaining(10_000), NOW)).toBe(NOW + 10_000 - ANSWER_MARGIN_MS);
  });

  it('without timeEpoch (or a zero one): the function remaining time alone, as before', () => {
    expect(answerDeadline(arrivedAt(undefined), remaining(30_000), NOW)).toBe(NOW + 30_000 - ANSWER_MARGIN_MS);
    expect(answerDeadline({}, remaining(30_000), NOW)).toBe(NOW + 30_000 - ANSWER_MARGIN_MS);
    expect(answerDeadline(arrivedAt(0), remaining(30_000), NOW)).toBe(NOW + 30_000 - ANSWER_MARGIN_MS);
  });

  it('without a remaining time, API Gateway limit alone; with neither, no deadline', () => {
    expect(answerDeadline(arrivedAt(NOW - 5_000), {}, NOW)).toBe(NOW - 5_000 + API_GATEWAY_INTEGRATION_TIMEOUT_MS - ANSWER_MARGIN_MS);
    expect(answerDeadline(undefined, {}, NOW)).toBeUndefined();
  });

  it('reads the clock when no time is given', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    try {
      expect(answerDeadline(arrivedAt(NOW - 20_000), remaining(30_000))).toBe(NOW - 20_000 + 30_000 - ANSWER_MARGIN_MS);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('?async=false after a cold start: 202 with the poll URL within API Gateway 30 s, never a 503', () => {
  let answerPurchase: typeof import('../../../lambdas/http/paid-entry.js').answerPurchase;
  let offer: PaidContext['purchase']['offer'];
  const payment: AcceptedPayment = X402_PAYMENT;
  const SETTLING_MS = 2_000;

  beforeAll(async () => {
    // Only Date is faked: the wait is measured with Date.now(), and the fakes' settle and sleep advance it.
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    vi.stubEnv('X402_NETWORK', 'eip155:8453');
    vi.stubEnv('CHAIN_ID', '8453');
    vi.stubEnv('USDC_ADDRESS', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
    vi.stubEnv('PAY_TO_ADDRESS', '0x1111111111111111111111111111111111111111');
    vi.stubEnv('RPC_URL', 'http://127.0.0.1:8545');
    vi.stubEnv('SETTLER_KEY_FILE', '/nonexistent/settler.key');
    vi.stubEnv('ASSETS_PUBLIC_URL', 'https://cdn.test');
    vi.stubEnv('ASSETS_DIR', '/tmp/assets');
    vi.stubEnv('BLOCKING_WAIT_MS', '25000');
    ({ answerPurchase } = await import('../../../lambdas/http/paid-entry.js'));
    offer = (await import('../../../lambdas/jobs/offers.js')).productOffer('agent_image', 'https://api.test');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    vi.useRealTimers();
  });

  const elapse = (ms: number) => vi.setSystemTime(Date.now() + Math.max(ms, 1));

  /** Settlement takes SETTLING_MS; the job is still rendering at every poll unless `done` says otherwise. */
  function deps(done?: JobRecord) {
    const polls: number[] = [];
    const d = {
      jobs: {
        get: vi.fn(async () => (polls.push(Date.now()), done ?? ({ status: 'processing' } as JobRecord))),
        reserveItem: vi.fn(() => ({})),
        queueItem: vi.fn(() => ({})),
        voidItem: vi.fn(() => ({})),
      },
      ledger: { lock: vi.fn(async () => {}), markCharging: vi.fn(async () => {}), markSettled: vi.fn(async () => {}), markFailed: vi.fn(async () => {}) },
      settle: vi.fn(async (): Promise<Settlement> => (elapse(SETTLING_MS), { type: 'settled', receipt: RECEIPT })),
      workflow: { start: vi.fn(async () => 'started' as const) },
      providerFor: () => 'local',
      newId: () => 'job-1',
      sleep: vi.fn(async (ms: number) => elapse(ms)),
    };
    return { deps: d as unknown as PurchaseDeps, fakes: d, polls };
  }

  /** A paid `POST /agent/image?async=false` that API Gateway received `agoMs` ago, in a function with 30 s left. */
  function paidCall(agoMs: number): { event: HttpEvent; context: PaidContext } {
    const event = httpEvent({ path: '/agent/image', query: { async: 'false' }, body: '{"prompt":"x"}' });
    event.requestContext.timeEpoch = Date.now() - agoMs;
    const context = { ...remaining(30_000), purchase: { offer, payment, body: { prompt: 'x' } } } as unknown as PaidContext;
    return { event, context };
  }

  it('arrived 20 s ago: settles, waits only what is left of API Gateway 30 s, and answers 202 with the poll URL', async () => {
    const { event, context } = paidCall(20_000);
    const arrived = event.requestContext.timeEpoch;
    const { deps: d, fakes, polls } = deps();

    const result = await answerPurchase('agent_image', event, context, d, async () => Buffer.alloc(32, 1));

    // Begun beside the lock, sent once the lock and the chain checks passed (`proceed`).
    expect(fakes.settle).toHaveBeenCalledWith(payment, { deadline: arrived + API_GATEWAY_INTEGRATION_TIMEOUT_MS - ANSWER_MARGIN_MS, preconfirmation: true, proceed: expect.any(Promise) });
    expect(result.statusCode).toBe(202);
    const body = JSON.parse(result.body!);
    expect(body).toMatchObject({ jobId: 'job-1', status: 'queued', pollUrl: 'https://api.test/agent/image/job-1' });
    expect(result.headers.Location).toBe(body.pollUrl);
    expect(JSON.parse(Buffer.from(result.headers['PAYMENT-RESPONSE'], 'base64').toString('utf8'))).toEqual(RECEIPT);
    // It did block (the job was polled), and the answer left with the margin still before API Gateway's limit.
    expect(polls.length).toBeGreaterThan(0);
    expect(Date.now()).toBeLessThanOrEqual(arrived + API_GATEWAY_INTEGRATION_TIMEOUT_MS - ANSWER_MARGIN_MS);
  });

  it('arrived 28 s ago: nothing is left to wait, so it answers 202 at once after settling', async () => {
    const { event, context } = paidCall(28_000);
    const { deps: d, fakes } = deps();

    const result = await answerPurchase('agent_image', event, context, d, async () => Buffer.alloc(32, 1));

    expect(result.statusCode).toBe(202);
    expect(result.headers.Location).toBe('https://api.test/agent/image/job-1');
    expect(fakes.jobs.get).not.toHaveBeenCalled();
    expect(fakes.sleep).not.toHaveBeenCalled();
  });

  it('a fresh request still blocks to 200 with the asset when the job finishes in time', async () => {
    const { event, context } = paidCall(50);
    const done = { jobId: 'job-1', product: 'agent_image', status: 'completed', provider: 'local', request: {}, assets: { image: 'i.png' } } as unknown as JobRecord;
    const { deps: d } = deps(done);

    const result = await answerPurchase('agent_image', event, context, d, async () => Buffer.alloc(32, 1));

    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body!)).toMatchObject({ status: 'completed', imageUrl: 'https://cdn.test/i.png' });
  });
});
