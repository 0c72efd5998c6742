import { beforeAll, describe, expect, it, vi } from 'vitest';
import { PaymentCore, type PaymentCoreDeps, type TokenBackend } from '../../../lambdas/payments/core/server.js';
import { carriesPayment, classifyPaymentHeader, type PaymentHeader } from '../../../lambdas/payments/core/header.js';
import {
  REASON_MISSING,
  REASON_TOKENS_NOT_ACCEPTED,
  REASON_UNREADABLE,
  type PaymentTerms,
} from '../../../lambdas/payments/core/challenge.js';
import type { Offer, PaymentDecision, Settlement } from '../../../lambdas/payments/core/types.js';
import {
  encodeBase64Json,
  type PaymentPayload,
  type PaymentRequirement,
  type SettleResult,
  type VerifiedPayment,
  type VerifyResult,
} from '../../../lambdas/payments/types.js';
import type { TokenVerifyResult, VerifiedTokenPayment } from '../../../lambdas/payments/token/verify.js';
import type { TokenChargeResult } from '../../../lambdas/payments/token/charge.js';
import { DependencyError } from '../../../lambdas/shared/errors.js';
import { BASE_USDC, PAY_TO, decode, newBuyer, requirementFor, wirePayment } from './fixtures.js';

const TERMS: PaymentTerms = { network: 'eip155:8453', usdcAddress: BASE_USDC, payTo: PAY_TO };

/** An offer unlike the fixtures' requirement (price, resource, time-out), so anything taken from it is visible. */
const offer: Offer = {
  id: 'agent_image',
  amount: 150_000n,
  resource: 'https://api.test/agent/image',
  description: 'An image from a prompt',
  method: 'POST',
  inputSchema: { type: 'object', properties: { prompt: { type: 'string' } } },
  outputExample: { jobId: 'j1', status: 'queued' },
  mimeType: 'application/json',
  timeoutSeconds: 120,
  accepts: ['x402', 'token'],
};

const TOKEN = 'eyJhbGciOiJFUzI1NiIsInR5cCI6InBheStqd3QifQ.eyJzdWIiOiJidXllci1hZ2VudC03In0.c2lnbmF0dXJl';
const TX = `0x${'c3'.repeat(32)}`;

let wire: Record<string, any>;
let payload: PaymentPayload;
beforeAll(async () => {
  wire = await wirePayment(newBuyer(), requirementFor({ amount: '150000', maxAmountRequired: '150000', resource: offer.resource }));
  payload = decode(wire);
});

const x402Payment = (): VerifiedPayment =>
  ({
    kind: 'x402',
    payer: payload.payload.authorization.from,
    amount: 150_000n,
    network: 'eip155:8453',
    asset: BASE_USDC,
    payTo: PAY_TO,
    nonceKey: `eip155:8453:${BASE_USDC}:${payload.payload.authorization.from}:${payload.payload.authorization.nonce}`,
    payload,
    requirement: requirementFor(),
  }) as VerifiedPayment;

const tokenPayment: VerifiedTokenPayment = {
  kind: 'token',
  payer: 'buyer-agent-7',
  amount: 150_000n,
  tokenAmount: 1_000_000n,
  tokenId: 'jti-1',
  tokenType: 'pay+jwt',
  issuer: 'https://issuer.test',
  sellerId: 'svc-seller',
  expiresAt: 1_760_000_300,
  nonceKey: 'token:https://issuer.test:jti-1',
  product: 'agent_image',
  token: TOKEN,
};

