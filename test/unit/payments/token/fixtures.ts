/** An ES256 issuer key and token builders for the agent-payment token unit tests. */
import { base64url, createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { TokenClaims } from '../../../../lambdas/payments/token/claims.js';

export const ISSUER = 'https://issuer.test';
export const SELLER = 'svc-music-seller';
export const NOW = 1_760_000_000;
export const PRICE = 500_000n; // create_music, $0.50

export interface IssuerKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function newIssuerKey(kid = 'key-1'): Promise<IssuerKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

export function keySetOf(...keys: IssuerKey[]) {
  return createLocalJWKSet({ keys: keys.map((k) => k.publicJwk) });
}

/** A token that pays $1.00 to SELLER, issued a minute before NOW and valid for five more. */
export function claims(overrides: Partial<Record<keyof TokenClaims, unknown>> = {}): Record<string, unknown> {
  return {
    iss: ISSUER,
    sub: 'buyer-agent-7',
    aud: SELLER,
    ssi: SELLER,
    jti: 'b9821893-7699-4d24-af06-803a6a16476b',
    iat: NOW - 60,
    exp: NOW + 300,
    env: 'sandbox',
    amount: '1.000000',
    cur: 'USD',
    value: '1000000',
    ...overrides,
  };
}

export function sign(
  key: IssuerKey,
  payload: Record<string, unknown> = claims(),
  header: { typ?: string; kid?: string } = {},
): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'ES256', kid: header.kid ?? key.kid, typ: header.typ ?? 'pay+jwt' })
    .sign(key.privateKey);
}

export function signHs256(secret: Uint8Array, payload: Record<string, unknown> = claims(), kid = 'key-1'): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid, typ: 'pay+jwt' }).sign(secret);
}

export function unsigned(payload: Record<string, unknown> = claims(), typ = 'pay+jwt'): string {
  const part = (value: object) => base64url.encode(JSON.stringify(value));
  return `${part({ alg: 'none', typ })}.${part(payload)}.`;
}
