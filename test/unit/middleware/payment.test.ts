/**
 * The payment adapter (lambdas/middleware/payment.ts) behind the generation frame. Spec: "Authentication" 2.1 (a
 * request without PAYMENT-SIGNATURE answers 402, the challenge in the body and base64 in PAYMENT-REQUIRED), "402
 * reasons" (an unreadable header answers `Payment authorization missing` with a PAYMENT-REFERENCE header), and
 * "Asynchronous mode rules" 6 (the 402 comes before body validation). The header is classified once per request and
 * shared by the rate limit, idempotency and payment.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { frame } from '../../../lambdas/middleware/http-frame.js';
import { idempotency, type IdempotencyPort } from '../../../lambdas/middleware/idempotency.js';
import { payment, paymentHeaderOf } from '../../../lambdas/middleware/payment.js';
import { probeRateLimit } from '../../../lambdas/middleware/rate-limit.js';
import type { HttpMiddleware } from '../../../lambdas/middleware/types.js';
import { validateBody } from '../../../lambdas/middleware/validation.js';
import { classifyPaymentHeader, type PaymentHeader } from '../../../lambdas/payments/core/header.js';
import { PaymentCore } from '../../../lambdas/payments/core/server.js';
import type { Offer, PaymentDecision } from '../../../lambdas/payments/core/types.js';
import type { ChainChecks, PaymentChallenge, VerifiedPayment } from '../../../lambdas/payments/types.js';
import { musicRequestSchema } from '../../../lambdas/products/catalog.js';
import { productOffer } from '../../../lambdas/jobs/offers.js';
import { GENERATION } from '../../../lambdas/surfaces/surface.js';
import { bodyOf, chain, httpEvent, JUNK_HEADER, TOKEN_HEADER, x402Header, x402Wire } from '../../support/events.js';

// Counts the classifications: the adapter and its siblings must share one per request.
vi.mock('../../../lambdas/payments/core/header.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../lambdas/payments/core/header.js')>();
  return { ...actual, classifyPaymentHeader: vi.fn(actual.classifyPaymentHeader) };
});
const classify = vi.mocked(classifyPaymentHeader);
beforeEach(() => classify.mockClear());

const VERIFIED = { kind: 'x402', nonceKey: 'eip155:8453#0xusdc#0xpayer#0xnonce', amount: 500_000n, payer: '0x22' } as unknown as VerifiedPayment;
const CHALLENGE: PaymentChallenge = {
  x402Version: 2,
  error: 'PAYMENT-SIGNATURE header is required',
  resource: { url: 'https://api.test/create-music' },
  accepts: [],
  extensions: {},
};

/** A PaymentCore-like object whose decisions the test sets, recording what it was asked. */
function fakeCore(decision: PaymentDecision) {
  const asked: { offer: Offer; header: PaymentHeader }[] = [];
  const core = {
    decide: vi.fn(async (offer: Offer, header: PaymentHeader) => {
      asked.push({ offer, header });
      return decision;
    }),
  } as unknown as PaymentCore;
  return { core, asked };
}

const offerFor = (host: string | undefined): Offer => ({ ...productOffer('create_music', `https://${host}`) });

function setup(decision: PaymentDecision, extra: HttpMiddleware[] = []) {
  const { core, asked } = fakeCore(decision);
  const c = chain([...frame(GENERATION), ...extra, payment({ offer: (request) => offerFor(request.event.headers.host), core: () => core })]);
  return { c, asked, core };
}

const withSignature = (value: string, headers: Record<string, string> = {}) =>
  httpEvent({ headers: { 'payment-signature': value, ...headers }, body: '{"prompt":"x"}' });

describe('The core decides on the offer of the request and the classified payment header', () => {
  it.each<[string, string | undefined, PaymentHeader['kind']]>([
    ['no header', undefined, 'none'],
    ['junk', JUNK_HEADER, 'unreadable'],
    ['an x402 payload', x402Header(), 'x402'],
    ['a token', TOKEN_HEADER, 'token'],
  ])('passes %s as kind %s', async (_what, value, kind) => {
    const { c, asked } = setup({ type: 'verified', payment: VERIFIED });
    await c.invoke(httpEvent({ headers: { host: 'shop.test', ...(value === undefined ? {} : { 'payment-signature': value }) } }));
    expect(asked).toHaveLength(1);
    expect(asked[0].offer).toEqual(productOffer('create_music', 'https://shop.test'));
    expect(asked[0].header.kind).toBe(kind);
  });

  it('passes the decoded x402 payload and the token itself', async () => {
    const { c, asked } = setup({ type: 'verified', payment: VERIFIED });
    await c.invoke(withSignature(x402Header()));
    await c.invoke(withSignature(`  ${TOKEN_HEADER} `));
    const x402 = asked[0].header as Extract<PaymentHeader, { kind: 'x402' }>;
    expect(x402.payload.payload.authorization.nonce).toBe((x402Wire() as any).payload.authorization.nonce);
    expect(x402.payload.payload.authorization.value).toBe(500_000n);
    expect(asked[1].header).toEqual({ kind: 'token', token: TOKEN_HEADER });
  });
});