/** A payment core over fake backends; every fake is a vi.fn so a test can see what it was asked. */
function core(over: { tokens?: TokenBackend | null; newReference?: () => string } = {}) {
  const terms = vi.fn(() => TERMS);
  const verifier = { verify: vi.fn(async (_p: PaymentPayload, _r: PaymentRequirement): Promise<VerifyResult> => ({ ok: true, payment: x402Payment() })) };
  const settler = {
    settle: vi.fn(async (p: VerifiedPayment, _o?: { deadline?: number }): Promise<SettleResult> => ({ ok: true, transaction: TX as `0x${string}`, network: p.network, payer: p.payer })),
  };
  const tokenBackend = {
    verifier: { verify: vi.fn(async (_t: string, _e: { amount: bigint; product?: string }): Promise<TokenVerifyResult> => ({ ok: true, payment: tokenPayment })) },
    charger: {
      charge: vi.fn(async (p: VerifiedTokenPayment): Promise<TokenChargeResult> => ({ ok: true, transaction: 'ch_1', network: 'token', payer: p.payer })),
    },
  };
  const tokens = vi.fn(() => (over.tokens === undefined ? tokenBackend : over.tokens));
  const x402 = vi.fn(() => ({ verifier, settler }));
  const deps: PaymentCoreDeps = { terms, x402, tokens, ...(over.newReference ? { newReference: over.newReference } : {}) };
  return { core: new PaymentCore(deps), terms, verifier, settler, tokens, tokenBackend, x402 };
}

const x402Header = (): PaymentHeader => ({ kind: 'x402', payload });
const tokenHeader: PaymentHeader = { kind: 'token', token: TOKEN };

function refusalOf(decision: PaymentDecision) {
  if (decision.type === 'verified') throw new Error('expected a refusal, got verified');
  return decision;
}

describe('classifyPaymentHeader', () => {
  it('no header → none', () => {
    expect(classifyPaymentHeader(undefined)).toEqual({ kind: 'none' });
  });
  it('junk → unreadable, with the length of what was sent', () => {
    expect(classifyPaymentHeader('not a payment')).toEqual({ kind: 'unreadable', length: 13 });
    expect(classifyPaymentHeader('')).toEqual({ kind: 'unreadable', length: 0 });
    expect(classifyPaymentHeader(Buffer.from('{"hello":"world"}').toString('base64')).kind).toBe('unreadable');
  });
  it('a compact JWT → token (trimmed)', () => {
    expect(classifyPaymentHeader(`  ${TOKEN} `)).toEqual({ kind: 'token', token: TOKEN });
  });
  it('a base64 x402 v2 payload → x402, decoded with the service schema (uints as bigint)', () => {
    const header = classifyPaymentHeader(encodeBase64Json(wire));
    expect(header.kind).toBe('x402');
    const decoded = (header as Extract<PaymentHeader, { kind: 'x402' }>).payload;
    expect(decoded.payload.authorization.value).toBe(150_000n);
    expect(decoded.payload.authorization.from).toBe(wire.payload.authorization.from);
    expect(decoded.payload.signature).toBe(wire.payload.signature);
  });
  it('a v1 payload (x402Version 1) is not an x402 v2 payment → unreadable', () => {
    expect(classifyPaymentHeader(encodeBase64Json({ ...wire, x402Version: 1 })).kind).toBe('unreadable');
  });
  it('truncated base64 of a payload → unreadable', () => {
    const encoded = encodeBase64Json(wire);
    expect(classifyPaymentHeader(encoded.slice(0, encoded.length / 2)).kind).toBe('unreadable');
  });
});

describe('carriesPayment', () => {
  it('is true for an x402 payload and a token, false for none and unreadable', () => {
    expect(carriesPayment({ kind: 'x402', payload: {} as PaymentPayload })).toBe(true);
    expect(carriesPayment({ kind: 'token', token: TOKEN })).toBe(true);
    expect(carriesPayment({ kind: 'none' })).toBe(false);
    expect(carriesPayment({ kind: 'unreadable', length: 3 })).toBe(false);
  });
});

