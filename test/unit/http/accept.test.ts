import { describe, expect, it, vi } from 'vitest';
import { acceptPaidJob, PaymentRefused, type AcceptDeps } from '../../../lambdas/jobs/accept.js';
import { PaymentAlreadyUsedError } from '../../../lambdas/store/payments.js';
import type { VerifiedPayment } from '../../../lambdas/payments/types.js';
import type { JobRecord } from '../../../lambdas/store/jobs.js';

const VALID_BEFORE = 1_900_000_000;
const payment = {
  kind: 'x402',
  payer: '0xabc',
  amount: 150000n,
  nonceKey: 'k1',
  payload: { payload: { authorization: { validBefore: String(VALID_BEFORE) } } },
} as unknown as VerifiedPayment;
const urls = { base: 'https://api.test', asset: (k: string) => `https://cdn.test/${k}`, placeholderCover: 'https://cdn.test/p.png' };
const input = { product: 'agent_image' as const, request: { prompt: 'x' }, payment, urls, blocking: false, blockingWaitMs: 1000 };

function deps(over: Partial<AcceptDeps> = {}) {
  const d = {
    jobs: { get: vi.fn(async () => undefined as JobRecord | undefined) },
    payments: { reserve: vi.fn(async () => {}), settled: vi.fn(async () => {}), settleFailed: vi.fn(async () => {}) },
    charge: vi.fn(async () => ({ ok: true as const, transaction: '0xt', network: 'eip155:8453', payer: '0xabc' })),
    workflow: { start: vi.fn(async () => 'started' as const) },
    providerName: 'local',
    newId: () => 'job-1',
    sleep: async () => {},
    ...over,
  };
  return d;
}