describe('Authentication 2.1: a challenge answers 402 with the challenge in the body and in PAYMENT-REQUIRED', () => {
  it('answers the challenge without running the handler', async () => {
    const { c } = setup({ type: 'challenge', challenge: CHALLENGE, headers: {} });
    const result = await c.invoke(httpEvent());
    expect(result.statusCode).toBe(402);
    expect(bodyOf(result)).toEqual(CHALLENGE);
    expect(JSON.parse(Buffer.from(result.headers['PAYMENT-REQUIRED'], 'base64').toString('utf8'))).toEqual(CHALLENGE);
    expect(result.headers['Service-API-Version']).toBe('1');
    expect(c.calls).toBe(0);
  });
});

describe('402 reasons: a payment that cannot pay answers 402 with its reason and the decision headers', () => {
  it('answers an invalid decision 402 with PAYMENT-REFERENCE', async () => {
    const challenge = { ...CHALLENGE, error: 'Payment authorization missing' };
    const { c } = setup({ type: 'invalid', reason: 'Payment authorization missing', challenge, headers: { 'PAYMENT-REFERENCE': 'ref-7' } });
    const result = await c.invoke(withSignature(JUNK_HEADER));
    expect(result.statusCode).toBe(402);
    expect(bodyOf(result)).toEqual(challenge);
    expect(result.headers['PAYMENT-REFERENCE']).toBe('ref-7');
    expect(JSON.parse(Buffer.from(result.headers['PAYMENT-REQUIRED'], 'base64').toString('utf8'))).toEqual(challenge);
    expect(c.calls).toBe(0);
  });

  it('with the real payment core: no header → the "required" reason; junk → "missing" with a PAYMENT-REFERENCE', async () => {
    const core = new PaymentCore({
      terms: () => ({ network: 'eip155:8453', usdcAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: '0x1111111111111111111111111111111111111111' }),
      x402: () => {
        throw new Error('not reached');
      },
      tokens: () => null,
      newReference: () => 'ref-support-1',
    });
    const c = chain([...frame(GENERATION), payment({ offer: () => productOffer('create_music', 'https://api.test'), core: () => core })]);

    const none = await c.invoke(httpEvent());
    expect(none.statusCode).toBe(402);
    expect(bodyOf(none)).toMatchObject({ x402Version: 2, error: 'PAYMENT-SIGNATURE header is required', accepts: [{ amount: '500000', payTo: '0x1111111111111111111111111111111111111111' }] });
    expect(none.headers['PAYMENT-REFERENCE']).toBeUndefined();

    const junk = await c.invoke(withSignature(JUNK_HEADER));
    expect(junk.statusCode).toBe(402);
    expect(bodyOf(junk).error).toBe('Payment authorization missing');
    expect(junk.headers['PAYMENT-REFERENCE']).toBe('ref-support-1');
    expect(Buffer.from(junk.headers['PAYMENT-REQUIRED'], 'base64').toString('utf8')).toBe(junk.body);
    expect(c.calls).toBe(0);
  });
});

describe('Asynchronous mode rule 6: the 402 comes before body validation', () => {
  it('answers 402, not 422, to an unpaid request with an empty body and no Content-Type', async () => {
    const { core } = fakeCore({ type: 'challenge', challenge: CHALLENGE, headers: {} });
    const c = chain([...frame(GENERATION), payment({ offer: () => offerFor('api.test'), core: () => core }), validateBody(musicRequestSchema)]);
    const result = await c.invoke(httpEvent({ headers: {}, body: undefined }));
    expect(result.statusCode).toBe(402);
  });
});