describe('PaymentCore.decide → challenge (nothing attached)', () => {
  it("answers the offer's challenge with the missing-header reason, asking nothing of the backends", async () => {
    const c = core();
    const decision = await c.core.decide(offer, { kind: 'none' });
    expect(decision.type).toBe('challenge');
    const { challenge, headers } = refusalOf(decision);
    expect(headers).toEqual({});
    expect(challenge.error).toBe(REASON_MISSING);
    expect(challenge.error).toBe('PAYMENT-SIGNATURE header is required');
    expect(challenge.x402Version).toBe(2);
    expect(challenge.resource.url).toBe(offer.resource);
    expect(challenge.accepts).toHaveLength(1);
    expect(challenge.accepts[0]).toMatchObject({
      scheme: 'exact',
      network: TERMS.network,
      amount: '150000',
      maxAmountRequired: '150000',
      resource: offer.resource,
      payTo: TERMS.payTo,
      asset: TERMS.usdcAddress,
      maxTimeoutSeconds: 120,
      extra: { priceUsd: '$0.15' },
    });
    expect(c.verifier.verify).not.toHaveBeenCalled();
    expect(c.tokens).not.toHaveBeenCalled();
  });
});

describe('PaymentCore.decide → invalid', () => {
  it('unreadable header: "Payment authorization missing" with a PAYMENT-REFERENCE for support', async () => {
    const c = core({ newReference: () => 'ref-1' });
    const decision = refusalOf(await c.core.decide(offer, { kind: 'unreadable', length: 12 }));
    expect(decision).toMatchObject({ type: 'invalid', reason: REASON_UNREADABLE, headers: { 'PAYMENT-REFERENCE': 'ref-1' } });
    expect(REASON_UNREADABLE).toBe('Payment authorization missing');
    expect(decision.challenge.error).toBe('Payment authorization missing');
    expect(c.verifier.verify).not.toHaveBeenCalled();
  });

  it('unreadable header: a fresh reference by default', async () => {
    const { core: payments } = core();
    const a = refusalOf(await payments.decide(offer, { kind: 'unreadable', length: 1 }));
    const b = refusalOf(await payments.decide(offer, { kind: 'unreadable', length: 1 }));
    expect(a.headers['PAYMENT-REFERENCE']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['PAYMENT-REFERENCE']).not.toBe(b.headers['PAYMENT-REFERENCE']);
  });

  it('a token when no issuer is configured: "Agent-payment tokens are not accepted here"', async () => {
    const c = core({ tokens: null });
    const decision = refusalOf(await c.core.decide(offer, tokenHeader));
    expect(decision).toMatchObject({ type: 'invalid', reason: 'Agent-payment tokens are not accepted here' });
    expect(decision.challenge.error).toBe(REASON_TOKENS_NOT_ACCEPTED);
  });

  it('a token on an offer that does not accept tokens: refused without asking the issuer', async () => {
    const c = core();
    const decision = refusalOf(await c.core.decide({ ...offer, accepts: ['x402'] }, tokenHeader));
    expect(decision).toMatchObject({ type: 'invalid', reason: REASON_TOKENS_NOT_ACCEPTED });
    expect(c.tokenBackend.verifier.verify).not.toHaveBeenCalled();
  });

  it("a token the issuer's verifier refuses: its reason passes through", async () => {
    const c = core();
    c.tokenBackend.verifier.verify.mockResolvedValue({ ok: false, reason: 'Agent-payment token refused: expired' });
    const decision = refusalOf(await c.core.decide(offer, tokenHeader));
    expect(decision).toMatchObject({ type: 'invalid', reason: 'Agent-payment token refused: expired' });
    expect(decision.challenge.error).toBe('Agent-payment token refused: expired');
  });

  it('an x402 payload on an offer that does not accept x402: refused without verifying', async () => {
    const c = core();
    const decision = refusalOf(await c.core.decide({ ...offer, accepts: ['token'] }, x402Header()));
    expect(decision.type).toBe('invalid');
    expect(decision.challenge.error).toMatch(/x402/);
    expect(c.verifier.verify).not.toHaveBeenCalled();
  });

  it("an x402 payload the verifier refuses: its reason passes through into the offer's challenge", async () => {
    const c = core();
    c.verifier.verify.mockResolvedValue({ ok: false, reason: 'Insufficient USDC balance' });
    const decision = refusalOf(await c.core.decide(offer, x402Header()));
    expect(decision).toMatchObject({ type: 'invalid', reason: 'Insufficient USDC balance', headers: {} });
    expect(decision.challenge.error).toBe('Insufficient USDC balance');
    expect(decision.challenge.accepts[0]).toMatchObject({ amount: '150000', resource: offer.resource });
  });
});

