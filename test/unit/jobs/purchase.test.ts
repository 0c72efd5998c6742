import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { purchaseJob, type JobPurchase, type PurchaseDeps, type PurchaseInput } from '../../../lambdas/jobs/purchase.js';
import { PaymentAlreadyUsedError, type LedgerItem, type PaymentLock } from '../../../lambdas/store/ledger.js';
import type { AcceptedPayment, Offer, Settlement, SettleOptions } from '../../../lambdas/payments/core/types.js';
import { ABANDONED, toldToSend } from '../../support/early-settler.js';
import type { ChainChecks, VerifiedPayment } from '../../../lambdas/payments/types.js';
import type { VerifiedTokenPayment } from '../../../lambdas/payments/token/verify.js';
import type { JobRecord } from '../../../lambdas/store/jobs.js';

const VALID_BEFORE = 1_900_000_000;
const payment = {
  kind: 'x402',
  payer: '0xabc',
  amount: 150000n,
  nonceKey: 'k1',
  payload: { payload: { authorization: { validBefore: BigInt(VALID_BEFORE) } } },
} as unknown as VerifiedPayment;
const token = {
  kind: 'token',
  payer: 'buyer-agent-7',
  amount: 150000n,
  nonceKey: 'token:iss:jti',
  token: 'a.b.c',
} as unknown as VerifiedTokenPayment;

const RECEIPT = { success: true as const, transaction: '0xt', network: 'eip155:8453', payer: '0xabc' };
const settled = (): Settlement => ({ type: 'settled', receipt: RECEIPT });

const input: PurchaseInput = { product: 'agent_image', request: { prompt: 'x' }, payment, blockingWaitMs: 0 };

/** The ledger items the job store builds, tagged so a test can see which one travelled with which ledger move. */
const reserveMark = (job: JobRecord) => ({ reserve: { ...job } }) as unknown as LedgerItem; // a snapshot, as the transaction sends it
const queueMark = (jobId: string, transaction: string) => ({ queue: [jobId, transaction] }) as unknown as LedgerItem;
const voidMark = (jobId: string, reason: string) => ({ void: [jobId, reason] }) as unknown as LedgerItem;

/**
 * A settlement as the skeleton drives it: a job's is begun beside the lock (`proceed`), and sends — `send` is called
 * — only once the purchase says to; told no, it sends nothing and refuses.
 */
function settler(send: () => void, outcome: () => Settlement = settled) {
  return vi.fn(async (_payment: AcceptedPayment, options?: SettleOptions): Promise<Settlement> => {
    if (!(await toldToSend(options))) return ABANDONED;
    send();
    return outcome();
  });
}

function deps(over: Partial<PurchaseDeps> = {}) {
  const sent = vi.fn();
  const base = {
    /** Called when the settlement would send: a test of "never settles" holds it uncalled. */
    sent,
    jobs: {
      get: vi.fn(async (_: string) => undefined as JobRecord | undefined),
      reserveItem: vi.fn(reserveMark),
      queueItem: vi.fn(queueMark),
      voidItem: vi.fn(voidMark),
    },
    ledger: {
      lock: vi.fn(async (_lock: PaymentLock, _item?: LedgerItem) => {}),
      markCharging: vi.fn(async (_nonceKey: string) => {}),
      markSettled: vi.fn(async (_nonceKey: string, _transaction: string, _item?: LedgerItem) => {}),
      markFailed: vi.fn(async (_nonceKey: string, _reason: string, _outcome: string, _item?: LedgerItem) => {}),
    },
    settle: settler(sent),
    workflow: { start: vi.fn(async () => 'started' as const) },
    providerFor: () => 'local',
    newId: () => 'job-1',
    sleep: async (_ms: number) => {},
  };
  // The overrides keep the fakes' Mock types for the assertions.
  return { ...base, ...over } as typeof base;
}

/** Deps whose every step appends its name to `order`. */
function recording(order: string[], settlement: () => Settlement = settled) {
  return deps({
    ledger: {
      lock: vi.fn(async () => void order.push('lock')),
      markCharging: vi.fn(async () => void order.push('markCharging')),
      markSettled: vi.fn(async () => void order.push('markSettled')),
      markFailed: vi.fn(async () => void order.push('markFailed')),
    },
    settle: settler(() => order.push('settle'), settlement),
    workflow: { start: vi.fn(async () => (order.push('start'), 'started' as const)) },
  });
}

