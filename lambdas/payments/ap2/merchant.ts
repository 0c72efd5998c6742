/**
 * We are AP2 v0.2's merchant (and, since x402 settles, its payment processor). This module holds what the merchant
 * signs: the checkout JWT of a priced live run (ES256 with the merchant key; the agent, the price and a single-use
 * nonce) and the checkout receipts (Success or Error). Its configuration, read once:
 *
 *   AP2_MERCHANT_KEY_SECRET_ID  the merchant's P-256 private JWK in Secrets Manager (JSON; AWS and the embedded default)
 *   AP2_MERCHANT_KEY_FILE       the same JWK in a file (one machine; wins over the secret)
 *   AP2_TRUSTED_ISSUERS         JSON key set {"keys":[…]} of the mandate issuers we trust (public P-256 JWKs with kid);
 *                               unset: none, so every mandate is refused as invalid_credential
 */
import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, compactVerify, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import { loadSecret } from '../../shared/secrets.js';
import { DependencyError } from '../../shared/errors.js';
import { b64urlSha256, type Ap2ErrorCode } from './sd-jwt.js';

/** Who we are to AP2: the key-binding `aud` of every mandate presented to us, the checkout's and receipt's `iss`. */
export const MERCHANT = { id: 'paycall-agent-studio', name: 'Paycall agent studio' } as const;
export const CHECKOUT_LIFETIME_SECONDS = 1800;
/** USDC base units per US cent: we map 1 USDC = 1 USD (its peg), so a price is payable only in whole cents. */
export const BASE_UNITS_PER_CENT = 10_000n;

export const AP2_ENV = {
  keySecretId: 'AP2_MERCHANT_KEY_SECRET_ID',
  keyFile: 'AP2_MERCHANT_KEY_FILE',
  trustedIssuers: 'AP2_TRUSTED_ISSUERS',
} as const;

export class MerchantKeyError extends DependencyError {
  override name = 'MerchantKeyError';
}

interface MerchantKey {
  privateKey: CryptoKey | Uint8Array;
  publicJwk: JWK;
  kid: string;
}

async function parseKey(raw: string, where: string): Promise<MerchantKey> {
  let jwk: JWK;
  try {
    jwk = JSON.parse(raw.trim()) as JWK;
  } catch {
    throw new MerchantKeyError(`AP2 merchant key from ${where} is not a JSON JWK`);
  }
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string') throw new MerchantKeyError(`AP2 merchant key from ${where} is not a P-256 private JWK`);
  const { d: _d, ...publicJwk } = jwk;
  const kid = jwk.kid ?? (await calculateJwkThumbprint(publicJwk));
  return { privateKey: await importJWK(jwk, 'ES256'), publicJwk: { ...publicJwk, kid }, kid };
}

async function merchantKey(): Promise<MerchantKey> {
  return await loadSecret<Promise<MerchantKey>>(
    { file: process.env[AP2_ENV.keyFile] || undefined, secretId: process.env[AP2_ENV.keySecretId] || undefined },
    { describe: 'AP2 merchant key', parse: parseKey, jsonMember: undefined, error: MerchantKeyError, configureHint: `set ${AP2_ENV.keySecretId}` },
  );
}

/**
 * The merchant's public key set (JWKS, RFC 7517), published at `GET /.well-known/jwks.json` of the agent studio: what
 * verifies our checkout JWTs and checkout receipts (their `kid` names the key).
 */
export async function merchantPublicJwks(): Promise<{ keys: JWK[] }> {
  const { publicJwk } = await merchantKey();
  return { keys: [{ ...publicJwk, alg: 'ES256', use: 'sig' }] };
}

let trusted: Map<string, JWK> | undefined;
/** The issuers' public keys by kid (AP2_TRUSTED_ISSUERS), read once. */
export function trustedIssuer(kid: string): JWK | undefined {
  if (!trusted) {
    trusted = new Map();
    const text = process.env[AP2_ENV.trustedIssuers];
    if (text) {
      const set = JSON.parse(text) as { keys?: JWK[] };
      for (const key of set.keys ?? []) if (key.kid && key.kty === 'EC' && key.crv === 'P-256') trusted.set(key.kid, { kty: key.kty, crv: key.crv, x: key.x, y: key.y });
    }
  }
  return trusted.get(kid);
}