describe('PaymentCore.decide → verified', () => {
  it('x402: the verifier receives the payload and the requirement built from the offer', async () => {
    const c = core();
    const decision = await c.core.decide(offer, x402Header());
    expect(decision).toEqual({ type: 'verified', payment: x402Payment() });
    expect(c.verifier.verify).toHaveBeenCalledTimes(1);
    const [seenPayload, requirement] = c.verifier.verify.mock.calls[0];
    expect(seenPayload).toBe(payload);
    expect(requirement).toMatchObject({
      scheme: 'exact',
      network: 'eip155:8453',
      amount: '150000',
      maxAmountRequired: '150000',
      payTo: PAY_TO,
      asset: BASE_USDC,
      maxTimeoutSeconds: 120,
      resource: offer.resource,
      description: offer.description,
    });
    expect(c.tokens).not.toHaveBeenCalled();
  });

  it("token: the issuer's verifier receives the token, the offer's price and its id", async () => {
    const c = core();
    const decision = await c.core.decide(offer, tokenHeader);
    expect(decision).toEqual({ type: 'verified', payment: tokenPayment });
    expect(c.tokenBackend.verifier.verify).toHaveBeenCalledWith(TOKEN, { amount: 150_000n, product: 'agent_image' });
    expect(c.verifier.verify).not.toHaveBeenCalled();
  });
});

describe('PaymentCore.decide: "we could not check" is never "you did not pay"', () => {
  it('a verifier that throws a DependencyError propagates it (no refusal)', async () => {
    const c = core();
    const outage = new DependencyError('RPC unreachable');
    c.verifier.verify.mockRejectedValue(outage);
    await expect(c.core.decide(offer, x402Header())).rejects.toBe(outage);
  });
  it("a token issuer's key set that cannot be fetched propagates too", async () => {
    const c = core();
    const outage = new DependencyError('JWKS unreachable');
    c.tokenBackend.verifier.verify.mockRejectedValue(outage);
    await expect(c.core.decide(offer, tokenHeader)).rejects.toBe(outage);
  });
});

describe('PaymentCore.settle → settled', () => {
  it('x402: the settler moves the money (with the deadline) and the receipt is its transaction', async () => {
    const c = core();
    const payment = x402Payment();
    const settlement = await c.core.settle(payment, { deadline: 1234 });
    expect(settlement).toEqual({
      type: 'settled',
      receipt: { success: true, transaction: TX, network: 'eip155:8453', payer: payment.payer },
    } satisfies Settlement);
    expect(c.settler.settle).toHaveBeenCalledWith(payment, { deadline: 1234 });
    expect(c.tokenBackend.charger.charge).not.toHaveBeenCalled();
  });
  it("token: the issuer charges the token and the receipt is the charge's id", async () => {
    const c = core();
    const settlement = await c.core.settle(tokenPayment);
    expect(settlement).toEqual({ type: 'settled', receipt: { success: true, transaction: 'ch_1', network: 'token', payer: 'buyer-agent-7' } });
    expect(c.tokenBackend.charger.charge).toHaveBeenCalledWith(tokenPayment);
    expect(c.settler.settle).not.toHaveBeenCalled();
  });
});

