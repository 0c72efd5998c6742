/**
 * The payment core, framework-free (in the manner of @x402/core's resource server): given an Offer and the
 * classified payment header it decides challenge | invalid | verified, and given a verified payment it moves the
 * money and says settled | refused | unknown-outcome. It never writes storage and never builds an HTTP answer:
 * the ledger locks, the purchase use case orders the steps, and each surface's adapter presents the result.
 *
 * A dependency that cannot answer (the chain, a facilitator, the issuer's key set) throws a DependencyError:
 * "we could not check" is never answered as "you did not pay".
 */
import { randomUUID } from 'node:crypto';
import { logger } from '../../shared/logger.js';
import type { ChargeResult, PaymentChallenge, PaymentSettler, PaymentVerifier } from '../types.js';
import type { TokenVerifier } from '../token/verify.js';
import type { TokenCharger } from '../token/charge.js';
import type { PaymentHeader } from './header.js';
import {
  paymentChallenge,
  paymentRequirement,
  REASON_MISSING,
  REASON_TOKENS_NOT_ACCEPTED,
  REASON_UNREADABLE,
  type PaymentTerms,
} from './challenge.js';
import type { AcceptedPayment, Offer, PaymentDecision, PaymentRefusal, Settlement, SettleOptions } from './types.js';

export interface TokenBackend {
  verifier: Pick<TokenVerifier, 'verify'>;
  charger: Pick<TokenCharger, 'charge'>;
}

export interface PaymentCoreDeps {
  terms: () => PaymentTerms;
  /** x402: verification and settlement (self-settlement with a gas key, or a remote facilitator). */
  x402: () => { verifier: PaymentVerifier; settler: PaymentSettler };
  /** Agent-payment tokens; null when no issuer is configured (tokens are then refused with 402). */
  tokens: () => TokenBackend | null;
  /** The PAYMENT-REFERENCE of an unreadable header (for support to find the log line). */
  newReference?: () => string;
}

export class PaymentCore {
  private readonly newReference: () => string;

  constructor(private readonly deps: PaymentCoreDeps) {
    this.newReference = deps.newReference ?? randomUUID;
  }

  terms(): PaymentTerms {
    return this.deps.terms();
  }

  /**
   * The 402 of an offer, with a reason (a refused payment) or the "nothing attached" reason. The challenge is built
   * when first read: an adapter that only needs the reason (an MCP tool error) never builds it.
   */
  refusal(offer: Offer, reason: string = REASON_MISSING, headers: Record<string, string> = {}): PaymentRefusal {
    const terms = this.deps.terms;
    let challenge: PaymentChallenge | undefined;
    const build = () => (challenge ??= paymentChallenge(offer, terms(), reason));
    if (reason === REASON_MISSING) {
      return { type: 'challenge', headers, get challenge() { return build(); } };
    }
    return { type: 'invalid', reason, headers, get challenge() { return build(); } };
  }

  /**
   * `deferChainChecks`: an x402 payment is verified once its off-chain checks pass, its chain reads left in flight
   * (`payment.chainChecks`) for the purchase to await beside its ledger lock (./chain-checks.ts).
   */
  async decide(offer: Offer, header: PaymentHeader, options: { deferChainChecks?: boolean } = {}): Promise<PaymentDecision> {
    switch (header.kind) {
      case 'none':
        return this.refusal(offer);
      case 'unreadable': {
        const reference = this.newReference();
        logger.warn('unreadable payment header', { reference, length: header.length, offer: offer.id });
        return this.refusal(offer, REASON_UNREADABLE, { 'PAYMENT-REFERENCE': reference });
      }
      case 'token': {
        const tokens = offer.accepts.includes('token') ? this.deps.tokens() : null;
        if (!tokens) return this.refusal(offer, REASON_TOKENS_NOT_ACCEPTED);
        const result = await tokens.verifier.verify(header.token, { amount: offer.amount, product: offer.id });
        if (result.ok) return { type: 'verified', payment: result.payment };
        logger.info('token refused', { reason: result.reason, offer: offer.id });
        return this.refusal(offer, result.reason);
      }
      case 'x402': {
        if (!offer.accepts.includes('x402')) return this.refusal(offer, 'x402 payments are not accepted here');
        if (header.legacy && !offer.legacyV1) return this.refusal(offer, 'x402 v1 (X-PAYMENT) is not accepted here; pay with PAYMENT-SIGNATURE');
        const requirement = paymentRequirement(offer, this.deps.terms());
        // A v1 payload names no asset: it can only mean the offer's (the signature's domain binds it anyway).
        // A v1 payload names no asset and no resource: it can only be for the offer's (the signature binds the asset).
        const payload = header.legacy
          ? { ...header.payload, resource: { url: requirement.resource }, accepted: { ...header.payload.accepted, asset: requirement.asset } }
          : header.payload;
        const result = await this.deps.x402().verifier.verify(payload, requirement, options);
        if (result.ok) return { type: 'verified', payment: result.payment };
        logger.info('payment refused', { reason: result.reason, payer: header.payload.payload.authorization.from, offer: offer.id });
        return this.refusal(offer, result.reason);
      }
    }
  }

  /** Moves the money: settles an x402 authorization or charges a token. */
  async settle(payment: AcceptedPayment, options: SettleOptions = {}): Promise<Settlement> {
    let result: ChargeResult;
    if (payment.kind === 'token') {
      const tokens = this.deps.tokens();
      if (!tokens) return { type: 'refused', reason: REASON_TOKENS_NOT_ACCEPTED };
      // A token's charge has nothing to prepare: it waits for the purchase to be ready.
      if (options.proceed && !(await options.proceed.catch(() => false))) return { type: 'refused', reason: 'Purchase abandoned before the charge' };
      result = await tokens.charger.charge(payment);
    } else {
      result = await this.deps.x402().settler.settle(payment, options);
    }
    if (result.ok) {
      return {
        type: 'settled',
        receipt: { success: true, transaction: result.transaction, network: result.network, payer: result.payer, ...(result.preconfirmed ? { preconfirmed: true as const } : {}) },
      };
    }
    if (result.broadcast) return { type: 'unknown-outcome', reason: result.reason };
    if (result.unavailable) return { type: 'unavailable', reason: result.reason };
    return { type: 'refused', reason: result.reason, ...(result.retryAfterSeconds ? { retryAfterSeconds: result.retryAfterSeconds } : {}) };
  }
}
