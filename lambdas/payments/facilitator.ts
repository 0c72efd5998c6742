/**
 * A remote x402 facilitator (FACILITATOR_MODE=remote): POST {x402Version: 2, paymentPayload, paymentRequirements}
 * to `${url}/verify` and `${url}/settle`, as the x402 HTTPFacilitatorClient does.
 * The verifier still runs the off-chain checks here first, so a wrong amount or payTo is refused without a call.
 */
import { getAddress } from 'viem';
import type {
  ChargeOptions,
  Hex,
  PaymentPayload,
  PaymentRequirement,
  PaymentSettler,
  PaymentVerifier,
  SettleResult,
  VerifiedPayment,
  VerifyResult,
} from './types.js';
import { checkOffChain, normaliseNetwork, PaymentBackendError, unixNow } from './verify.js';

export interface FacilitatorOptions {
  /** Base URL; `/verify` and `/settle` are appended. */
  url: string;
  /** Chain id of the EIP-712 domain for the local signature check. */
  chainId: number;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Extra headers per call, e.g. a facilitator's auth. */
  headers?: () => Promise<Record<string, string>> | Record<string, string>;
  now?: () => number;
}

interface FacilitatorAnswer {
  status: number;
  body: Record<string, unknown> | undefined;
}

/** The transport failed before a request could reach the facilitator (nothing was submitted). */
class NotDeliveredError extends Error {
  override name = 'NotDeliveredError';
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function wireBody(payload: PaymentPayload, requirement: PaymentRequirement): string {
  // The zod schema turned the uint strings into bigint; the wire wants decimal strings back.
  return JSON.stringify({ x402Version: 2, paymentPayload: payload, paymentRequirements: requirement }, (_k, v: unknown) =>
    typeof v === 'bigint' ? v.toString() : v,
  );
}

class FacilitatorClient {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly options: FacilitatorOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  async post(path: '/verify' | '/settle', body: string): Promise<FacilitatorAnswer> {
    const headers = { 'Content-Type': 'application/json', ...(await this.options.headers?.()) };
    let response: Response;
    try {
      response = await this.fetchFn(`${this.base}${path}`, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if (code && UNREACHABLE.has(code)) throw new NotDeliveredError(`facilitator unreachable (${code})`);
      throw error;
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    return { status: response.status, body: isObject ? (parsed as Record<string, unknown>) : undefined };
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export class RemoteFacilitatorVerifier implements PaymentVerifier {
  private readonly client: FacilitatorClient;
  private readonly now: () => number;

  constructor(private readonly options: FacilitatorOptions) {
    this.client = new FacilitatorClient({ timeoutMs: 10_000, ...options });
    this.now = options.now ?? unixNow;
  }

  async verify(payload: PaymentPayload, requirement: PaymentRequirement): Promise<VerifyResult> {
    const checked = await checkOffChain(payload, requirement, this.options.chainId, this.now());
    if (!checked.ok) return checked;

    let answer: FacilitatorAnswer;
    try {
      answer = await this.client.post('/verify', wireBody(payload, requirement));
    } catch (error) {
      throw new PaymentBackendError(`Facilitator /verify failed: ${describeError(error)}`, { cause: error });
    }
    const { status, body } = answer;
    // A 4xx with a verify-shaped body is a verdict; anything else is the facilitator failing.
    if (!body || typeof body.isValid !== 'boolean' || status >= 500) {
      throw new PaymentBackendError(`Facilitator /verify answered ${status} without a verdict`);
    }
    if (!body.isValid) {
      const code = typeof body.invalidReason === 'string' ? body.invalidReason : 'invalid_payment';
      const detail = typeof body.invalidMessage === 'string' ? `: ${body.invalidMessage}` : '';
      return { ok: false, reason: `Payment rejected by facilitator (${code})${detail}` };
    }
    return { ok: true, payment: checked.payment };
  }
}

export class RemoteFacilitatorSettler implements PaymentSettler {
  private readonly client: FacilitatorClient;

  constructor(options: FacilitatorOptions) {
    this.client = new FacilitatorClient(options);
  }

  async settle(payment: VerifiedPayment, options: ChargeOptions = {}): Promise<SettleResult> {
    // The facilitator holds the keys: nothing to prepare here, so wait until the purchase is ready.
    if (options.proceed && !(await options.proceed.catch(() => false))) {
      return { ok: false, reason: 'Settlement abandoned before broadcast', broadcast: false };
    }
    let answer: FacilitatorAnswer;
    try {
      answer = await this.client.post('/settle', wireBody(payment.payload, payment.requirement));
    } catch (error) {
      // Only a connection that never opened proves the facilitator did not submit anything.
      return {
        ok: false,
        reason: `Facilitator /settle failed: ${describeError(error)}`,
        broadcast: !(error instanceof NotDeliveredError),
      };
    }
    const { status, body } = answer;
    if (!body || typeof body.success !== 'boolean') {
      return { ok: false, reason: `Facilitator /settle answered ${status} without a result`, broadcast: true };
    }
    const transaction = typeof body.transaction === 'string' && /^0x[0-9a-fA-F]{64}$/.test(body.transaction)
      ? (body.transaction as Hex)
      : undefined;
    if (!body.success) {
      const code = typeof body.errorReason === 'string' ? body.errorReason : 'settlement_failed';
      const detail = typeof body.errorMessage === 'string' ? `: ${body.errorMessage}` : '';
      // x402 facilitators report the hash once a transaction was sent; without one it was refused up front.
      return { ok: false, reason: `Facilitator could not settle (${code})${detail}`, broadcast: transaction !== undefined };
    }
    if (!transaction) {
      return { ok: false, reason: 'Facilitator reported success without a transaction hash', broadcast: true };
    }
    let payer = payment.payer;
    if (typeof body.payer === 'string') {
      try {
        payer = getAddress(body.payer);
      } catch {
        // keep the verified payer
      }
    }
    const network = typeof body.network === 'string' ? normaliseNetwork(body.network) : payment.network;
    return { ok: true, transaction, network, payer };
  }
}