describe('PaymentCore.settle → refused (nothing moved)', () => {
  it('x402: a failure before broadcast', async () => {
    const c = core();
    c.settler.settle.mockResolvedValue({ ok: false, reason: 'authorization expired', broadcast: false });
    expect(await c.core.settle(x402Payment())).toEqual({ type: 'refused', reason: 'authorization expired' });
  });
  it('token: the issuer refused the charge', async () => {
    const c = core();
    c.tokenBackend.charger.charge.mockResolvedValue({ ok: false, reason: 'insufficient_balance', broadcast: false });
    expect(await c.core.settle(tokenPayment)).toEqual({ type: 'refused', reason: 'insufficient_balance' });
  });
  it('token: no issuer configured any more', async () => {
    const c = core({ tokens: null });
    expect(await c.core.settle(tokenPayment)).toEqual({ type: 'refused', reason: REASON_TOKENS_NOT_ACCEPTED });
  });
});

describe('PaymentCore.settle → unknown-outcome (money may have moved)', () => {
  it('x402: broadcast without a receipt', async () => {
    const c = core();
    c.settler.settle.mockResolvedValue({ ok: false, reason: 'Settlement transaction 0xt not confirmed', broadcast: true });
    expect(await c.core.settle(x402Payment())).toEqual({ type: 'unknown-outcome', reason: 'Settlement transaction 0xt not confirmed' });
  });
  it('token: the charge timed out', async () => {
    const c = core();
    c.tokenBackend.charger.charge.mockResolvedValue({ ok: false, reason: 'issuer timed out', broadcast: true });
    expect(await c.core.settle(tokenPayment)).toEqual({ type: 'unknown-outcome', reason: 'issuer timed out' });
  });
});

describe('PaymentCore.settle → refused with Retry-After, or unavailable (the settler, not the buyer)', () => {
  it('a back-pressured settler: refused, with when to retry', async () => {
    const c = core();
    c.settler.settle.mockResolvedValue({ ok: false, reason: 'busy', broadcast: false, retryAfterSeconds: 1 });
    expect(await c.core.settle(x402Payment())).toEqual({ type: 'refused', reason: 'busy', retryAfterSeconds: 1 });
  });
  it('a settler with no key able to pay gas: unavailable', async () => {
    const c = core();
    c.settler.settle.mockResolvedValue({ ok: false, reason: 'no gas', broadcast: false, unavailable: true });
    expect(await c.core.settle(x402Payment())).toEqual({ type: 'unavailable', reason: 'no gas' });
  });
});

describe('PaymentCore.refusal: the challenge is built lazily', () => {
  it('does not read the terms until .challenge is read, then builds it once', () => {
    const c = core();
    const refusal = c.core.refusal(offer, 'Insufficient USDC balance', { 'X-Test': '1' });
    expect(refusal).toMatchObject({ type: 'invalid', reason: 'Insufficient USDC balance', headers: { 'X-Test': '1' } });
    expect(c.terms).not.toHaveBeenCalled();

    const challenge = refusal.challenge;
    expect(c.terms).toHaveBeenCalledTimes(1);
    expect(challenge.error).toBe('Insufficient USDC balance');
    expect(challenge.accepts[0]).toMatchObject({ payTo: PAY_TO, amount: '150000' });
    expect(refusal.challenge).toBe(challenge);
    expect(c.terms).toHaveBeenCalledTimes(1);
  });

  it('without a reason it is the "nothing attached" challenge', () => {
    const c = core();
    const refusal = c.core.refusal(offer);
    expect(refusal.type).toBe('challenge');
    expect(c.terms).not.toHaveBeenCalled();
    expect(refusal.challenge.error).toBe(REASON_MISSING);
  });

  it("decide's refusals are lazy too", async () => {
    const c = core({ tokens: null });
    const decision = refusalOf(await c.core.decide(offer, tokenHeader));
    expect(c.terms).not.toHaveBeenCalled();
    expect(decision.challenge.error).toBe(REASON_TOKENS_NOT_ACCEPTED);
    expect(c.terms).toHaveBeenCalledTimes(1);
  });
});
