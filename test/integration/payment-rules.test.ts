/**
 * Rules of the paid request (spec: Authentication, Errors, Asynchronous mode rules, Limits, Versioning) against
 * the embedded service and its chain: one payment pays for one job, idempotency, 402/422/400/429 shapes.
 */
import { describe, expect, inject, it } from 'vitest';
import { fundFromState } from '../../bin/fund.js';
import { fetchFrom, freshBuyer, runtime, transfersFrom, usdcBalance } from '../support/buyer.js';
import { challengeOf, signedHeader } from '../support/sign.js';

// Every request of this file from its own loopback address: the probe limit (20 unpaid a minute per client, refused
// payments included) is the subject of its own tests below, not a budget the other tests share.
let sent = 0;
const nextIp = () => `127.0.12.${(sent++ % 250) + 1}`;
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetchFrom(nextIp())(`${runtime().baseUrl}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

describe('Payment challenge (402)', () => {
  it.each([
    ['/create-music', '500000', '$0.50'],
    ['/agent/video', '4990000', '$4.99'],
    ['/agent/image', '150000', '$0.15'],
  ])('%s answers 402 with every field of the payment requirement, in the body and in PAYMENT-REQUIRED', async (path, amount, priceUsd) => {
    const info = runtime();
    const response = await post(path, '');
    expect(response.status).toBe(402);
    expect(response.headers.get('service-api-version')).toBe('1');
    const body = await response.json();
    const header = JSON.parse(Buffer.from(response.headers.get('payment-required')!, 'base64').toString('utf8'));
    expect(header).toEqual(body);
    expect(body).toMatchObject({
      x402Version: 2,
      error: 'PAYMENT-SIGNATURE header is required',
      resource: { url: `${info.baseUrl}${path}` },
      extensions: expect.any(Object),
    });
    expect(body.accepts).toHaveLength(1);
    expect(body.accepts[0]).toMatchObject({
      scheme: 'exact',
      network: 'eip155:8453',
      amount,
      maxAmountRequired: amount,
      asset: info.usdcAddress,
      payTo: info.payTo,
      maxTimeoutSeconds: 300,
      resource: `${info.baseUrl}${path}`,
      description: expect.any(String),
      mimeType: 'application/json',
      docs: `${info.baseUrl}/openapi.json`,
      extra: { name: 'USD Coin', version: '2', decimals: 6, priceUsd },
    });
  });

  it('answers 402 before validating the body (an invalid body without payment is not a 422)', async () => {
    const response = await post('/agent/image', '{"prompt": 42, "aspectRatio": "7:3"}');
    expect(response.status).toBe(402);
  });

  it('answers 402 "Payment authorization missing" with a PAYMENT-REFERENCE for an unreadable header', async () => {
    const response = await post('/agent/image', '{"prompt":"x"}', { 'PAYMENT-SIGNATURE': 'not-a-payment' });
    expect(response.status).toBe(402);
    expect((await response.json()).error).toBe('Payment authorization missing');
    expect(response.headers.get('payment-reference')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a payment signed for another amount with 402 and moves no money', async () => {
    const info = runtime();
    const buyer = await freshBuyer();
    const challenge = await challengeOf(fetchFrom(nextIp()), `${info.baseUrl}/agent/image`);
    challenge.accepts[0] = { ...challenge.accepts[0], amount: '1', maxAmountRequired: '1' } as never;
    const header = await signedHeader(buyer.privateKey, challenge);
    const before = await usdcBalance(buyer.address);
    const response = await post('/agent/image', '{"prompt":"x"}', { 'PAYMENT-SIGNATURE': header });
    expect(response.status).toBe(402);
    expect((await response.json()).error).toEqual(expect.any(String));
    expect(await usdcBalance(buyer.address)).toBe(before);
  });
});

describe('Never charged: a paid request that fails validation (422)', () => {
  it('answers 422 detail[] of {loc, msg, type}, charges nothing, and the same authorization still pays a valid request', async () => {
    const info = runtime();
    const buyer = await freshBuyer();
    const challenge = await challengeOf(fetchFrom(nextIp()), `${info.baseUrl}/agent/image`);
    const header = await signedHeader(buyer.privateKey, challenge);
    const before = await usdcBalance(buyer.address);

    const bad = await post('/agent/image', JSON.stringify({ aspectRatio: '7:3', outputFormat: 'gif' }), { 'PAYMENT-SIGNATURE': header });
    expect(bad.status).toBe(422);
    const detail = (await bad.json()).detail as { loc: string[]; msg: string; type: string }[];
    expect(detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'prompt'], msg: expect.any(String), type: 'missing' },
        { loc: ['body', 'aspectRatio'], msg: expect.any(String), type: 'enum' },
        { loc: ['body', 'outputFormat'], msg: expect.any(String), type: 'enum' },
      ]),
    );
    const notJson = await post('/agent/image', '{not json', { 'PAYMENT-SIGNATURE': header });
    expect(notJson.status).toBe(422);
    const notJsonType = await post('/agent/image', '{"prompt":"a lighthouse"}', { 'PAYMENT-SIGNATURE': header, 'Content-Type': 'text/plain' });
    expect(notJsonType.status).toBe(422);
    expect((await notJsonType.json()).detail).toEqual([{ loc: ['header', 'Content-Type'], msg: 'Content-Type must be application/json', type: 'content_type' }]);
    expect(await usdcBalance(buyer.address)).toBe(before);

    const good = await post('/agent/image', '{"prompt":"a lighthouse"}', { 'PAYMENT-SIGNATURE': header });
    expect(good.status).toBe(202);
    expect(await usdcBalance(buyer.address)).toBe(before - 150000n);
  });
});

describe('the chain reads run beside the ledger lock, and still decide first', () => {
  it('an unfunded payer: 402 with the balance reason before its invalid body is judged; the lock released, the same authorization pays once funded', async () => {
    const info = runtime();
    const buyer = await freshBuyer(0n);
    const challenge = await challengeOf(fetchFrom(nextIp()), `${info.baseUrl}/agent/image`);
    const header = await signedHeader(buyer.privateKey, challenge);
    const reason = `Insufficient USDC balance: ${buyer.address} holds 0, needs 150000`;

    const invalid = await post('/agent/image', '{"prompt": 42}', { 'PAYMENT-SIGNATURE': header });
    expect(invalid.status).toBe(402);
    expect((await invalid.json()).error).toBe(reason);
    const valid = await post('/agent/image', '{"prompt":"a lighthouse"}', { 'PAYMENT-SIGNATURE': header });
    expect(valid.status).toBe(402);
    expect((await valid.json()).error).toBe(reason);

    await fundFromState(inject('stateDir'), buyer.address, 150_000n);
    const paid = await post('/agent/image', '{"prompt":"a lighthouse"}', { 'PAYMENT-SIGNATURE': header });
    expect(paid.status).toBe(202);
    expect(await transfersFrom(buyer.address)).toEqual([{ to: info.payTo, value: 150_000n }]);
  });
});

describe('One authorization pays for at most one job', () => {
  it('concurrent replays of one payment create exactly one job and one transfer', async () => {
    const info = runtime();
    const buyer = await freshBuyer();
    const challenge = await challengeOf(fetchFrom(nextIp()), `${info.baseUrl}/agent/image`);
    const header = await signedHeader(buyer.privateKey, challenge);
    const before = await usdcBalance(buyer.address);

    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => post('/agent/image', JSON.stringify({ prompt: `replay ${i}` }), { 'PAYMENT-SIGNATURE': header })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([202, 402, 402, 402, 402, 402]);
    expect(await usdcBalance(buyer.address)).toBe(before - 150000n);

    const later = await post('/agent/image', '{"prompt":"again"}', { 'PAYMENT-SIGNATURE': header });
    expect(later.status).toBe(402);
    expect(await usdcBalance(buyer.address)).toBe(before - 150000n);
    expect(await transfersFrom(buyer.address)).toEqual([{ to: info.payTo, value: 150000n }]);
  });
});

describe('Settlement under load: 16 concurrent buyers', () => {
  it('each pays once, all 16 settle (202 with a receipt), and each buyer is charged exactly the price', async () => {
    const info = runtime();
    // Funded one after another: the minter is one account (parallel mints race for its nonce); the payments are not.
    const buyers: Awaited<ReturnType<typeof freshBuyer>>[] = [];
    for (let i = 0; i < 16; i++) buyers.push(await freshBuyer());
    // One probe (its own address, so it does not use up this file's probe quota); every buyer signs its terms.
    const challenge = await challengeOf(fetchFrom('127.0.0.77'), `${info.baseUrl}/agent/image`);
    const headers = await Promise.all(buyers.map((b) => signedHeader(b.privateKey, challenge)));
    const responses = await Promise.all(headers.map((h, i) => post('/agent/image', JSON.stringify({ prompt: `load ${i}` }), { 'PAYMENT-SIGNATURE': h })));
    expect(responses.map((r) => r.status)).toEqual(Array(16).fill(202));
    for (const r of responses) expect(r.headers.get('payment-response')).toBeTruthy();
    const receipts = responses.map((r) => JSON.parse(Buffer.from(r.headers.get('payment-response')!, 'base64').toString()).transaction);
    expect(new Set(receipts).size).toBe(16);
    for (const b of buyers) expect(await transfersFrom(b.address)).toEqual([{ to: info.payTo, value: 150000n }]);
  });
});

describe('X-Idempotency-Key', () => {
  it('concurrent identical requests with one key are charged once and all get the original response', async () => {
    const info = runtime();
    const buyer = await freshBuyer();
    const key = `race-${Date.now()}`;
    const body = JSON.stringify({ prompt: 'a quiet harbour' });
    const before = await usdcBalance(buyer.address);
    // Each request carries its own fresh authorization, as independent client retries would.
    const headers = await Promise.all(
      Array.from({ length: 4 }, async () => signedHeader(buyer.privateKey, await challengeOf(fetchFrom(nextIp()), `${info.baseUrl}/agent/image`))),
    );
    const responses = await Promise.all(headers.map((h) => post('/agent/image', body, { 'PAYMENT-SIGNATURE': h, 'X-Idempotency-Key': key })));
    expect(responses.map((r) => r.status)).toEqual([202, 202, 202, 202]);
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(new Set(bodies.map((b) => b.jobId)).size).toBe(1);
    expect(await usdcBalance(buyer.address)).toBe(before - 150000n);

    // A later resend by the payer (with a newly signed authorization, as a client retry makes) returns the original
    // response uncharged; an unpaid resend is answered as unpaid: the paid answer is the payer's alone.
    const challenge = await challengeOf(fetchFrom(nextIp()), `${info.baseUrl}/agent/image`);
    const resend = await post('/agent/image', body, { 'PAYMENT-SIGNATURE': await signedHeader(buyer.privateKey, challenge), 'X-Idempotency-Key': key });
    expect(resend.status).toBe(202);
    expect((await resend.json()).jobId).toBe(bodies[0].jobId);
    const unpaid = await post('/agent/image', body, { 'X-Idempotency-Key': key });
    expect(unpaid.status).toBe(402);
    expect(unpaid.headers.get('payment-response')).toBeNull();
    expect(await usdcBalance(buyer.address)).toBe(before - 150000n);
  });

  it('refuses the same key with a different body, and keys over 200 characters; unpaid, the 402 comes first', async () => {
    const info = runtime();
    const key = `mismatch-${Date.now()}`;
    const buyer = await freshBuyer();
    const challenge = await challengeOf(fetchFrom(nextIp()), `${info.baseUrl}/agent/image`);
    const sign = () => signedHeader(buyer.privateKey, challenge); // a fresh authorization (nonce) each time
    const first = await post('/agent/image', '{"prompt":"one"}', { 'PAYMENT-SIGNATURE': await sign(), 'X-Idempotency-Key': key });
    expect(first.status).toBe(202);
    const before = await usdcBalance(buyer.address);

    const second = await post('/agent/image', '{"prompt":"two"}', { 'PAYMENT-SIGNATURE': await sign(), 'X-Idempotency-Key': key });
    expect(second.status).toBe(422);
    expect((await second.json()).detail[0]).toMatchObject({ loc: ['header', 'X-Idempotency-Key'], type: 'idempotency_key_reused' });
    const long = await post('/agent/image', '{"prompt":"x"}', { 'PAYMENT-SIGNATURE': await sign(), 'X-Idempotency-Key': 'k'.repeat(201) });
    expect(long.status).toBe(422);
    expect((await long.json()).detail[0]).toMatchObject({ loc: ['header', 'X-Idempotency-Key'], type: 'string_too_long' });
    expect(await usdcBalance(buyer.address)).toBe(before);

    // A request without payment answers 402 whatever else is wrong with it (asynchronous mode rule 6).
    for (const [body, k] of [['{"prompt":"two"}', key], ['{"prompt":"x"}', 'k'.repeat(201)]]) {
      const unpaid = await post('/agent/image', body, { 'X-Idempotency-Key': k });
      expect(unpaid.status).toBe(402);
    }
  });
});

describe('Versioning: Service-API-Version', () => {
  it('answers 400 unsupported_api_version for another version, and carries the header on every response', async () => {
    const info = runtime();
    const bad = await post('/agent/image', '{}', { 'Service-API-Version': '2' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('service-api-version')).toBe('1');
    const body = await bad.json();
    expect(body.code).toBe('unsupported_api_version');
    expect(body.detail).toContain('2');
    expect(body.detail).toContain('1');
    const ok = await post('/agent/image', '{}', { 'Service-API-Version': '1' });
    expect(ok.status).toBe(402);
    for (const path of ['/api/songs/x', '/agent/video/x', '/agent/image/x']) {
      const r = await fetchFrom(nextIp())(`${info.baseUrl}${path}`);
      expect(r.headers.get('service-api-version')).toBe('1');
    }
  });
});

describe('Unpaid probe rate limit (20 per 60 s)', () => {
  it('counts unpaid probes with RateLimit headers and answers 429 rate_limited with Retry-After past the quota', async () => {
    const probe = fetchFrom('127.0.0.99');
    const url = `${runtime().baseUrl}/agent/video`;
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 45; i++) {
      last = await probe(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get('ratelimit-policy')).toBe('"probe";q=20;w=60');
        expect(last.headers.get('ratelimit')).toMatch(/^"probe";r=\d+;t=\d+$/);
        expect(last.headers.get('x-ratelimit-limit')).toBe('20');
        expect(Number(last.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      }
      if (last.status === 429) break;
    }
    // A window boundary may fall inside the loop, so the 429 comes after 20 to 21 counted probes.
    expect(statuses.filter((s) => s === 402).length).toBeGreaterThanOrEqual(20);
    expect(last!.status).toBe(429);
    expect(await last!.json()).toEqual({ detail: expect.any(String), code: 'rate_limited' });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('counts a request whose PAYMENT-SIGNATURE is not a payment at all as unpaid', async () => {
    const probe = fetchFrom('127.0.0.98');
    const url = `${runtime().baseUrl}/agent/image`;
    let last: Response | undefined;
    for (let i = 0; i < 45; i++) {
      last = await probe(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'PAYMENT-SIGNATURE': 'junk' }, body: '{}' });
      if (i === 0) {
        expect(last.status).toBe(402);
        expect((await last.json()).error).toBe('Payment authorization missing');
        expect(last.headers.get('ratelimit-policy')).toBe('"probe";q=20;w=60');
      }
      if (last.status === 429) break;
    }
    expect(last!.status).toBe(429);
  });
});
