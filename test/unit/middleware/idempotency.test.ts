/**
 * X-Idempotency-Key (lambdas/middleware/idempotency.ts) in the paid chain's order: frame ▸ idempotency ▸ payment.
 * Spec: "Request headers of the paid endpoints" (up to 200 characters; same key and same body within the cache
 * window returns the original response without charging again), "Limits" (X-Idempotency-Key length at most 200 on
 * paid POSTs), "Asynchronous mode rules" 6 (a request without payment answers 402 even when otherwise invalid),
 * "Errors" (a 5XX is retried reusing the same key; never charged twice).
 */
import { describe, expect, it } from 'vitest';
import { frame } from '../../../lambdas/middleware/http-frame.js';
import { idempotency, type IdempotencyPort } from '../../../lambdas/middleware/idempotency.js';
import { payment, paymentHeaderOf } from '../../../lambdas/middleware/payment.js';
import type { HttpMiddleware, HttpRequest } from '../../../lambdas/middleware/types.js';
import type { PaymentCore } from '../../../lambdas/payments/core/server.js';
import type { PaymentHeader } from '../../../lambdas/payments/core/header.js';
import type { Offer, PaymentDecision } from '../../../lambdas/payments/core/types.js';
import type { VerifiedPayment } from '../../../lambdas/payments/types.js';
import { DependencyError, type StoredResponse } from '../../../lambdas/shared/errors.js';
import type { BeginResult, IdempotencyRecord } from '../../../lambdas/store/idempotency.js';
import { GENERATION } from '../../../lambdas/surfaces/surface.js';
import { bodyOf, chain, deferred, httpEvent, JUNK_HEADER, x402Header, x402Wire, type TestHandler } from '../../support/events.js';
import { encodeBase64Json } from '../../../lambdas/shared/http.js';

/** The store's contract in memory: begin takes a free key, complete keeps the answer, release frees a busy key. */
class MemoryIdempotency implements IdempotencyPort {
  readonly records = new Map<string, IdempotencyRecord>();
  readonly calls: string[] = [];
  failComplete = false;
  async get(pk: string) {
    this.calls.push(`get ${pk}`);
    const record = this.records.get(pk);
    return record && structuredClone(record);
  }
  async begin(pk: string, bodyHash: string): Promise<BeginResult> {
    this.calls.push(`begin ${pk}`);
    const existing = this.records.get(pk);
    if (existing) return { taken: false, existing: structuredClone(existing) };
    this.records.set(pk, { pk, bodyHash, status: 'in_progress', lockExpiresAt: 0, expiresAt: 0 });
    return { taken: true };
  }
  async complete(pk: string, response: StoredResponse) {
    this.calls.push(`complete ${pk}`);
    if (this.failComplete) throw new DependencyError('DynamoDB UpdateItem failed: ECONNRESET');
    const record = this.records.get(pk)!;
    this.records.set(pk, { ...record, status: 'completed', response: structuredClone(response) });
  }
  async release(pk: string) {
    this.calls.push(`release ${pk}`);
    if (this.records.get(pk)?.status === 'in_progress') this.records.delete(pk);
  }
}

const OFFER = { id: 'create_music' } as Offer;
const VERIFIED = { kind: 'x402', nonceKey: 'eip155:8453#n1', amount: 500_000n } as VerifiedPayment;

/** A payment core that verifies every x402 payload and refuses the rest, as the real one decides. */
function fakeCore(): PaymentCore {
  const decide = async (_offer: Offer, header: PaymentHeader): Promise<PaymentDecision> => {
    const challenge = { x402Version: 2 as const, error: '', resource: { url: 'https://api.test/create-music' }, accepts: [], extensions: {} };
    if (header.kind === 'x402') return { type: 'verified', payment: VERIFIED };
    if (header.kind === 'unreadable') {
      return { type: 'invalid', reason: 'Payment authorization missing', challenge: { ...challenge, error: 'Payment authorization missing' }, headers: { 'PAYMENT-REFERENCE': 'ref-1' } };
    }
    return { type: 'challenge', challenge: { ...challenge, error: 'PAYMENT-SIGNATURE header is required' }, headers: {} };
  };
  return { decide } as unknown as PaymentCore;
}

/**
 * The paying party as these fake payloads state it (their signatures are not real; the real party function recovers
 * the signer: test/unit/payments/party.test.ts). `from` names the payer.
 */
