/**
 * Agent-payment tokens: the format we accept in PAYMENT-SIGNATURE in place of an x402 payload, and the rules that
 * decide whether one pays for a call. Modelled on Skyfire's KYAPay `pay` / `kya+pay` tokens, keeping their claim
 * names so a real issuer's token reads the same here.
 *
 * Header (JWS compact serialisation, three base64url segments):
 *   { "alg": "ES256", "kid": "<key id in the issuer's JWKS>", "typ": "pay+jwt" | "kya-pay+jwt" }
 *   typ is compared case-insensitively (Skyfire writes `pay+JWT`); alg must be ES256 — HS256, RS256, none and
 *   every other algorithm are refused before any key is looked up.
 *
 * Claims:
 *   iss    the issuer; must equal TOKEN_ISSUER
 *   sub    the buyer's account id at the issuer; becomes the payer
 *   aud    the seller's account id at the issuer (string or array); must contain TOKEN_AUDIENCE, which defaults
 *          to TOKEN_SELLER_ID
 *   ssi    the seller service id the token was created for; must equal TOKEN_SELLER_ID
 *   jti    unique token id, 1-128 of [A-Za-z0-9._-]; one use per (iss, jti), locked by the service
 *   iat    issued at (Unix seconds); not in the future beyond the clock skew
 *   nbf    optional; not in the future beyond the clock skew
 *   exp    expiry (Unix seconds); later than iat, and not passed beyond the clock skew
 *   amount the token's spending limit in US dollars as a decimal string with at most 6 decimals ("0.500000");
 *          USDC is 1:1 with USD, so "0.5" is exactly 500000 base units — converted without floating point
 *   cur    "USD"
 *   value  optional: the same limit in USDC base units ("500000"); when present it must agree with `amount`
 *   env, ver, btg, spr, sps and any other member are carried but not checked (the issuer and its key set already
 *   separate sandbox from production).
 *
 * A token pays for a call when its limit covers the product's price; the charge is for the price only, and the
 * token is spent by that one call whatever its limit (one use per token id).
 */
import * as z from '../../shared/zod.js';

export const TOKEN_TYPES = ['pay+jwt', 'kya-pay+jwt'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];
export const TOKEN_ALGORITHM = 'ES256';
/** Seconds of disagreement between our clock and the issuer's that we tolerate on iat, nbf and exp. */
export const CLOCK_SKEW_SECONDS = 30;
export const USD_DECIMALS = 6;
const MAX_TOKEN_CHARS = 8192;

export type Refusal = { ok: false; reason: string };
export type Decision<T> = ({ ok: true } & T) | Refusal;

function refuse(reason: string): Refusal {
  return { ok: false, reason: `Agent-payment token refused: ${reason}` };
}

/**
 * True when the header value is shaped like a compact JWS (header.payload.signature, base64url). An empty third
 * segment is allowed so an unsigned (`alg: none`) token is routed to the token path and refused with a clear
 * reason. Never true for an x402 payload: standard base64 has no dot.
 */
export function looksLikeJwt(headerValue: string | undefined): boolean {
  if (headerValue === undefined) return false;
  const value = headerValue.trim();
  return value.length <= MAX_TOKEN_CHARS && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value);
}

/** `pay+JWT` → `pay+jwt`; anything else → undefined. */
export function tokenType(typ: unknown): TokenType | undefined {
  if (typeof typ !== 'string') return undefined;
  const lower = typ.toLowerCase();
  return (TOKEN_TYPES as readonly string[]).includes(lower) ? (lower as TokenType) : undefined;
}

/** Header rules, decided before any key is fetched. */
export function checkHeader(header: { typ?: unknown; alg?: unknown }): Decision<{ typ: TokenType }> {
  const typ = tokenType(header.typ);
  if (!typ) {
    return refuse(`header typ ${quote(header.typ)} is not an agent-payment token type (${TOKEN_TYPES.join(', ')})`);
  }
  if (header.alg !== TOKEN_ALGORITHM) {
    return refuse(`header alg ${quote(header.alg)} is not allowed; tokens must be signed with ${TOKEN_ALGORITHM}`);
  }
  return { ok: true, typ };
}

/** "12.5" → 12500000n: exact, at most 6 decimals; undefined when not such a decimal. */
export function usdToBaseUnits(text: string): bigint | undefined {
  const match = /^(\d{1,15})(?:\.(\d{1,6}))?$/.exec(text);
  if (!match) return undefined;
  const [, whole, fraction = ''] = match;
  return BigInt(whole) * 10n ** BigInt(USD_DECIMALS) + BigInt(fraction.padEnd(USD_DECIMALS, '0'));
}

