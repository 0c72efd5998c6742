import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteKeySet, TokenVerifier } from '../../../../lambdas/payments/token/verify.js';
import { PaymentBackendError } from '../../../../lambdas/payments/verify.js';
import { claims, ISSUER, keySetOf, newIssuerKey, NOW, PRICE, SELLER, sign, signHs256, unsigned, type IssuerKey } from './fixtures.js';

let key: IssuerKey;
let verifier: TokenVerifier;

beforeAll(async () => {
  key = await newIssuerKey();
  verifier = new TokenVerifier({ config: { issuer: ISSUER, sellerId: SELLER }, keySet: keySetOf(key), now: () => NOW });
});

async function refusal(token: string, amount = PRICE): Promise<string> {
  const result = await verifier.verify(token, { amount });
  if (result.ok) throw new Error('expected a refusal');
  return result.reason;
}

describe('TokenVerifier', () => {
  it('accepts a signed token that covers the price and describes the payment to lock and charge', async () => {
    const token = await sign(key);
    const result = await verifier.verify(token, { amount: PRICE, product: 'create_music' });
    expect(result).toEqual({
      ok: true,
      payment: {
        kind: 'token',
        payer: 'buyer-agent-7',
        amount: PRICE,
        tokenAmount: 1_000_000n,
        tokenId: 'b9821893-7699-4d24-af06-803a6a16476b',
        tokenType: 'pay+jwt',
        issuer: ISSUER,
        sellerId: SELLER,
        expiresAt: NOW + 300,
        nonceKey: `token:${ISSUER}:b9821893-7699-4d24-af06-803a6a16476b`,
        product: 'create_music',
        token,
      },
    });
  });

  it('accepts a kya-pay+jwt token', async () => {
    const result = await verifier.verify(await sign(key, claims(), { typ: 'kya-pay+JWT' }), { amount: PRICE });
    expect(result).toMatchObject({ ok: true, payment: { tokenType: 'kya-pay+jwt' } });
  });

  it('refuses a forged token: the right kid, signed with another key', async () => {
    const forger = await newIssuerKey(key.kid);
    expect(await refusal(await sign(forger))).toBe(
      "Agent-payment token refused: signature does not verify against the issuer's key set (forged or altered token)",
    );
  });

  it('refuses an altered token: a signed token whose payload was swapped', async () => {
    const [header, , signature] = (await sign(key)).split('.');
    const richer = Buffer.from(JSON.stringify(claims({ amount: '1000.000000', value: undefined }))).toString('base64url');
    expect(await refusal(`${header}.${richer}.${signature}`)).toMatch(/signature does not verify/);
  });

  it('refuses a token whose kid is not in the key set', async () => {
    expect(await refusal(await sign(key, claims(), { kid: 'unknown-kid' }))).toBe(
      'Agent-payment token refused: no key in the issuer\'s key set matches kid "unknown-kid"',
    );
  });

  it('refuses HS256 (even keyed with the public key) and alg none before looking up a key', async () => {
    let lookups = 0;
    const counting = new TokenVerifier({
      config: { issuer: ISSUER, sellerId: SELLER },
      keySet: async (...args) => (lookups++, keySetOf(key)(...args)),
      now: () => NOW,
    });
    const hs = await signHs256(new TextEncoder().encode(JSON.stringify(key.publicJwk)));
    for (const token of [hs, unsigned()]) {
      const result = await counting.verify(token, { amount: PRICE });
      expect(result).toEqual({ ok: false, reason: expect.stringMatching(/header alg "(HS256|none)" is not allowed; tokens must be signed with ES256/) });
    }
    expect(lookups).toBe(0);
  });

  it('refuses a plain JWT typ', async () => {
    expect(await refusal(await sign(key, claims(), { typ: 'JWT' }))).toMatch(/header typ "JWT" is not an agent-payment token type/);
  });

  it('refuses an expired token with the same reason the claim rules give', async () => {
    expect(await refusal(await sign(key, claims({ iat: NOW - 600, exp: NOW - 60 })))).toBe(
      `Agent-payment token refused: token expired at ${new Date((NOW - 60) * 1000).toISOString()}`,
    );
  });

  it('refuses a token not yet valid', async () => {
    expect(await refusal(await sign(key, claims({ nbf: NOW + 600 })))).toMatch(/token is not valid before/);
  });

  it('refuses a token for another seller, from another issuer, or below the price', async () => {
    expect(await refusal(await sign(key, claims({ ssi: 'svc-other', aud: 'svc-other' })))).toMatch(/token is for seller service "svc-other"/);
    expect(await refusal(await sign(key, claims({ iss: 'https://other.test' })))).toMatch(/issuer "https:\/\/other.test" is not the accepted issuer/);
    expect(await refusal(await sign(key), 4_990_000n)).toBe('Agent-payment token refused: amount 1.000000 USD does not cover the price 4.990000 USD');
  });

  it('refuses what is not a JWT at all', async () => {
    expect(await refusal('not-a-token')).toMatch(/not a compact JWT/);
    expect(await refusal('bm90anNvbg.e30.c2ln')).toMatch(/the JWT header is not base64url-encoded JSON/);
  });

  it('throws PaymentBackendError (not a refusal) when the key set cannot be fetched', async () => {
    const failing = new TokenVerifier({
      config: { issuer: ISSUER, sellerId: SELLER },
      keySet: async () => {
        throw new TypeError('fetch failed');
      },
      now: () => NOW,
    });
    await expect(failing.verify(await sign(key), { amount: PRICE })).rejects.toMatchObject({
      name: 'PaymentBackendError',
      message: expect.stringMatching(/Could not read the token issuer's key set: TypeError: fetch failed/),
    });
  });

  it('needs a key set source', () => {
    expect(() => new TokenVerifier({ config: { issuer: ISSUER, sellerId: SELLER } })).toThrow(/needs a keySet or config.jwksUrl/);
  });
});

describe('remote key set (production source)', () => {
  let server: http.Server;
  let base: string;
  let fetches = 0;
  let failing = false;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      fetches++;
      if (failing || req.url !== '/jwks.json') return void res.writeHead(503).end();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: [key.publicJwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches the key set once and reuses it for later tokens, one set per URL for the process', async () => {
    const jwksUrl = `${base}/jwks.json`;
    expect(remoteKeySet(jwksUrl)).toBe(remoteKeySet(jwksUrl));
    const remote = new TokenVerifier({ config: { issuer: ISSUER, sellerId: SELLER, jwksUrl }, now: () => NOW });
    const before = fetches;
    expect((await remote.verify(await sign(key), { amount: PRICE })).ok).toBe(true);
    expect((await remote.verify(await sign(key, claims({ jti: 'second' })), { amount: PRICE })).ok).toBe(true);
    expect(fetches - before).toBe(1);
  });

  it('answers PaymentBackendError when the issuer serves an error instead of its key set', async () => {
    failing = true;
    const remote = new TokenVerifier({ config: { issuer: ISSUER, sellerId: SELLER, jwksUrl: `${base}/other-jwks.json` }, now: () => NOW });
    await expect(remote.verify(await sign(key), { amount: PRICE })).rejects.toBeInstanceOf(PaymentBackendError);
    failing = false;
  });
});