const claimedParty = async (request: HttpRequest) => {
  const h = paymentHeaderOf(request);
  return h.kind === 'x402' ? `x402:${h.payload.payload.authorization.from.toLowerCase()}` : h.kind === 'token' ? 'token:t' : undefined;
};
const PARTY = `x402:0x${'22'.repeat(20)}`;
/** A payload of another payer. */
const otherPayer = (nonceByte: string) => {
  const wire = x402Wire(nonceByte) as { payload: { authorization: { from: string } } };
  wire.payload.authorization.from = `0x${'33'.repeat(20)}`;
  return encodeBase64Json(wire);
};

let jobs = 0;
const accepted: TestHandler = () => ({
  statusCode: 202,
  headers: { 'Content-Type': 'application/json', 'PAYMENT-RESPONSE': 'receipt' },
  body: JSON.stringify({ jobId: `job-${++jobs}` }),
});

function setup(options: { handler?: TestHandler; waitMs?: number; pollMs?: number; scope?: string; store?: MemoryIdempotency; extra?: HttpMiddleware[] } = {}) {
  const store = options.store ?? new MemoryIdempotency();
  const c = chain(
    [
      ...frame(GENERATION),
      ...(options.extra ?? []),
      idempotency({ store, scope: options.scope ?? 'create_music', party: claimedParty, waitMs: options.waitMs ?? 50, pollMs: options.pollMs ?? 5 }),
      payment({ offer: () => OFFER, core: fakeCore }),
    ],
    options.handler ?? accepted,
  );
  return { store, c };
}

const BODY = JSON.stringify({ prompt: 'dreamy lo-fi beats' });
const paid = (key: string, body = BODY, signature = x402Header()) =>
  httpEvent({ headers: { 'content-type': 'application/json', 'payment-signature': signature, 'x-idempotency-key': key }, body });
const unpaid = (key: string, body = BODY, extra: Record<string, string> = {}) =>
  httpEvent({ headers: { 'content-type': 'application/json', 'x-idempotency-key': key, ...extra }, body });

describe('Limits: an X-Idempotency-Key longer than 200 characters on a paid request answers 422', () => {
  it('refuses 201 characters with loc [header, X-Idempotency-Key] and type string_too_long, touching no store', async () => {
    const { store, c } = setup();
    const result = await c.invoke(paid('k'.repeat(201)));
    expect(result.statusCode).toBe(422);
    expect(bodyOf(result)).toEqual({ detail: [{ loc: ['header', 'X-Idempotency-Key'], msg: expect.any(String), type: 'string_too_long' }] });
    expect(result.headers['Service-API-Version']).toBe('1');
    expect(c.calls).toBe(0);
    expect(store.calls).toEqual([]);
  });

  it('accepts exactly 200 characters', async () => {
    const { store, c } = setup();
    const key = 'k'.repeat(200);
    const result = await c.invoke(paid(key));
    expect(result.statusCode).toBe(202);
    expect(store.records.get(`create_music#${PARTY}#${key}`)?.status).toBe('completed');
  });

  it('refuses an empty key on a paid request as string_too_short', async () => {
    const { c } = setup();
    const result = await c.invoke(paid(''));
    expect(result.statusCode).toBe(422);
    expect(bodyOf(result).detail[0]).toMatchObject({ loc: ['header', 'X-Idempotency-Key'], type: 'string_too_short' });
  });
});

describe('Asynchronous mode rule 6: without a payment the 402 comes first, whatever the key', () => {
  it('answers 402 (not 422) to a too-long key without PAYMENT-SIGNATURE', async () => {
    const { store, c } = setup();
    const result = await c.invoke(unpaid('k'.repeat(201)));
    expect(result.statusCode).toBe(402);
    expect(bodyOf(result).error).toBe('PAYMENT-SIGNATURE header is required');
    expect(store.calls).toEqual([]);
  });

  it('answers 402 with PAYMENT-REFERENCE (not 422) to a too-long key with a junk PAYMENT-SIGNATURE', async () => {
    const { c } = setup();
    const result = await c.invoke(unpaid('k'.repeat(201), BODY, { 'payment-signature': JUNK_HEADER }));
    expect(result.statusCode).toBe(402);
    expect(result.headers['PAYMENT-REFERENCE']).toBe('ref-1');
  });

  it('an unpaid request with a valid key takes no key (a later paid request with it proceeds)', async () => {
    const { store, c } = setup();
    expect((await c.invoke(unpaid('key-1'))).statusCode).toBe(402);
    expect(store.records.size).toBe(0);
    expect(store.calls.some((call) => call.startsWith('begin'))).toBe(false);
    expect((await c.invoke(paid('key-1'))).statusCode).toBe(202);
  });
});

