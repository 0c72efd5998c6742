/**
 * Charging a verified agent-payment token through the issuer's token-charge interface, modelled on Skyfire's
 * seller "Charge Token" API:
 *
 *   POST <TOKEN_CHARGE_URL>
 *   skyfire-api-key: <seller API key>          (from TOKEN_SELLER_KEY_FILE or TOKEN_SELLER_KEY_SECRET_ID)
 *   Content-Type: application/json
 *   { "token": "<compact JWT>", "chargeAmount": "0.500000" }   (US dollars, six decimals: the price, not the limit)
 *
 *   2xx { "chargeId": "…", "amountCharged": "0.500000", … }   → charged; chargeId (or `id`) is the receipt
 *   4xx { "code": "insufficient_balance", "message": "…" }      → refused, nothing was charged
 *   5xx, timeout, dropped connection                            → unknown: money may have moved
 *
 * Like SelfSettler, the one fact the caller needs from a failure is whether money may have moved: `broadcast`
 * is false when the issuer refused or was never reached (the lock on the token id may be released), true when the
 * outcome is unknown (the lock stays; the buyer is told to contact support). Every failure is a result, never a
 * throw, so a charge failure answers 402 and nothing runs. The seller key is never logged or put in a reason.
 */
import { baseUnitsToUsd } from './claims.js';
import { loadSellerKey, type SellerKeySource } from './config.js';
import type { VerifiedTokenPayment } from './verify.js';

export const SELLER_KEY_HEADER = 'skyfire-api-key';
export const TOKEN_NETWORK = 'token';

export type TokenChargeResult =
  | { ok: true; transaction: string; network: typeof TOKEN_NETWORK; payer: string }
  | { ok: false; reason: string; /** true when the issuer may have charged the token */ broadcast: boolean };

export interface TokenChargerOptions {
  chargeUrl: string;
  sellerKey?: SellerKeySource;
  /** Overrides sellerKey; tests pass their own. */
  loadKey?: () => Promise<string>;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Connection errors that prove the request never reached the issuer. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const PRINTABLE_ID = /^[\x21-\x7e]{1,200}$/;

interface Answer {
  status: number;
  body: Record<string, unknown> | undefined;
}

function stringMember(body: Record<string, unknown> | undefined, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = body?.[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 300);
  }
  return undefined;
}

export class TokenCharger {
  private readonly fetchFn: typeof fetch;
  private readonly timeoutMs: number;
  private readonly loadKey: () => Promise<string>;

  constructor(private readonly options: TokenChargerOptions) {
    this.fetchFn = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.loadKey = options.loadKey ?? (() => loadSellerKey(options.sellerKey ?? {}));
  }

  async charge(payment: Pick<VerifiedTokenPayment, 'token' | 'amount' | 'tokenId' | 'payer'>): Promise<TokenChargeResult> {
    const unknownOutcome = (what: string): TokenChargeResult => ({
      ok: false,
      reason: `Token charge ${what}; the charge may have gone through. Do not retry with this token: contact support with token id ${payment.tokenId}`,
      broadcast: true,
    });

    let key: string;
    try {
      key = await this.loadKey();
    } catch (error) {
      return {
        ok: false,
        reason: `Token charging is unavailable (seller key not loaded: ${(error as Error).name}); nothing was charged`,
        broadcast: false,
      };
    }

    let answer: Answer;
    try {
      const response = await this.fetchFn(this.options.chargeUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', [SELLER_KEY_HEADER]: key },
        body: JSON.stringify({ token: payment.token, chargeAmount: baseUnitsToUsd(payment.amount) }),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      answer = { status: response.status, body: await jsonObject(response) };
    } catch (error) {
      const e = error as { name?: string; cause?: { code?: string } };
      const code = e.cause?.code;
      if (code && UNREACHABLE.has(code)) {
        return { ok: false, reason: `Token issuer unreachable (${code}); nothing was charged`, broadcast: false };
      }
      if (e.name === 'TimeoutError' || e.name === 'AbortError') return unknownOutcome(`timed out after ${this.timeoutMs} ms`);
      return unknownOutcome(`failed in transit (${code ?? e.name ?? 'error'})`);
    }

    const { status, body } = answer;
    if (status >= 200 && status < 300) {
      const id = stringMember(body, 'chargeId', 'id', 'transactionId');
      return {
        ok: true,
        transaction: id && PRINTABLE_ID.test(id) ? id : `charge:${payment.tokenId}`,
        network: TOKEN_NETWORK,
        payer: payment.payer,
      };
    }
    if (status >= 500) return unknownOutcome(`failed: the issuer answered ${status}`);
    const code = stringMember(body, 'code', 'error') ?? `http_${status}`;
    const message = stringMember(body, 'message', 'detail');
    return {
      ok: false,
      reason: `Token charge refused by the issuer (${code})${message ? `: ${message}` : ''}; nothing was charged`,
      broadcast: false,
    };
  }
}

async function jsonObject(response: Response): Promise<Record<string, unknown> | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await response.text());
  } catch {
    return undefined;
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}