/** Tests only. */
export function resetMerchantConfig(): void {
  trusted = undefined;
}

export interface Sale {
  agent: { slug: string; name: string; price: bigint };
  /** Our x402 payTo address: the payee a payment mandate must name. */
  payTo: string;
}

export interface CheckoutClaims {
  iss: string;
  iat: number;
  exp: number;
  nonce: string;
  agent: string;
  merchant: { id: string; name: string };
  payee: { id: string; name: string };
  line_items: { id: string; item: { id: string; title: string }; quantity: number }[];
  amount: { amount: number; currency: 'USD' };
  /** The price in USDC base units (decimal string): what x402 settles. */
  price_usdc: string;
}

/** What a client is offered: the checkout JWT and everything it needs to build its mandates. */
export interface OfferedCheckout {
  checkout_jwt: string;
  checkout_hash: string;
  nonce: string;
  aud: string;
  merchant: { id: string; name: string };
  payee: { id: string; name: string };
  amount: { amount: number; currency: 'USD' };
  expires_at: number;
}

/** Price in ISO-4217 minor units of USD; undefined when the price is not a whole number of cents. */
export function priceInCents(price: bigint): number | undefined {
  return price % BASE_UNITS_PER_CENT === 0n ? Number(price / BASE_UNITS_PER_CENT) : undefined;
}

/** A merchant-signed checkout for one priced live run of `sale.agent` (nothing is stored: its nonce is used once). */
export async function issueCheckout(sale: Sale, now: number, nonce = randomBytes(16).toString('base64url')): Promise<OfferedCheckout> {
  const cents = priceInCents(sale.agent.price);
  if (cents === undefined || cents <= 0) throw new Error(`agent ${sale.agent.slug}'s price is not a positive whole number of cents`);
  const key = await merchantKey();
  const claims: CheckoutClaims = {
    iss: MERCHANT.id,
    iat: now,
    exp: now + CHECKOUT_LIFETIME_SECONDS,
    nonce,
    agent: sale.agent.slug,
    merchant: { ...MERCHANT },
    payee: { id: sale.payTo, name: MERCHANT.name },
    line_items: [{ id: sale.agent.slug, item: { id: sale.agent.slug, title: sale.agent.name }, quantity: 1 }],
    amount: { amount: cents, currency: 'USD' },
    price_usdc: sale.agent.price.toString(),
  };
  const jwt = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: key.kid }).sign(key.privateKey);
  return { checkout_jwt: jwt, checkout_hash: b64urlSha256(jwt), nonce, aud: MERCHANT.id, merchant: { ...MERCHANT }, payee: claims.payee, amount: claims.amount, expires_at: claims.exp };
}

/** The claims of a checkout JWT we signed, or undefined when its signature is not ours (its times are checked by the caller). */
export async function ourCheckout(jwt: string): Promise<CheckoutClaims | undefined> {
  const key = await merchantKey();
  try {
    const { payload } = await compactVerify(jwt, await importJWK(key.publicJwk, 'ES256'), { algorithms: ['ES256'] });
    return JSON.parse(new TextDecoder().decode(payload)) as CheckoutClaims;
  } catch {
    return undefined;
  }
}

export type CheckoutReceipt = { status: 'Success'; order_id: string } | { status: 'Error'; error: Ap2ErrorCode; error_description: string };

/** A checkout receipt (AP2 checkout_receipt.json) as a merchant-signed JWT; `reference` = the hash of the closed mandate presented. */
export async function signReceipt(receipt: CheckoutReceipt, reference: string, now: number): Promise<string> {
  const key = await merchantKey();
  return new SignJWT({ ...receipt, iss: MERCHANT.id, iat: now, reference }).setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: key.kid }).sign(key.privateKey);
}

/** The merchant's public key (tests and, later, a published key set). */
export async function merchantPublicJwk(): Promise<JWK> {
  return (await merchantKey()).publicJwk;
}