describe('Request headers: same key and same body after a 2xx replays the original response without charging again', () => {
  it('answers the stored status, headers and body and does not run the handler (or the payment) again', async () => {
    const { c } = setup();
    const first = await c.invoke(paid('key-1'));
    expect(first.statusCode).toBe(202);
    const second = await c.invoke(paid('key-1'));
    expect(c.calls).toBe(1);
    expect(second.statusCode).toBe(202);
    expect(second.body).toBe(first.body);
    expect(second.headers).toEqual(first.headers);
    expect(second.headers['PAYMENT-RESPONSE']).toBe('receipt');
    expect(second.headers['Service-API-Version']).toBe('1');
  });

  it('replays when the payer resends with a newly signed authorization: it is not charged again', async () => {
    const { c } = setup();
    const first = await c.invoke(paid('key-1'));
    const resignedResend = await c.invoke(paid('key-1', BODY, x402Header('cd')));
    expect(c.calls).toBe(1);
    expect(resignedResend.body).toBe(first.body);
  });

  it('never replays to anyone but the payer: no payment, junk, or another payer', async () => {
    const { c } = setup();
    const first = await c.invoke(paid('key-1'));
    const unpaidResend = await c.invoke(unpaid('key-1'));
    expect(unpaidResend.statusCode).toBe(402);
    expect(unpaidResend.body).not.toContain('job-');
    expect(unpaidResend.headers['PAYMENT-RESPONSE']).toBeUndefined();
    const junkResend = await c.invoke(paid('key-1', BODY, 'garbage'));
    expect(junkResend.statusCode).toBe(402);
    const stranger = await c.invoke(paid('key-1', BODY, otherPayer('ef')));
    expect(stranger.statusCode).toBe(202);
    expect(stranger.body).not.toBe(first.body); // their own purchase, charged to them
    expect(c.calls).toBe(2);
  });

  it('keys are scoped per route: the same key on another endpoint is a new request', async () => {
    const store = new MemoryIdempotency();
    const music = setup({ store, scope: 'create_music' });
    const image = setup({ store, scope: 'agent_image' });
    const a = await music.c.invoke(paid('key-1'));
    const b = await image.c.invoke(paid('key-1'));
    expect(image.c.calls).toBe(1);
    expect(b.body).not.toBe(a.body);
  });
});

describe('Request headers: the same key with another body is refused', () => {
  it('answers 422 idempotency_key_reused on loc [header, X-Idempotency-Key] after a completed request', async () => {
    const { c } = setup();
    await c.invoke(paid('key-1'));
    const result = await c.invoke(paid('key-1', JSON.stringify({ prompt: 'another song' })));
    expect(result.statusCode).toBe(422);
    expect(bodyOf(result)).toEqual({ detail: [{ loc: ['header', 'X-Idempotency-Key'], msg: expect.any(String), type: 'idempotency_key_reused' }] });
    expect(c.calls).toBe(1);
  });

  it('answers 422 idempotency_key_reused while the first request is still in progress', async () => {
    const gate = deferred();
    const { c } = setup({ handler: async (...args) => (await gate.promise, accepted(...args)) });
    const first = c.invoke(paid('key-1'));
    await new Promise((r) => setTimeout(r, 5));
    const second = await c.invoke(paid('key-1', JSON.stringify({ prompt: 'another song' })));
    expect(second.statusCode).toBe(422);
    expect(bodyOf(second).detail[0].type).toBe('idempotency_key_reused');
    gate.resolve();
    expect((await first).statusCode).toBe(202);
  });
});

