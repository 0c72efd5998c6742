/**
 * The unpaid probe rate limit (lambdas/middleware/rate-limit.ts) behind the generation frame. Spec, "Limits": unpaid
 * requests on the generation surface, quota 20 per 60-second window (`RateLimit-Policy` policy `probe`, q=20, w=60);
 * counted responses carry RateLimit-Policy, RateLimit and X-RateLimit-*; a 429 has `code` = `rate_limited` and
 * always Retry-After. "Paid" means the PAYMENT-SIGNATURE reads as an x402 payload or an agent-payment token.
 */
import { describe, expect, it } from 'vitest';
import { frame } from '../../../lambdas/middleware/http-frame.js';
import { probeRateLimit, type RateWindowCounter } from '../../../lambdas/middleware/rate-limit.js';
import { GENERATION } from '../../../lambdas/surfaces/surface.js';
import { bodyOf, chain, headerOf, httpEvent, JUNK_HEADER, TOKEN_HEADER, x402Header } from '../../support/events.js';

/** A fixed-window counter in memory, as the DynamoDB store counts: one count per client, policy and window. */
class MemoryCounter implements RateWindowCounter {
  readonly counts = new Map<string, number>();
  readonly hits: { client: string; policy: string; windowStart: number; windowSeconds: number }[] = [];
  async hit(client: string, policy: string, windowStart: number, windowSeconds: number): Promise<number> {
    this.hits.push({ client, policy, windowStart, windowSeconds });
    const key = `${policy}#${client}#${windowStart}`;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count;
  }
  async peek(client: string, policy: string, windowStart: number): Promise<number> {
    return this.counts.get(`${policy}#${client}#${windowStart}`) ?? 0;
  }
}

// 1_800_000_000 is a multiple of 60: the window is [1_800_000_000, 1_800_000_060) and 45 s are left at +15 s.
const WINDOW_START = 1_800_000_000;
const NOW_MS = (WINDOW_START + 15) * 1000;

function setup(now: () => number = () => NOW_MS) {
  const counter = new MemoryCounter();
  const c = chain([...frame(GENERATION), probeRateLimit({ counter, now })]);
  return { counter, c };
}