describe('the chain reads left in flight beside the lock still answer 402 before the body is judged', () => {
  /** A verified payment whose chain reads (deferred by the verifier) end as `checks`; a core that builds refusals. */
  function deferred(checks: ChainChecks) {
    const paid = { ...VERIFIED, chainChecks: Promise.resolve(checks) } as VerifiedPayment;
    const { core } = fakeCore({ type: 'verified', payment: paid });
    const refusal = vi.fn((_offer: Offer, reason: string) => ({ type: 'invalid', reason, headers: {}, challenge: { ...CHALLENGE, error: reason } }));
    Object.assign(core, { refusal });
    const c = chain([...frame(GENERATION), payment({ offer: () => offerFor('api.test'), core: () => core }), validateBody(musicRequestSchema)]);
    return { c, core, refusal };
  }
  const badBody = () => withSignature(x402Header(), { 'content-type': 'application/json' });
  const invalid = (event: ReturnType<typeof withSignature>) => ({ ...event, body: '{"prompt":42}' });

  it('asks the core to defer the chain reads', async () => {
    const { c, core } = deferred({ ok: true });
    await c.invoke(withSignature(x402Header(), { 'content-type': 'application/json' }));
    expect(vi.mocked(core.decide).mock.calls[0][2]).toEqual({ deferChainChecks: true });
  });

  it('a payer without the balance and an invalid body: 402 with the balance reason, not 422', async () => {
    const { c, refusal } = deferred({ ok: false, reason: 'Insufficient USDC balance: 0x22 holds 0, needs 500000' });
    const result = await c.invoke(invalid(badBody()));
    expect(result.statusCode).toBe(402);
    expect(bodyOf(result).error).toBe('Insufficient USDC balance: 0x22 holds 0, needs 500000');
    expect(refusal).toHaveBeenCalledTimes(1);
    expect(c.calls).toBe(0);
  });

  it('a chain that could not be read and an invalid body: 503 (we could not check), not 422', async () => {
    const { c } = deferred({ ok: false, unavailable: 'Could not read payment state from the chain: connection refused' });
    const result = await c.invoke(invalid(badBody()));
    expect(result.statusCode).toBe(503);
  });

  it('a payment the chain accepts and an invalid body: the 422 stands', async () => {
    const { c, refusal } = deferred({ ok: true });
    const result = await c.invoke(invalid(badBody()));
    expect(result.statusCode).toBe(422);
    expect(refusal).not.toHaveBeenCalled();
  });
});

describe('A verified payment is left for the purchase in request.internal.payment and the handler runs', () => {
  it('sets request.internal.payment to the verified payment', async () => {
    const { c } = setup({ type: 'verified', payment: VERIFIED });
    const result = await c.invoke(withSignature(x402Header()));
    expect(result.statusCode).toBe(200);
    expect(c.calls).toBe(1);
    expect(c.internals[0].payment).toBe(VERIFIED);
  });

  it('leaves no payment on a refused request', async () => {
    const internals: unknown[] = [];
    const spy: HttpMiddleware = { name: 'spy', onError: (request) => void internals.push(request.internal.payment) };
    const { core } = fakeCore({ type: 'challenge', challenge: CHALLENGE, headers: {} });
    const c = chain([...frame(GENERATION), spy, payment({ offer: () => offerFor('api.test'), core: () => core })]);
    await c.invoke(httpEvent());
    expect(internals).toEqual([undefined]);
  });
});

describe('The payment header is read and classified once per request (paymentHeaderOf memoises in request.internal)', () => {
  const memoryIdempotency = (): IdempotencyPort => ({
    get: async () => undefined,
    begin: async () => ({ taken: true }),
    complete: async () => {},
    release: async () => {},
  });

  it('rate limit, idempotency and payment share one classification', async () => {
    const { c, asked } = setup({ type: 'verified', payment: VERIFIED }, [
      probeRateLimit({ counter: { hit: async () => 1, peek: async () => 0 } }),
      idempotency({ store: memoryIdempotency(), scope: 'create_music', party: async () => 'x402:0xbuyer' }),
    ]);
    await c.invoke(withSignature(x402Header(), { 'x-idempotency-key': 'key-1' }));
    expect(classify).toHaveBeenCalledTimes(1);
    expect(asked[0].header).toBe(c.internals[0].paymentHeader);
  });

  it('classifies once for an unpaid request too (counted, then refused)', async () => {
    const { c } = setup({ type: 'challenge', challenge: CHALLENGE, headers: {} }, [
      probeRateLimit({ counter: { hit: async () => 1, peek: async () => 0 } }),
      idempotency({ store: memoryIdempotency(), scope: 'create_music', party: async () => 'x402:0xbuyer' }),
    ]);
    const result = await c.invoke(withSignature(JUNK_HEADER, { 'x-idempotency-key': 'key-1' }));
    expect(result.statusCode).toBe(402);
    expect(classify).toHaveBeenCalledTimes(1);
  });

  it('the core gets the classification kept in request.internal, not a second reading of the header', async () => {
    const seeded: PaymentHeader = { kind: 'token', token: 'seeded' };
    const seed: HttpMiddleware = { name: 'seed', before: (request) => void (request.internal.paymentHeader = seeded) };
    const { c, asked } = setup({ type: 'verified', payment: VERIFIED }, [seed]);
    await c.invoke(withSignature(x402Header()));
    expect(asked[0].header).toBe(seeded);
    expect(classify).not.toHaveBeenCalled();
  });

  it('paymentHeaderOf stores the classification on the request', () => {
    const request = { event: withSignature(TOKEN_HEADER), internal: {} } as Parameters<typeof paymentHeaderOf>[0];
    const first = paymentHeaderOf(request);
    expect(request.internal.paymentHeader).toBe(first);
    expect(paymentHeaderOf(request)).toBe(first);
    expect(classify).toHaveBeenCalledTimes(1);
  });
});