/** 500000n → "0.500000", the wire form of an amount (six decimals, as Skyfire writes them). */
export function baseUnitsToUsd(amount: bigint): string {
  const unit = 10n ** BigInt(USD_DECIMALS);
  return `${amount / unit}.${(amount % unit).toString().padStart(USD_DECIMALS, '0')}`;
}

const numericDate = z.number().check(z.int(), z.nonnegative());
const text = (min: number, max?: number) =>
  max === undefined ? z.string().check(z.minLength(min)) : z.string().check(z.minLength(min), z.maxLength(max));

export const tokenClaimsSchema = z.looseObject({
  iss: text(1),
  sub: text(1, 256),
  aud: z.union([text(1), z.array(text(1)).check(z.minLength(1))]),
  ssi: text(1),
  jti: z.string().check(z.regex(/^[A-Za-z0-9._-]{1,128}$/, 'must be 1-128 characters of A-Z a-z 0-9 . _ -')),
  iat: numericDate,
  nbf: z.optional(numericDate),
  exp: numericDate,
  amount: z.string(),
  cur: z.string(),
  value: z.optional(z.string()),
  env: z.optional(z.string()),
  btg: z.optional(z.string()),
  ver: z.optional(z.union([z.string(), z.number()])),
});
export type TokenClaims = z.infer<typeof tokenClaimsSchema>;

export interface ClaimRules {
  issuer: string;
  sellerId: string;
  /** Defaults to sellerId. */
  audience?: string;
  /** What the call costs, in USDC base units. */
  price: bigint;
  /** Unix seconds. */
  now: number;
  skewSeconds?: number;
}

export interface AcceptedClaims {
  claims: TokenClaims;
  /** The token's spending limit in USDC base units. */
  tokenAmount: bigint;
}

/** Every claim rule, in the order a buyer would want to hear about them. */
export function checkClaims(payload: unknown, rules: ClaimRules): Decision<AcceptedClaims> {
  const parsed = tokenClaimsSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const claim = issue.path.length ? String(issue.path[0]) : 'payload';
    return refuse(`claim ${claim} is missing or malformed (${issue.message})`);
  }
  const claims = parsed.data;
  const skew = rules.skewSeconds ?? CLOCK_SKEW_SECONDS;
  const audience = rules.audience ?? rules.sellerId;

  if (claims.iss !== rules.issuer) return refuse(`issuer ${quote(claims.iss)} is not the accepted issuer ${quote(rules.issuer)}`);
  if (claims.exp <= rules.now - skew) return refuse(`token expired at ${isoTime(claims.exp)}`);
  if (claims.exp <= claims.iat) return refuse(`exp ${claims.exp} is not later than iat ${claims.iat}`);
  if (claims.iat > rules.now + skew) return refuse(`token is issued in the future (iat ${isoTime(claims.iat)})`);
  if (claims.nbf !== undefined && claims.nbf > rules.now + skew) {
    return refuse(`token is not valid before ${isoTime(claims.nbf)}`);
  }
  if (claims.ssi !== rules.sellerId) {
    return refuse(`token is for seller service ${quote(claims.ssi)}, not this service (${quote(rules.sellerId)})`);
  }
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(audience)) {
    return refuse(`audience ${quote(claims.aud)} does not include this seller (${quote(audience)})`);
  }
  if (claims.cur.toUpperCase() !== 'USD') return refuse(`currency ${quote(claims.cur)} is not USD`);
  const tokenAmount = usdToBaseUnits(claims.amount);
  if (tokenAmount === undefined) {
    return refuse(`amount ${quote(claims.amount)} is not a US dollar amount with at most ${USD_DECIMALS} decimals`);
  }
  if (claims.value !== undefined && (!/^\d{1,24}$/.test(claims.value) || BigInt(claims.value) !== tokenAmount)) {
    return refuse(`value ${quote(claims.value)} does not equal amount ${claims.amount} USD in base units (${tokenAmount})`);
  }
  if (tokenAmount < rules.price) {
    return refuse(`amount ${baseUnitsToUsd(tokenAmount)} USD does not cover the price ${baseUnitsToUsd(rules.price)} USD`);
  }
  return { ok: true, claims, tokenAmount };
}

function quote(value: unknown): string {
  return value === undefined ? '(none)' : JSON.stringify(value);
}

function isoTime(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  return Number.isNaN(date.getTime()) ? String(unixSeconds) : date.toISOString();
}