describe('The paid request, in order', () => {
  it('locks the nonce and writes the job before settling, then records, starts and answers 202 with the receipt', async () => {
    const order: string[] = [];
    const d = deps({
      payments: {
        reserve: vi.fn(async () => void order.push('reserve')),
        settled: vi.fn(async () => void order.push('settled')),
        settleFailed: vi.fn(async () => {}),
      },
      charge: async () => (order.push('settle'), { ok: true as const, transaction: '0xt', network: 'eip155:8453', payer: '0xabc' }),
      workflow: { start: vi.fn(async () => (order.push('start'), 'started' as const)) },
    });
    const result = await acceptPaidJob(d, input);
    expect(order).toEqual(['reserve', 'settle', 'settled', 'start']);
    // The reserved job keeps the authorization's expiry: the sweeper never voids a transfer that could still land.
    expect(d.payments.reserve).toHaveBeenCalledWith('k1', 150000n, '0xabc', expect.objectContaining({ jobId: 'job-1', validBefore: VALID_BEFORE }));
    expect(result.statusCode).toBe(202);
    expect(JSON.parse(Buffer.from(result.headers['PAYMENT-RESPONSE'], 'base64').toString())).toEqual({
      success: true,
      transaction: '0xt',
      network: 'eip155:8453',
      payer: '0xabc',
    });
  });

  it('refuses a used authorization with a payment refusal and never settles', async () => {
    const settle = vi.fn();
    const d = deps({ payments: { reserve: vi.fn(async () => { throw new PaymentAlreadyUsedError(); }), settled: vi.fn(), settleFailed: vi.fn() }, charge: settle });
    await expect(acceptPaidJob(d, input)).rejects.toBeInstanceOf(PaymentRefused);
    expect(settle).not.toHaveBeenCalled();
  });

  it('voids the job and releases the nonce when settlement fails before broadcasting', async () => {
    const d = deps({ charge: async () => ({ ok: false as const, reason: 'insufficient funds', broadcast: false }) });
    await expect(acceptPaidJob(d, input)).rejects.toThrow('insufficient funds');
    expect(d.payments.settleFailed).toHaveBeenCalledWith('k1', 'job-1', 'insufficient funds', false);
    expect(d.workflow.start).not.toHaveBeenCalled();
  });

  it('keeps the job reserved and answers 202 when an x402 transfer was broadcast but not confirmed (the chain decides)', async () => {
    const d = deps({ charge: async () => ({ ok: false as const, reason: 'Settlement transaction 0xt not confirmed', broadcast: true }) });
    const result = await acceptPaidJob(d, input);
    expect(result.statusCode).toBe(202);
    expect(JSON.parse(result.body!)).toMatchObject({ jobId: 'job-1', status: 'queued', pollUrl: 'https://api.test/agent/image/job-1' });
    expect(result.headers['PAYMENT-RESPONSE']).toBeUndefined(); // no receipt yet
    expect(d.payments.settleFailed).not.toHaveBeenCalled(); // not voided: the sweeper reconciles it against the chain
    expect(d.workflow.start).not.toHaveBeenCalled();
  });

  it('refuses a token charge of unknown outcome with 402 and runs nothing (the token id stays locked)', async () => {
    const token = { ...payment, kind: 'token', nonceKey: 'token:iss:jti' } as unknown as VerifiedPayment;
    const d = deps({ charge: async () => ({ ok: false as const, reason: 'issuer timed out', broadcast: true }) });
    await expect(acceptPaidJob(d, { ...input, payment: token })).rejects.toBeInstanceOf(PaymentRefused);
    expect(d.payments.settleFailed).toHaveBeenCalledWith('token:iss:jti', 'job-1', 'issuer timed out', true);
    expect(d.workflow.start).not.toHaveBeenCalled();
  });

  it('still answers 402 (never 5xx) when the refused job cannot be voided; the sweeper voids it', async () => {
    const d = deps({
      charge: async () => ({ ok: false as const, reason: 'insufficient funds', broadcast: false }),
      payments: { reserve: vi.fn(async () => {}), settled: vi.fn(), settleFailed: vi.fn(async () => { throw new Error('dynamo down'); }) },
    });
    await expect(acceptPaidJob(d, input)).rejects.toBeInstanceOf(PaymentRefused);
  });

  it('passes the answer deadline to the settlement and ends a blocking wait by it', async () => {
    const charge = vi.fn(async () => ({ ok: true as const, transaction: '0xt', network: 'eip155:8453', payer: '0xabc' }));
    const get = vi.fn(async () => ({ status: 'processing' }) as JobRecord);
    const slept: number[] = [];
    const sleep = (ms: number) => (slept.push(ms), new Promise<void>((r) => setTimeout(r, ms)));
    const d = deps({ charge, jobs: { get }, sleep });
    const deadline = Date.now() + 150;
    const result = await acceptPaidJob(d, { ...input, blocking: true, blockingWaitMs: 25_000, deadline });
    expect(charge).toHaveBeenCalledWith(payment, { deadline });
    expect(result.statusCode).toBe(202);
    // The 25 s budget was cut to the deadline: the waits asked for add up to at most the 150 ms left.
    expect(slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(150);
  });

  it('never answers 5xx after money moved: a failed StartExecution still answers 202 (the sweeper starts it)', async () => {
    const d = deps({ workflow: { start: vi.fn(async () => { throw new Error('throttled'); }) } });
    const result = await acceptPaidJob(d, input);
    expect(result.statusCode).toBe(202);
  });

  it('still answers 202 when the receipt cannot be recorded, and leaves the start to the sweeper that reconciles it', async () => {
    const d = deps({ payments: { reserve: vi.fn(async () => {}), settled: vi.fn(async () => { throw new Error('dynamo down'); }), settleFailed: vi.fn() } });
    const result = await acceptPaidJob(d, input);
    expect(result.statusCode).toBe(202);
    expect(d.workflow.start).not.toHaveBeenCalled();
  });

  it('?async=false beyond the wait budget answers 202 with the poll URL (the job still completes)', async () => {
    const d = deps({ jobs: { get: vi.fn(async () => ({ status: 'processing' }) as JobRecord) } });
    const result = await acceptPaidJob(d, { ...input, blocking: true, blockingWaitMs: 30 });
    expect(result.statusCode).toBe(202);
    expect(JSON.parse(result.body!).pollUrl).toBe('https://api.test/agent/image/job-1');
  });

  it('?async=false answers 200 with the asset when the job finishes within the budget', async () => {
    const finished = { jobId: 'job-1', product: 'agent_image', status: 'completed', provider: 'local', assets: { image: 'i.png' } } as JobRecord;
    const d = deps({ jobs: { get: vi.fn(async () => finished) } });
    const result = await acceptPaidJob(d, { ...input, blocking: true, blockingWaitMs: 5000 });
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body!)).toMatchObject({ status: 'completed', imageUrl: 'https://cdn.test/i.png', pollUrl: null });
  });
});