function expectType<T extends JobPurchase['type']>(result: JobPurchase, type: T): Extract<JobPurchase, { type: T }> {
  expect(result.type).toBe(type);
  return result as Extract<JobPurchase, { type: T }>;
}

describe('purchaseJob: the paid request, in order', () => {
  it('x402: locks with the reserved job before settling, then records the receipt with the queued job, then starts', async () => {
    const order: string[] = [];
    const d = recording(order);
    const result = expectType(await purchaseJob(d, input), 'accepted');

    expect(order).toEqual(['lock', 'settle', 'markSettled', 'start']);
    expect(d.ledger.markCharging).not.toHaveBeenCalled(); // an x402 authorization is reconciled against the chain instead
    expect(d.ledger.lock).toHaveBeenCalledWith(
      { nonceKey: 'k1', amount: 150000n, payer: '0xabc', purchase: 'job#job-1' },
      { reserve: expect.objectContaining({ jobId: 'job-1', status: 'reserved' }) },
    );
    expect(d.ledger.markSettled).toHaveBeenCalledWith('k1', '0xt', queueMark('job-1', '0xt'));
    expect(d.workflow.start).toHaveBeenCalledWith(expect.objectContaining({ jobId: 'job-1', product: 'agent_image' }));
    expect(result.receipt).toEqual(RECEIPT);
    expect(result.job).toMatchObject({ jobId: 'job-1', status: 'queued', transaction: '0xt' });
  });

  it('x402: the reserved job carries the authorization validBefore (the sweeper never voids a transfer that could still land)', async () => {
    const d = deps();
    await purchaseJob(d, input);
    expect(d.ledger.lock.mock.calls[0][1]).toEqual({
      reserve: expect.objectContaining({
        jobId: 'job-1',
        status: 'reserved',
        product: 'agent_image',
        provider: 'local',
        payer: '0xabc',
        paymentKind: 'x402',
        nonceKey: 'k1',
        validBefore: VALID_BEFORE,
      }),
    });
  });

  it('token: marks the charge as being sent between the lock and the charge, and its reserved job has no validBefore', async () => {
    const order: string[] = [];
    const d = recording(order);
    const result = await purchaseJob(d, { ...input, payment: token });
    expect(order).toEqual(['lock', 'markCharging', 'settle', 'markSettled', 'start']);
    expect(d.ledger.markCharging).toHaveBeenCalledWith('token:iss:jti');
    expect(d.settle).toHaveBeenCalledWith(token, expect.anything());
    const reserved = (d.ledger.lock.mock.calls[0][1] as unknown as { reserve: JobRecord }).reserve;
    expect(reserved).toMatchObject({ status: 'reserved', paymentKind: 'token', nonceKey: 'token:iss:jti', payer: 'buyer-agent-7' });
    expect(reserved).not.toHaveProperty('validBefore');
    expect(result.type).toBe('accepted');
  });

  it('refuses a used authorization and never settles', async () => {
    const d = deps();
    d.ledger.lock.mockRejectedValue(new PaymentAlreadyUsedError());
    const result = await purchaseJob(d, input);
    expect(result).toEqual({ type: 'refused', reason: 'Payment authorization already used' });
    expect(d.sent).not.toHaveBeenCalled();
    expect(d.ledger.markCharging).not.toHaveBeenCalled();
    expect(d.workflow.start).not.toHaveBeenCalled();
  });

  it('lets any other lock failure propagate (a storage outage is not a refusal) and never settles', async () => {
    const d = deps();
    d.ledger.lock.mockRejectedValue(new Error('dynamo down'));
    await expect(purchaseJob(d, input)).rejects.toThrow('dynamo down');
    expect(d.sent).not.toHaveBeenCalled();
  });

  it('voids the job and releases the lock (nothing moved) when settlement is refused', async () => {
    const d = deps({ settle: vi.fn(async (): Promise<Settlement> => ({ type: 'refused', reason: 'insufficient funds' })) });
    const result = await purchaseJob(d, input);
    expect(result).toEqual({ type: 'refused', reason: 'insufficient funds' });
    // Refused to the buyer: no 202 gave a webhook secret, so the job's webhook (if any) is dropped with it (docs/decisions/0018).
    expect(d.jobs.voidItem).toHaveBeenCalledWith('job-1', 'insufficient funds', true);
    expect(d.ledger.markFailed).toHaveBeenCalledWith('k1', 'insufficient funds', 'nothing-moved', voidMark('job-1', 'insufficient funds'));
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
    expect(d.workflow.start).not.toHaveBeenCalled();
  });

  it('the lock is written while the chain reads finish; a chain refusal then voids and releases it, never settles', async () => {
    let answer!: (checks: ChainChecks) => void;
    const chainChecks = new Promise<ChainChecks>((resolve) => (answer = resolve));
    const order: string[] = [];
    const d = recording(order);
    const pending = purchaseJob(d, { ...input, payment: { ...payment, chainChecks } as VerifiedPayment });
    await vi.waitFor(() => expect(order).toEqual(['lock'])); // locked before the chain answered
    answer({ ok: false, reason: 'Insufficient USDC balance: 0xabc holds 0, needs 150000' });
    expect(await pending).toEqual({ type: 'refused', reason: 'Insufficient USDC balance: 0xabc holds 0, needs 150000' });
    expect(order).toEqual(['lock', 'markFailed']);
    expect(d.ledger.markFailed).toHaveBeenCalledWith('k1', 'Insufficient USDC balance: 0xabc holds 0, needs 150000', 'nothing-moved', voidMark('job-1', 'Insufficient USDC balance: 0xabc holds 0, needs 150000'));
  });

  it('a chain that could not be read releases the lock too (the authorization pays later): unavailable', async () => {
    const d = deps();
    const chainChecks = Promise.resolve<ChainChecks>({ ok: false, unavailable: 'Could not read payment state from the chain: timeout' });
    expect(await purchaseJob(d, { ...input, payment: { ...payment, chainChecks } as VerifiedPayment })).toEqual({ type: 'unavailable', reason: 'Could not read payment state from the chain: timeout' });
    expect(d.ledger.markFailed).toHaveBeenCalledWith('k1', 'Could not read payment state from the chain: timeout', 'nothing-moved', voidMark('job-1', 'Could not read payment state from the chain: timeout'));
    expect(d.sent).not.toHaveBeenCalled();
  });

  it('a used authorization still refuses on the lock, whatever the chain reads say', async () => {
    const d = deps();
    d.ledger.lock.mockRejectedValue(new PaymentAlreadyUsedError());
    const chainChecks = Promise.resolve<ChainChecks>({ ok: true });
    expect(await purchaseJob(d, { ...input, payment: { ...payment, chainChecks } as VerifiedPayment })).toEqual({ type: 'refused', reason: 'Payment authorization already used' });
    expect(d.ledger.markFailed).not.toHaveBeenCalled();
  });

  it('back-pressured settler: voids and releases (nothing moved), refused with its Retry-After', async () => {
    const d = deps({ settle: vi.fn(async (): Promise<Settlement> => ({ type: 'refused', reason: 'busy', retryAfterSeconds: 1 })) });
    expect(await purchaseJob(d, input)).toEqual({ type: 'refused', reason: 'busy', retryAfterSeconds: 1 });
    expect(d.ledger.markFailed).toHaveBeenCalledWith('k1', 'busy', 'nothing-moved', voidMark('job-1', 'busy'));
  });

  it('settler unavailable (no key with gas): voids and releases the lock, so the same authorization can pay later; unavailable', async () => {
    const d = deps({ settle: vi.fn(async (): Promise<Settlement> => ({ type: 'unavailable', reason: 'Every settlement key is below its gas floor' })) });
    expect(await purchaseJob(d, input)).toEqual({ type: 'unavailable', reason: 'Every settlement key is below its gas floor' });
    expect(d.ledger.markFailed).toHaveBeenCalledWith('k1', 'Every settlement key is below its gas floor', 'nothing-moved', voidMark('job-1', 'Every settlement key is below its gas floor'));
    expect(d.workflow.start).not.toHaveBeenCalled();
  });

  it('x402 unknown outcome: accepted without a receipt, the job kept reserved and locked (the chain decides), nothing started', async () => {
    const d = deps({
      settle: vi.fn(async (): Promise<Settlement> => ({ type: 'unknown-outcome', reason: 'Settlement transaction 0xt not confirmed' })),
    });
    const result = expectType(await purchaseJob(d, input), 'accepted');
    expect(result.receipt).toBeUndefined();
    expect(result.job).toMatchObject({ jobId: 'job-1', status: 'reserved' });
    expect(d.ledger.markFailed).not.toHaveBeenCalled(); // not voided: the sweeper reconciles it against the chain
    expect(d.jobs.voidItem).not.toHaveBeenCalled();
    expect(d.ledger.markSettled).not.toHaveBeenCalled();
    expect(d.workflow.start).not.toHaveBeenCalled();
  });

  it('token unknown outcome: refused, the job voided and the token kept locked (may-have-moved), nothing started', async () => {
    const d = deps({ settle: vi.fn(async (): Promise<Settlement> => ({ type: 'unknown-outcome', reason: 'issuer timed out' })) });
    const result = await purchaseJob(d, { ...input, payment: token });
    expect(result).toEqual({ type: 'refused', reason: 'issuer timed out' });
    expect(d.ledger.markFailed).toHaveBeenCalledWith('token:iss:jti', 'issuer timed out', 'may-have-moved', voidMark('job-1', 'issuer timed out'));
    expect(d.workflow.start).not.toHaveBeenCalled();
  });

  it('still refuses (never throws) when the refused job cannot be voided; the sweeper voids it', async () => {
    const d = deps({ settle: vi.fn(async (): Promise<Settlement> => ({ type: 'refused', reason: 'insufficient funds' })) });
    d.ledger.markFailed.mockRejectedValue(new Error('dynamo down'));
    expect(await purchaseJob(d, input)).toEqual({ type: 'refused', reason: 'insufficient funds' });
    expect(d.workflow.start).not.toHaveBeenCalled();
  });

  it('still accepts with the receipt when the receipt cannot be recorded, and leaves the start to the sweeper that reconciles it', async () => {
    const d = deps();
    d.ledger.markSettled.mockRejectedValue(new Error('dynamo down'));
    const result = expectType(await purchaseJob(d, input), 'accepted');
    expect(result.receipt).toEqual(RECEIPT);
    expect(result.job.status).toBe('reserved');
    expect(d.workflow.start).not.toHaveBeenCalled();
  });

  it('never fails after money moved: a failed start still accepts with the receipt (the sweeper starts it)', async () => {
    const d = deps({ workflow: { start: vi.fn(async () => { throw new Error('throttled'); }) } });
    const result = expectType(await purchaseJob(d, input), 'accepted');
    expect(result.receipt).toEqual(RECEIPT);
    expect(result.job.status).toBe('queued');
  });
});

