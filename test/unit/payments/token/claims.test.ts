import { describe, expect, it } from 'vitest';
import {
  baseUnitsToUsd,
  checkClaims,
  checkHeader,
  looksLikeJwt,
  usdToBaseUnits,
  type ClaimRules,
} from '../../../../lambdas/payments/token/claims.js';
import { encodeBase64Json } from '../../../../lambdas/payments/types.js';
import { claims, ISSUER, NOW, PRICE, SELLER, unsigned } from './fixtures.js';

const rules: ClaimRules = { issuer: ISSUER, sellerId: SELLER, price: PRICE, now: NOW };

function reasonOf(payload: unknown, overrides: Partial<ClaimRules> = {}): string {
  const decision = checkClaims(payload, { ...rules, ...overrides });
  if (decision.ok) throw new Error('expected a refusal');
  return decision.reason;
}

describe('looksLikeJwt: the middleware branches on the header value before decoding x402', () => {
  it('is true for three base64url segments, including an unsigned token with an empty signature', () => {
    expect(looksLikeJwt('eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln')).toBe(true);
    expect(looksLikeJwt(` ${unsigned()} `)).toBe(true);
  });

  it('is false for an x402 payload, a missing header and other shapes', () => {
    expect(looksLikeJwt(encodeBase64Json({ x402Version: 2, payload: { signature: '0xab' } }))).toBe(false);
    expect(looksLikeJwt(undefined)).toBe(false);
    expect(looksLikeJwt('')).toBe(false);
    expect(looksLikeJwt('a.b')).toBe(false);
    expect(looksLikeJwt('a.b.c.d')).toBe(false);
    expect(looksLikeJwt('a+b.c/d.e=')).toBe(false);
    expect(looksLikeJwt(`${'a'.repeat(9000)}.b.c`)).toBe(false);
  });
});

describe('checkHeader: typ pay+jwt or kya-pay+jwt, alg ES256 only', () => {
  it('accepts both token types whatever their case', () => {
    expect(checkHeader({ typ: 'pay+jwt', alg: 'ES256' })).toEqual({ ok: true, typ: 'pay+jwt' });
    expect(checkHeader({ typ: 'PAY+JWT', alg: 'ES256' })).toEqual({ ok: true, typ: 'pay+jwt' });
    expect(checkHeader({ typ: 'Kya-Pay+JWT', alg: 'ES256' })).toEqual({ ok: true, typ: 'kya-pay+jwt' });
  });

  it.each([['JWT'], ['kya+jwt'], [undefined]])('refuses typ %s', (typ) => {
    const decision = checkHeader({ typ, alg: 'ES256' });
    expect(decision).toEqual({ ok: false, reason: expect.stringMatching(/header typ .* is not an agent-payment token type \(pay\+jwt, kya-pay\+jwt\)/) });
  });

  it.each([['HS256'], ['none'], ['RS256'], ['ES384'], ['es256'], [undefined]])('refuses alg %s', (alg) => {
    const decision = checkHeader({ typ: 'pay+jwt', alg });
    expect(decision).toEqual({ ok: false, reason: expect.stringMatching(/header alg .* is not allowed; tokens must be signed with ES256/) });
  });
});

describe('checkClaims', () => {
  it('accepts a token for this seller whose amount covers the price, converting dollars exactly', () => {
    const decision = checkClaims(claims(), rules);
    expect(decision).toMatchObject({ ok: true, tokenAmount: 1_000_000n, claims: { sub: 'buyer-agent-7' } });
  });

  it('accepts an amount exactly equal to the price, and a token without the optional value claim', () => {
    expect(checkClaims(claims({ amount: '0.5', value: undefined }), rules)).toMatchObject({ ok: true, tokenAmount: PRICE });
  });

  it('refuses an amount below the price, naming both in dollars', () => {
    expect(reasonOf(claims({ amount: '0.499999', value: '499999' }))).toBe(
      'Agent-payment token refused: amount 0.499999 USD does not cover the price 0.500000 USD',
    );
  });

  it('refuses a token issued for another seller service', () => {
    expect(reasonOf(claims({ ssi: 'someone-else' }))).toBe(
      `Agent-payment token refused: token is for seller service "someone-else", not this service ("${SELLER}")`,
    );
  });

  it('refuses an audience that is not this seller, and accepts an audience list that includes it', () => {
    expect(reasonOf(claims({ aud: 'other-account' }))).toMatch(/audience "other-account" does not include this seller/);
    expect(checkClaims(claims({ aud: ['x', 'seller-account'] }), { ...rules, audience: 'seller-account' }).ok).toBe(true);
  });

  it('refuses another issuer', () => {
    expect(reasonOf(claims({ iss: 'https://evil.test' }))).toBe(
      `Agent-payment token refused: issuer "https://evil.test" is not the accepted issuer "${ISSUER}"`,
    );
  });

  it('refuses an expired token, allowing 30 seconds of clock skew', () => {
    expect(checkClaims(claims({ exp: NOW - 29 }), rules).ok).toBe(true);
    expect(reasonOf(claims({ exp: NOW - 30 }))).toBe(`Agent-payment token refused: token expired at ${new Date((NOW - 30) * 1000).toISOString()}`);
  });

  it('refuses a token issued in the future or not yet valid, beyond the skew', () => {
    expect(reasonOf(claims({ iat: NOW + 31 }))).toMatch(/token is issued in the future/);
    expect(reasonOf(claims({ nbf: NOW + 31 }))).toMatch(/token is not valid before/);
    expect(checkClaims(claims({ iat: NOW + 30, nbf: NOW + 30 }), rules).ok).toBe(true);
  });

  it('refuses exp not later than iat', () => {
    expect(reasonOf(claims({ iat: NOW, exp: NOW }))).toMatch(/exp \d+ is not later than iat \d+/);
  });

  it.each([['jti'], ['sub'], ['exp'], ['iat'], ['amount'], ['ssi']])('refuses a token without %s', (claim) => {
    expect(reasonOf(claims({ [claim]: undefined }))).toMatch(new RegExp(`claim ${claim} is missing or malformed`));
  });

  it('refuses a jti that could not be a safe lock key', () => {
    expect(reasonOf(claims({ jti: 'a:b' }))).toMatch(/claim jti is missing or malformed/);
  });

  it('refuses a currency other than USD and an amount that is not an exact dollar string', () => {
    expect(reasonOf(claims({ cur: 'EUR' }))).toMatch(/currency "EUR" is not USD/);
    for (const amount of ['1e3', '0.1234567', '-1', '1,00', ' 1']) {
      expect(reasonOf(claims({ amount, value: undefined }))).toMatch(/is not a US dollar amount with at most 6 decimals/);
    }
  });

  it('refuses a value claim that disagrees with the amount claim', () => {
    expect(reasonOf(claims({ amount: '1.000000', value: '100000000' }))).toMatch(/value "100000000" does not equal amount 1.000000 USD in base units \(1000000\)/);
  });
});

describe('amount conversion is exact (bigint base units, never floats)', () => {
  it('converts dollar strings to base units and back', () => {
    expect(usdToBaseUnits('0.1')).toBe(100_000n);
    expect(usdToBaseUnits('4.99')).toBe(4_990_000n);
    expect(usdToBaseUnits('123456789.000001')).toBe(123_456_789_000_001n);
    expect(usdToBaseUnits('0.0000001')).toBeUndefined();
    expect(baseUnitsToUsd(150_000n)).toBe('0.150000');
    expect(baseUnitsToUsd(4_990_000n)).toBe('4.990000');
  });
});