describe('Errors: a non-2xx answer releases the key, so the retry with the same key proceeds', () => {
  it('releases on a non-2xx answer of the handler, and the retry runs the handler again', async () => {
    let fail = true;
    const { store, c } = setup({
      handler: (...args) => (fail ? { statusCode: 502, headers: {}, body: '{"detail":"upstream"}' } : accepted(...args)),
    });
    expect((await c.invoke(paid('key-1'))).statusCode).toBe(502);
    expect(store.calls).toContain(`release create_music#${PARTY}#key-1`);
    expect(store.records.has(`create_music#${PARTY}#key-1`)).toBe(false);
    fail = false;
    expect((await c.invoke(paid('key-1'))).statusCode).toBe(202);
    expect(c.calls).toBe(2);
  });

  it('releases when the handler throws (503), and the retry runs again', async () => {
    let fail = true;
    const { store, c } = setup({
      handler: (...args) => {
        if (fail) throw new DependencyError('chain down');
        return accepted(...args);
      },
    });
    const result = await c.invoke(paid('key-1'));
    expect(result.statusCode).toBe(503);
    expect(store.records.has(`create_music#${PARTY}#key-1`)).toBe(false);
    fail = false;
    expect((await c.invoke(paid('key-1'))).statusCode).toBe(202);
  });

  it('releases when the payment is refused after the key was taken (a 402)', async () => {
    const refusing = (): PaymentCore =>
      ({
        decide: async (): Promise<PaymentDecision> => ({
          type: 'invalid',
          reason: 'insufficient funds',
          challenge: { x402Version: 2, error: 'insufficient funds', resource: { url: 'u' }, accepts: [], extensions: {} },
          headers: {},
        }),
      }) as unknown as PaymentCore;
    const store = new MemoryIdempotency();
    const c = chain([...frame(GENERATION), idempotency({ store, scope: 'create_music', party: claimedParty }), payment({ offer: () => OFFER, core: refusing })]);
    const result = await c.invoke(paid('key-1'));
    expect(result.statusCode).toBe(402);
    expect(store.calls).toEqual([`get create_music#${PARTY}#key-1`, `begin create_music#${PARTY}#key-1`, `release create_music#${PARTY}#key-1`]);
    expect(store.records.size).toBe(0);
  });
});

