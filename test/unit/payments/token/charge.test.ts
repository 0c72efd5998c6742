import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELLER_KEY_HEADER, TokenCharger } from '../../../../lambdas/payments/token/charge.js';
import { resetTokenConfigCache } from '../../../../lambdas/payments/token/config.js';

const CHARGE_URL = 'https://issuer.test/api/v1/tokens/charge';
const SELLER_KEY = 'sk_test_0123456789abcdef';
const payment = { token: 'h.p.s', amount: 500_000n, tokenId: 'tok-1', payer: 'buyer-agent-7' };

interface Recorded {
  url: string;
  body: any;
  headers: Record<string, string>;
}

function stubFetch(answer: { status?: number; body?: unknown; text?: string; error?: Error }) {
  const seen: Recorded[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    seen.push({ url, body: JSON.parse(String(init.body)), headers: init.headers as Record<string, string> });
    if (answer.error) throw answer.error;
    return new Response(answer.text ?? JSON.stringify(answer.body ?? {}), { status: answer.status ?? 200 });
  }) as unknown as typeof fetch;
  return { fetchFn, seen };
}

function charger(fetchFn: typeof fetch, loadKey: () => Promise<string> = async () => SELLER_KEY) {
  return new TokenCharger({ chargeUrl: CHARGE_URL, fetch: fetchFn, loadKey, timeoutMs: 1_000 });
}

const networkError = (code: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });

describe('TokenCharger: a charge that went through', () => {
  it('posts the token and the price in dollars with the seller key, and returns the charge id as the receipt', async () => {
    const { fetchFn, seen } = stubFetch({ body: { chargeId: 'ch_42', amountCharged: '0.500000' } });
    const result = await charger(fetchFn).charge(payment);
    expect(result).toEqual({ ok: true, transaction: 'ch_42', network: 'token', payer: 'buyer-agent-7' });
    expect(seen).toEqual([
      {
        url: CHARGE_URL,
        body: { token: 'h.p.s', chargeAmount: '0.500000' },
        headers: expect.objectContaining({ [SELLER_KEY_HEADER]: SELLER_KEY, 'Content-Type': 'application/json' }),
      },
    ]);
  });

  it('still counts a 2xx without a charge id as charged, with the token id as the reference', async () => {
    const result = await charger(stubFetch({ status: 201, text: 'ok' }).fetchFn).charge(payment);
    expect(result).toEqual({ ok: true, transaction: 'charge:tok-1', network: 'token', payer: 'buyer-agent-7' });
  });
});

describe('TokenCharger: refusals (nothing was charged, broadcast false)', () => {
  it.each([
    [402, { code: 'insufficient_balance', message: 'buyer holds 0.10 USD' }, 'Token charge refused by the issuer (insufficient_balance): buyer holds 0.10 USD; nothing was charged'],
    [409, { code: 'token_already_charged' }, 'Token charge refused by the issuer (token_already_charged); nothing was charged'],
    [401, { code: 'invalid_token', message: 'token expired' }, 'Token charge refused by the issuer (invalid_token): token expired; nothing was charged'],
    [400, 'not json', 'Token charge refused by the issuer (http_400); nothing was charged'],
  ])('answers %i as a refusal', async (status, body, reason) => {
    const stub = typeof body === 'string' ? { status, text: body } : { status, body };
    expect(await charger(stubFetch(stub).fetchFn).charge(payment)).toEqual({ ok: false, reason, broadcast: false });
  });

  it('reports an unreachable issuer as nothing charged', async () => {
    const result = await charger(stubFetch({ error: networkError('ECONNREFUSED') }).fetchFn).charge(payment);
    expect(result).toEqual({ ok: false, reason: 'Token issuer unreachable (ECONNREFUSED); nothing was charged', broadcast: false });
  });

  it('refuses without calling the issuer when the seller key cannot be loaded, and never shows a key', async () => {
    const { fetchFn, seen } = stubFetch({ body: { chargeId: 'x' } });
    const result = await charger(fetchFn, async () => {
      throw Object.assign(new Error(`bad key ${SELLER_KEY}`), { name: 'SellerKeyError' });
    }).charge(payment);
    expect(result).toEqual({
      ok: false,
      reason: 'Token charging is unavailable (seller key not loaded: SellerKeyError); nothing was charged',
      broadcast: false,
    });
    expect(seen).toHaveLength(0);
  });
});

describe('TokenCharger: unknown outcomes (money may have moved, broadcast true)', () => {
  const support = /the charge may have gone through\. Do not retry with this token: contact support with token id tok-1$/;

  it('treats a 5xx as unknown', async () => {
    const result = await charger(stubFetch({ status: 502, body: { code: 'bad_gateway' } }).fetchFn).charge(payment);
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/^Token charge failed: the issuer answered 502; /), broadcast: true });
    expect(result.ok || result.reason).toMatch(support);
  });

  it('treats a timeout as unknown', async () => {
    const timeout = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
    const result = await charger(stubFetch({ error: timeout }).fetchFn).charge(payment);
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/^Token charge timed out after 1000 ms; /), broadcast: true });
    expect(result.ok || result.reason).toMatch(support);
  });

  it('treats a connection dropped mid-request as unknown', async () => {
    const result = await charger(stubFetch({ error: networkError('ECONNRESET') }).fetchFn).charge(payment);
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/^Token charge failed in transit \(ECONNRESET\); /), broadcast: true });
  });
});

describe('TokenCharger: seller key from a file (the embedded default)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'token-charge-'));
    resetTokenConfigCache();
  });
  afterAll(async () => {
    resetTokenConfigCache();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads TOKEN_SELLER_KEY_FILE and sends its trimmed content', async () => {
    const file = path.join(dir, 'seller.key');
    await writeFile(file, `${SELLER_KEY}\n`, { mode: 0o600 });
    const { fetchFn, seen } = stubFetch({ body: { chargeId: 'ch_1' } });
    const result = await new TokenCharger({ chargeUrl: CHARGE_URL, fetch: fetchFn, sellerKey: { sellerKeyFile: file } }).charge(payment);
    expect(result.ok).toBe(true);
    expect(seen[0].headers[SELLER_KEY_HEADER]).toBe(SELLER_KEY);
  });

  it('refuses with broadcast false when the file is missing, without naming the path to the buyer', async () => {
    const result = await new TokenCharger({
      chargeUrl: CHARGE_URL,
      fetch: stubFetch({}).fetchFn,
      sellerKey: { sellerKeyFile: path.join(dir, 'absent.key') },
    }).charge(payment);
    expect(result).toEqual({ ok: false, reason: expect.not.stringContaining(dir), broadcast: false });
  });
});