const RATE_HEADERS = ['RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

describe('Limits: unpaid requests are counted, 20 per 60-second window, and the counted responses say so', () => {
  it('counts a request without PAYMENT-SIGNATURE against its client and window, with the IETF and X- headers', async () => {
    const { counter, c } = setup();
    const result = await c.invoke(httpEvent({ sourceIp: '198.51.100.1' }));
    expect(result.statusCode).toBe(200);
    expect(counter.hits).toEqual([{ client: '198.51.100.1', policy: 'probe', windowStart: WINDOW_START, windowSeconds: 60 }]);
    expect(result.headers).toMatchObject({
      'RateLimit-Policy': '"probe";q=20;w=60',
      RateLimit: '"probe";r=19;t=45',
      'X-RateLimit-Limit': '20',
      'X-RateLimit-Remaining': '19',
      'X-RateLimit-Reset': String(WINDOW_START + 60),
      'Service-API-Version': '1',
    });
  });

  it('the remaining count goes down with each request and the 20th is still served', async () => {
    const { c } = setup();
    let last;
    for (let i = 1; i <= 20; i++) {
      last = await c.invoke(httpEvent());
      expect(last.statusCode).toBe(200);
      expect(last.headers['X-RateLimit-Remaining']).toBe(String(20 - i));
    }
    expect(last!.headers.RateLimit).toBe('"probe";r=0;t=45');
    expect(c.calls).toBe(20);
  });
});

describe('Limits: the 21st unpaid request in the window answers 429 rate_limited with Retry-After', () => {
  it('refuses it without running the handler, with Retry-After = seconds until the window frees, and the rate headers', async () => {
    const { c } = setup();
    for (let i = 0; i < 20; i++) await c.invoke(httpEvent());
    const result = await c.invoke(httpEvent());
    expect(result.statusCode).toBe(429);
    expect(bodyOf(result)).toEqual({ detail: expect.any(String), code: 'rate_limited' });
    expect(result.headers['Retry-After']).toBe('45');
    expect(result.headers).toMatchObject({
      'RateLimit-Policy': '"probe";q=20;w=60',
      RateLimit: '"probe";r=0;t=45',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(WINDOW_START + 60),
      'Service-API-Version': '1',
    });
    expect(c.calls).toBe(20);
  });

  it('Retry-After is at least 1 at the very end of a window', async () => {
    const { c } = setup(() => (WINDOW_START + 59) * 1000 + 999);
    for (let i = 0; i < 20; i++) await c.invoke(httpEvent());
    const result = await c.invoke(httpEvent());
    expect(result.statusCode).toBe(429);
    expect(result.headers['Retry-After']).toBe('1');
  });

  it('counts per client: another client is still served', async () => {
    const { c } = setup();
    for (let i = 0; i < 21; i++) await c.invoke(httpEvent({ sourceIp: '198.51.100.1' }));
    const other = await c.invoke(httpEvent({ sourceIp: '198.51.100.2' }));
    expect(other.statusCode).toBe(200);
    expect(other.headers['X-RateLimit-Remaining']).toBe('19');
  });

  it('a new window serves again', async () => {
    let now = NOW_MS;
    const { c } = setup(() => now);
    for (let i = 0; i < 21; i++) await c.invoke(httpEvent());
    now += 60_000;
    const result = await c.invoke(httpEvent());
    expect(result.statusCode).toBe(200);
    expect(result.headers['X-RateLimit-Reset']).toBe(String(WINDOW_START + 120));
  });
});

describe('Limits: a request carrying a payment (x402 payload or agent-payment token) is not counted', () => {
  it.each([
    ['an x402 v2 payload', x402Header()],
    ['an agent-payment token', TOKEN_HEADER],
  ])('does not count %s and adds no rate headers; past the quota it is not verified but answered 429', async (_what, value) => {
    const { counter, c } = setup();
    const served = await c.invoke(httpEvent({ headers: { 'payment-signature': value } }));
    expect(served.statusCode).toBe(200);
    expect(counter.hits.length).toBe(0);
    for (const name of RATE_HEADERS) expect(headerOf(served, name)).toBeUndefined();
    // A client whose unpaid requests filled the window gets no more verification work done for it (defect 3).
    for (let i = 0; i < 21; i++) await c.invoke(httpEvent());
    const hitsBefore = counter.hits.length;
    const limited = await c.invoke(httpEvent({ headers: { 'payment-signature': value } }));
    expect(limited.statusCode).toBe(429);
    expect(headerOf(limited, 'Retry-After')).toBeDefined();
    expect(counter.hits.length).toBe(hitsBefore);
  });
});

describe('Limits: a PAYMENT-SIGNATURE that reads as no payment is unpaid, and counted', () => {
  it.each([
    ['junk', JUNK_HEADER],
    ['base64 JSON that is not an x402 v2 payload', Buffer.from(JSON.stringify({ x402Version: 1, payload: {} })).toString('base64')],
    ['an empty value', ''],
  ])('counts %s', async (_what, value) => {
    const { counter, c } = setup();
    const result = await c.invoke(httpEvent({ headers: { 'payment-signature': value } }));
    expect(counter.hits.length).toBe(1);
    expect(result.headers['X-RateLimit-Remaining']).toBe('19');
  });

  it('junk headers run into the 429 like requests without any', async () => {
    const { c } = setup();
    for (let i = 0; i < 20; i++) await c.invoke(httpEvent({ headers: { 'payment-signature': JUNK_HEADER } }));
    const result = await c.invoke(httpEvent({ headers: { 'payment-signature': JUNK_HEADER } }));
    expect(result.statusCode).toBe(429);
    expect(bodyOf(result).code).toBe('rate_limited');
  });
});

describe('A refused payment is an unpaid request', () => {
  /** The payment core's stand-in: refuses every payment with 402, as it refuses one from an unfunded key. */
  const refuseAll = {
    name: 'refuse',
    before: async () => {
      const { PaymentRequiredError } = await import('../../../lambdas/shared/errors.js');
      throw new PaymentRequiredError({ error: 'Insufficient funds' });
    },
  };

  it('counts each refused payment against the client, and past the quota answers 429 without verifying again', async () => {
    const counter = new MemoryCounter();
    let verified = 0;
    const counting = { name: 'count', before: async () => void verified++ };
    const c = chain([...frame(GENERATION), probeRateLimit({ counter, now: () => NOW_MS }), counting, refuseAll]);
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await c.invoke(httpEvent({ sourceIp: '198.51.100.9', headers: { 'payment-signature': x402Header() } }))).statusCode);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(402));
    expect(statuses.slice(20)).toEqual([429, 429]);
    // The 21st and 22nd were refused before any verification work.
    expect(verified).toBe(20);
  });

  it('a paid request of a client within quota is not counted', async () => {
    const counter = new MemoryCounter();
    const c = chain([...frame(GENERATION), probeRateLimit({ counter, now: () => NOW_MS })]);
    const result = await c.invoke(httpEvent({ headers: { 'payment-signature': TOKEN_HEADER } }));
    expect(result.statusCode).toBe(200);
    expect(counter.hits).toEqual([]);
  });
});