describe('Request headers: a 2xx answer completes the key with the response', () => {
  it('stores status, headers (with the request-wide ones) and body', async () => {
    const addHeaders: HttpMiddleware = { name: 'h', before: (request) => void (request.internal.responseHeaders = { 'X-Extra': 'kept' }) };
    const { store, c } = setup({ extra: [addHeaders] });
    const result = await c.invoke(paid('key-1'));
    const record = store.records.get(`create_music#${PARTY}#key-1`)!;
    expect(record.status).toBe('completed');
    expect(record.bodyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(record.response).toEqual({
      statusCode: 202,
      headers: { 'Content-Type': 'application/json', 'PAYMENT-RESPONSE': 'receipt', 'X-Extra': 'kept' },
      body: result.body,
    });
    expect(store.calls).not.toContain(`release create_music#${PARTY}#key-1`);
  });
});

describe('Errors: a store failure while recording a 2xx does not turn the paid answer into an error', () => {
  it('still answers the 202 when complete() throws', async () => {
    const store = new MemoryIdempotency();
    store.failComplete = true;
    const { c } = setup({ store });
    const result = await c.invoke(paid('key-1'));
    expect(store.calls).toContain(`complete create_music#${PARTY}#key-1`);
    expect(result.statusCode).toBe(202);
    expect(bodyOf(result)).toEqual({ jobId: expect.any(String) });
    expect(result.headers['PAYMENT-RESPONSE']).toBe('receipt');
  });
});

describe('Request headers: two requests racing with the same key and body are charged once', () => {
  it('the duplicate waits, then answers 409 idempotency_in_progress with Retry-After while the first is still running', async () => {
    const gate = deferred();
    const { store, c } = setup({ waitMs: 40, pollMs: 5, handler: async (...args) => (await gate.promise, accepted(...args)) });
    const first = c.invoke(paid('key-1'));
    await new Promise((r) => setTimeout(r, 5));
    const started = Date.now();
    const second = await c.invoke(paid('key-1'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
    expect(second.statusCode).toBe(409);
    expect(second.headers['Retry-After']).toBe('2');
    expect(bodyOf(second)).toEqual({ detail: expect.any(String), code: 'idempotency_in_progress' });
    expect(store.calls.filter((call) => call.startsWith('begin')).length).toBeGreaterThan(2);
    gate.resolve();
    expect((await first).statusCode).toBe(202);
    expect(c.calls).toBe(1);
    // The 409 released nothing: the first request's key is completed, not lost.
    expect(store.records.get(`create_music#${PARTY}#key-1`)?.status).toBe('completed');
  });

  it('the duplicate that is still waiting when the first completes replays its answer', async () => {
    const gate = deferred();
    const { c } = setup({ waitMs: 1_000, pollMs: 5, handler: async (...args) => (await gate.promise, accepted(...args)) });
    const first = c.invoke(paid('key-1'));
    await new Promise((r) => setTimeout(r, 5));
    const second = c.invoke(paid('key-1'));
    await new Promise((r) => setTimeout(r, 20));
    gate.resolve();
    const [a, b] = await Promise.all([first, second]);
    expect(a.statusCode).toBe(202);
    expect(b.statusCode).toBe(202);
    expect(b.body).toBe(a.body);
    expect(c.calls).toBe(1);
  });
});

describe('x402 payment-identifier: the payload’s id is the key when there is no X-Idempotency-Key', () => {
  const ID = 'pay_0123456789abcdef0123456789abcdef';
  /** A payload naming `id`, optionally another price or payer. */
  const identified = (nonceByte: string, id = ID, edit: (wire: any) => void = () => {}) => {
    const wire = x402Wire(nonceByte) as any;
    wire.extensions = { 'payment-identifier': { info: { required: false, id }, schema: { type: 'object' } } };
    edit(wire);
    return encodeBase64Json(wire);
  };
  const withId = (signature: string, body = BODY, headers: Record<string, string> = {}) =>
    httpEvent({ headers: { 'content-type': 'application/json', 'payment-signature': signature, ...headers }, body });

  it('a re-signed payload with the same id replays the first answer under its own namespace', async () => {
    const { store, c } = setup();
    const first = await c.invoke(withId(identified('01')));
    const retry = await c.invoke(withId(identified('02')));
    expect(c.calls).toBe(1);
    expect(retry.body).toBe(first.body);
    expect([...store.records.keys()]).toEqual([`create_music#${PARTY}#pid:${ID}`]);
  });

  it('the same id with another body, or another price or payTo in the accepted terms, is 409 payment_identifier_conflict', async () => {
    const { c } = setup();
    await c.invoke(withId(identified('01')));
    for (const conflicting of [
      withId(identified('02'), JSON.stringify({ prompt: 'another song' })),
      withId(identified('03', ID, (w) => (w.accepted.amount = '400000'))),
      withId(identified('04', ID, (w) => (w.accepted.payTo = `0x${'44'.repeat(20)}`))),
    ]) {
      const result = await c.invoke(conflicting);
      expect(result.statusCode).toBe(409);
      expect(bodyOf(result)).toEqual({ detail: expect.any(String), code: 'payment_identifier_conflict' });
    }
    expect(c.calls).toBe(1);
  });

  it('a payload whose asset and payTo differ only in letter case is the same request', async () => {
    const { c } = setup();
    await c.invoke(withId(identified('01')));
    const retry = await c.invoke(withId(identified('02', ID, (w) => (w.accepted.asset = w.accepted.asset.toLowerCase()))));
    expect(retry.statusCode).toBe(202);
    expect(c.calls).toBe(1);
  });

  it('X-Idempotency-Key wins when both are sent: the id is not recorded', async () => {
    const { store, c } = setup();
    await c.invoke(withId(identified('01'), BODY, { 'x-idempotency-key': 'k-1' }));
    expect([...store.records.keys()]).toEqual([`create_music#${PARTY}#k-1`]);
  });

  it('another payer with the same id buys their own; a declaration without an id is no key', async () => {
    const { store, c } = setup();
    await c.invoke(withId(identified('01')));
    const stranger = await c.invoke(withId(identified('02', ID, (w) => (w.payload.authorization.from = `0x${'33'.repeat(20)}`))));
    expect(stranger.statusCode).toBe(202);
    const echoed = await c.invoke(withId(identified('03', ID, (w) => delete w.extensions['payment-identifier'].info.id)));
    expect(echoed.statusCode).toBe(202);
    expect(c.calls).toBe(3);
    expect(store.records.size).toBe(2);
  });

  it.each([['short', 'pay_123'], ['too long', `pay_${'a'.repeat(125)}`], ['a character outside the pattern', 'pay_0123456789abcdef.0123']])(
    'an id that is %s is a 422 at the id, before any store or payment',
    async (_case, id) => {
      const { store, c } = setup();
      const result = await c.invoke(withId(identified('01', id)));
      expect(result.statusCode).toBe(422);
      expect(bodyOf(result).detail[0]).toMatchObject({ loc: ['header', 'PAYMENT-SIGNATURE', 'extensions', 'payment-identifier', 'info', 'id'], type: 'payment_identifier_invalid' });
      expect(store.calls).toEqual([]);
      expect(c.calls).toBe(0);
    },
  );
});
