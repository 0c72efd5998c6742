/**
 * Verification of an agent-payment token (see claims.ts for the format) against what the call costs.
 *
 * Order: shape and header first (typ, alg — no key is fetched for an HS256 or unsigned token), then the ES256
 * signature against the issuer's key set, then the claim rules. A reason string becomes the `error` of the 402.
 * A key set that cannot be fetched or read throws PaymentBackendError instead (answered 503, nothing charged),
 * because "we could not check" must not be answered as "you did not pay".
 *
 * Replay is not decided here: `nonceKey` (one per issuer and token id) is locked by the service in the payments
 * table before the charge, exactly like an x402 nonce, so two concurrent uses of one token cannot both proceed.
 */
import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { PaymentBackendError, unixNow } from '../verify.js';
import { checkClaims, checkHeader, CLOCK_SKEW_SECONDS, looksLikeJwt, TOKEN_ALGORITHM, type TokenType } from './claims.js';
import type { TokenConfig } from './config.js';

/** A token that passed verification, ready to be locked (nonceKey) and charged. */
export interface VerifiedTokenPayment {
  kind: 'token';
  /** The buyer's account id at the issuer (`sub`). */
  payer: string;
  /** The price of the call in USDC base units: what will be charged. */
  amount: bigint;
  /** The token's spending limit in USDC base units (>= amount). */
  tokenAmount: bigint;
  tokenId: string;
  tokenType: TokenType;
  issuer: string;
  sellerId: string;
  /** Unix seconds (`exp`). */
  expiresAt: number;
  /** `token:${issuer}:${jti}`: one use per token id. */
  nonceKey: string;
  product?: string;
  /** The compact JWT, needed for the charge. A bearer credential: never log it. */
  token: string;
}

export type TokenVerifyResult = { ok: true; payment: VerifiedTokenPayment } | { ok: false; reason: string };

export interface TokenVerifierOptions {
  config: Pick<TokenConfig, 'issuer' | 'sellerId'> & Partial<Pick<TokenConfig, 'audience' | 'jwksUrl'>>;
  /** Where signing keys come from; defaults to the process-wide remote key set of config.jwksUrl. */
  keySet?: JWTVerifyGetKey;
  /** Unix seconds. */
  now?: () => number;
  skewSeconds?: number;
}

const remoteSets = new Map<string, JWTVerifyGetKey>();

/**
 * One remote key set per URL for the life of the process (warm Lambda invocations reuse it). jose keeps the keys
 * for cacheMaxAge and refetches at most once per cooldown when a token names an unknown kid (key rotation).
 */
export function remoteKeySet(jwksUrl: string): JWTVerifyGetKey {
  let keySet = remoteSets.get(jwksUrl);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(jwksUrl), {
      timeoutDuration: 5_000,
      cooldownDuration: 30_000,
      cacheMaxAge: 10 * 60_000,
    });
    remoteSets.set(jwksUrl, keySet);
  }
  return keySet;
}

function refuse(reason: string): { ok: false; reason: string } {
  return { ok: false, reason: `Agent-payment token refused: ${reason}` };
}

/** jose errors that are a verdict on the token; anything else is the key set failing. */
function verdictOf(error: unknown, kid: unknown): { ok: false; reason: string } | undefined {
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return refuse(`signature does not verify against the issuer's key set (forged or altered token)`);
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return refuse(`no key in the issuer's key set matches kid ${JSON.stringify(kid ?? null)}`);
  }
  if (error instanceof errors.JWKSMultipleMatchingKeys) {
    return refuse(`kid ${JSON.stringify(kid ?? null)} does not select a single key in the issuer's key set`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return refuse(`alg is not allowed; tokens must be signed with ${TOKEN_ALGORITHM}`);
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSENotSupported) {
    return refuse(`not a valid signed JWT (${error.message})`);
  }
  return undefined;
}

export class TokenVerifier {
  private readonly keySet: JWTVerifyGetKey;
  private readonly now: () => number;
  private readonly skew: number;

  constructor(private readonly options: TokenVerifierOptions) {
    if (!options.keySet && !options.config.jwksUrl) throw new Error('TokenVerifier needs a keySet or config.jwksUrl');
    this.keySet = options.keySet ?? remoteKeySet(options.config.jwksUrl!);
    this.now = options.now ?? unixNow;
    this.skew = options.skewSeconds ?? CLOCK_SKEW_SECONDS;
  }

  async verify(token: string, want: { amount: bigint; product?: string }): Promise<TokenVerifyResult> {
    const compact = token.trim();
    if (!looksLikeJwt(compact)) return refuse('not a compact JWT (header.payload.signature in base64url)');
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(compact);
    } catch {
      return refuse('the JWT header is not base64url-encoded JSON');
    }
    const headerCheck = checkHeader(header);
    if (!headerCheck.ok) return headerCheck;

    const now = this.now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(compact, this.keySet, {
        algorithms: [TOKEN_ALGORITHM],
        currentDate: new Date(now * 1000),
        clockTolerance: this.skew,
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired || error instanceof errors.JWTClaimValidationFailed) {
        // The signature verified; jose's time check failed. Decide with our rules so the reason reads the same.
        payload = error.payload;
        const checked = checkClaims(payload, this.rules(want.amount, now));
        return checked.ok ? refuse(error.message) : checked;
      }
      const verdict = verdictOf(error, header.kid);
      if (verdict) return verdict;
      throw new PaymentBackendError(`Could not read the token issuer's key set: ${describe(error)}`, { cause: error });
    }

    const checked = checkClaims(payload, this.rules(want.amount, now));
    if (!checked.ok) return checked;
    const { claims, tokenAmount } = checked;
    return {
      ok: true,
      payment: {
        kind: 'token',
        payer: claims.sub,
        amount: want.amount,
        tokenAmount,
        tokenId: claims.jti,
        tokenType: headerCheck.typ,
        issuer: claims.iss,
        sellerId: claims.ssi,
        expiresAt: claims.exp,
        nonceKey: `token:${claims.iss}:${claims.jti}`,
        ...(want.product === undefined ? {} : { product: want.product }),
        token: compact,
      },
    };
  }

  private rules(price: bigint, now: number) {
    const { issuer, sellerId, audience } = this.options.config;
    return { issuer, sellerId, audience, price, now, skewSeconds: this.skew };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