describe('purchaseJob: the blocking wait', () => {
  // Only the fake timer's clock moves: the wait is measured with Date.now(), and `sleep` advances it.
  beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-22T12:00:00Z') }));
  afterAll(() => void vi.useRealTimers());

  const advancing = (slept: number[] = []) => async (ms: number) => {
    slept.push(ms);
    vi.setSystemTime(Date.now() + Math.max(ms, 1));
  };

  it('returns finished with the receipt when the job completes within the budget', async () => {
    const done = { jobId: 'job-1', product: 'agent_image', status: 'completed', provider: 'local', assets: { image: 'i.png' } } as JobRecord;
    const processing = { status: 'processing' } as JobRecord;
    const get = vi.fn(async (_: string): Promise<JobRecord | undefined> => done).mockResolvedValueOnce(processing).mockResolvedValueOnce(processing);
    const d = deps({ jobs: { ...deps().jobs, get }, sleep: advancing() });
    const result = await purchaseJob(d, { ...input, blockingWaitMs: 5000 });
    expect(result).toEqual({ type: 'finished', job: done, receipt: RECEIPT });
    expect(get).toHaveBeenCalledTimes(3);
    expect(get).toHaveBeenCalledWith('job-1');
  });

  it('a failed job also ends the wait (finished, not accepted)', async () => {
    const failed = { jobId: 'job-1', product: 'agent_image', status: 'failed' } as JobRecord;
    const d = deps({ jobs: { ...deps().jobs, get: vi.fn(async () => failed) }, sleep: advancing() });
    expect(expectType(await purchaseJob(d, { ...input, blockingWaitMs: 5000 }), 'finished').job).toBe(failed);
  });

  it('beyond the wait budget answers accepted with the receipt (the job still completes)', async () => {
    const slept: number[] = [];
    const get = vi.fn(async () => ({ status: 'processing' }) as JobRecord);
    const d = deps({ jobs: { ...deps().jobs, get }, sleep: advancing(slept) });
    const result = expectType(await purchaseJob(d, { ...input, blockingWaitMs: 3000 }), 'accepted');
    expect(result.receipt).toEqual(RECEIPT);
    expect(get).toHaveBeenCalled();
    expect(slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3000);
  });

  it('a failing poll only shortens the wait: still accepted', async () => {
    const d = deps({ jobs: { ...deps().jobs, get: vi.fn(async () => { throw new Error('dynamo down'); }) }, sleep: advancing() });
    expect((await purchaseJob(d, { ...input, blockingWaitMs: 1000 })).type).toBe('accepted');
  });

  it('does not wait at all when blockingWaitMs is 0', async () => {
    const d = deps({ jobs: { ...deps().jobs, get: vi.fn(async () => ({ status: 'completed' }) as JobRecord) }, sleep: advancing() });
    expect((await purchaseJob(d, input)).type).toBe('accepted');
    expect(d.jobs.get).not.toHaveBeenCalled();
  });

  it('passes the answer deadline to the settlement and ends a blocking wait by it', async () => {
    const slept: number[] = [];
    const d = deps({ jobs: { ...deps().jobs, get: vi.fn(async () => ({ status: 'processing' }) as JobRecord) }, sleep: advancing(slept) });
    const deadline = Date.now() + 150;
    const result = await purchaseJob(d, { ...input, blockingWaitMs: 25_000, deadline });
    // An x402 job takes a preconfirmed receipt where one is configured (ADR 0021); its delivery waits for the block.
    // Begun beside the lock, told to send once the lock and the chain checks passed (`proceed`).
    expect(d.settle).toHaveBeenCalledWith(payment, { deadline, preconfirmation: true, proceed: expect.any(Promise) });
    expect(result.type).toBe('accepted');
    // The 25 s budget was cut to the deadline: the waits asked for add up to at most the 150 ms left.
    expect(slept.length).toBeGreaterThan(0);
    expect(slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(150);
  });

  it('does not wait when the settlement did not complete', async () => {
    const d = deps({
      settle: vi.fn(async (): Promise<Settlement> => ({ type: 'unknown-outcome', reason: 'not confirmed' })),
      sleep: advancing(),
    });
    expect(expectType(await purchaseJob(d, { ...input, blockingWaitMs: 5000 }), 'accepted').receipt).toBeUndefined();
    expect(d.jobs.get).not.toHaveBeenCalled();
  });
});

describe('presentPurchase: the HTTP answer of a purchase', () => {
  const PUBLIC = 'https://cdn.test';
  const PAY_TO = '0x1111111111111111111111111111111111111111';
  const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
  let presentPurchase: typeof import('../../../lambdas/http/present-purchase.js').presentPurchase;
  let PaymentRequiredError: typeof import('../../../lambdas/shared/errors.js').PaymentRequiredError;
  let offer: Offer;

  beforeAll(async () => {
    vi.stubEnv('X402_NETWORK', 'eip155:8453');
    vi.stubEnv('CHAIN_ID', '8453');
    vi.stubEnv('USDC_ADDRESS', USDC);
    vi.stubEnv('PAY_TO_ADDRESS', PAY_TO);
    vi.stubEnv('RPC_URL', 'http://127.0.0.1:8545');
    vi.stubEnv('SETTLER_KEY_FILE', '/nonexistent/settler.key');
    vi.stubEnv('ASSETS_PUBLIC_URL', PUBLIC);
    vi.stubEnv('ASSETS_DIR', '/tmp/assets');
    ({ presentPurchase } = await import('../../../lambdas/http/present-purchase.js'));
    ({ PaymentRequiredError } = await import('../../../lambdas/shared/errors.js'));
    offer = (await import('../../../lambdas/jobs/offers.js')).productOffer('agent_image', 'https://api.test');
  });
  afterAll(() => void vi.unstubAllEnvs());

  const imageJob = (over: Partial<JobRecord> = {}) =>
    ({ jobId: 'job-1', product: 'agent_image', status: 'queued', provider: 'local', request: {}, ...over }) as JobRecord;
  const decode = (value: string) => JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
  const TOKEN_OF = (job: JobRecord) => ({ cancelToken: `ct_token-of-${job.jobId}` });

  it('accepted: 202 with the accepted body, the receipt in PAYMENT-RESPONSE and the poll URL in Location', () => {
    const result = presentPurchase({ type: 'accepted', job: imageJob(), receipt: RECEIPT }, offer, 'https://api.test', TOKEN_OF);
    expect(result.statusCode).toBe(202);
    expect(decode(result.headers['PAYMENT-RESPONSE'])).toEqual(RECEIPT);
    const body = JSON.parse(result.body!);
    expect(body).toMatchObject({ jobId: 'job-1', status: 'queued', imageUrl: null, pollUrl: 'https://api.test/agent/image/job-1' });
    expect(result.headers.Location).toBe(body.pollUrl);
    // The payer's cancel token and where to send it (docs/decisions/0017).
    expect(body).toMatchObject({ cancelUrl: 'https://api.test/agent/image/job-1/cancel', cancelToken: 'ct_token-of-job-1' });
  });

  it('accepted without a receipt (outcome unknown): 202 and no PAYMENT-RESPONSE; a reserved job reads as queued', () => {
    const result = presentPurchase({ type: 'accepted', job: imageJob({ status: 'reserved' }) }, offer, 'https://api.test', TOKEN_OF);
    expect(result.statusCode).toBe(202);
    expect(result.headers).not.toHaveProperty('PAYMENT-RESPONSE');
    expect(JSON.parse(result.body!)).toMatchObject({ status: 'queued', pollUrl: 'https://api.test/agent/image/job-1' });
    expect(result.headers.Location).toBe('https://api.test/agent/image/job-1');
  });

  it('finished: 200 with the asset and the receipt', () => {
    const job = imageJob({ status: 'completed', assets: { image: 'i.png' } });
    const result = presentPurchase({ type: 'finished', job, receipt: RECEIPT }, offer, 'https://api.test', TOKEN_OF);
    expect(result.statusCode).toBe(200);
    expect(decode(result.headers['PAYMENT-RESPONSE'])).toEqual(RECEIPT);
    expect(JSON.parse(result.body!)).toMatchObject({ status: 'completed', imageUrl: `${PUBLIC}/i.png`, pollUrl: null });
    // No webhook, no secret; no cancel token on a job that ended.
    expect(JSON.parse(result.body!)).not.toHaveProperty('webhookSecret');
    expect(JSON.parse(result.body!)).not.toHaveProperty('cancelToken');
  });

  it('finished with a webhook: the 200 gives the webhook secret (its delivery is on its way), the 202 both secrets', () => {
    const secrets = () => ({ cancelToken: 'ct_x', webhookSecret: 'whsec_y' });
    const job = imageJob({ status: 'completed', assets: { image: 'i.png' } });
    const finished = presentPurchase({ type: 'finished', job, receipt: RECEIPT }, offer, 'https://api.test', secrets);
    expect(JSON.parse(finished.body!)).toMatchObject({ webhookSecret: 'whsec_y' });
    expect(JSON.parse(finished.body!)).not.toHaveProperty('cancelToken');
    const accepted = presentPurchase({ type: 'accepted', job: imageJob(), receipt: RECEIPT }, offer, 'https://api.test', secrets);
    expect(JSON.parse(accepted.body!)).toMatchObject({ cancelToken: 'ct_x', webhookSecret: 'whsec_y' });
  });

  it('finished music: 200 with the blocking music body', () => {
    const job = imageJob({ product: 'create_music', status: 'completed', request: { prompt: 'dreamy lo-fi' }, assets: { audio: 'a.mp3' } });
    const result = presentPurchase({ type: 'finished', job, receipt: RECEIPT }, offer, 'https://api.test', TOKEN_OF);
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body!)).toMatchObject({ songId: 'job-1', status: 'completed', audioUrl: `${PUBLIC}/a.mp3` });
  });

  it("refused: throws the offer's 402 whose error is the reason", () => {
    let thrown: unknown;
    try {
      presentPurchase({ type: 'refused', reason: 'insufficient funds' }, offer, 'https://api.test', TOKEN_OF);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PaymentRequiredError);
    const challenge = (thrown as InstanceType<typeof PaymentRequiredError>).challenge as { error: string; accepts: Record<string, unknown>[] };
    expect(challenge.error).toBe('insufficient funds');
    expect(challenge.accepts[0]).toMatchObject({ amount: offer.amount.toString(), resource: offer.resource, payTo: PAY_TO, asset: USDC });
  });

  it('refused by a back-pressured settler: the 402 carries Retry-After (spec, 402 reasons)', () => {
    const thrown = (() => {
      try {
        presentPurchase({ type: 'refused', reason: 'busy', retryAfterSeconds: 1 }, offer, 'https://api.test', TOKEN_OF);
      } catch (error) {
        return error;
      }
    })() as InstanceType<typeof PaymentRequiredError>;
    expect(thrown).toBeInstanceOf(PaymentRequiredError);
    expect(thrown.extraHeaders).toEqual({ 'Retry-After': '1' });
  });

  it('unavailable: a DependencyError (503 with Retry-After, nothing charged)', async () => {
    const { DependencyError } = await import('../../../lambdas/shared/errors.js');
    expect(() => presentPurchase({ type: 'unavailable', reason: 'no gas' }, offer, 'https://api.test', TOKEN_OF)).toThrow(DependencyError);
  });
});
