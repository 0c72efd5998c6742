/**
 * POST /api/gateway/topup?tier=1|5|20 (spec: agent-studio endpoints; docs/decisions/0013). The Middy chain, in order:
 * frame (errors) ▸ probe rate limit (unpaid calls) ▸ workspace bearer (401, before any payment is read, verified
 * or charged) ▸ tier (400 for anything but 1, 5, 20; absent = 1) ▸ idempotency (X-Idempotency-Key or the payment
 * identifier, per workspace and payer, bound to the tier: a retried top-up credits once) ▸ payment (402 with the tier's terms; x402 v2 in
 * PAYMENT-SIGNATURE, or v1 in the deprecated X-PAYMENT) ▸ the top-up (lambdas/credits/topup.ts) ▸ 200
 * `{ creditsAdded, transaction, payer }` with the receipt in PAYMENT-RESPONSE (X-PAYMENT-RESPONSE for v1).
 */
import type { Context } from 'aws-lambda';
import middy from '@middy/core';
import { frame } from '../../middleware/http-frame.js';
import { probeRateLimit } from '../../middleware/rate-limit.js';
import { payment, paymentHeaderOf, refusedPurchase } from '../../middleware/payment.js';
import { idempotency } from '../../middleware/idempotency.js';
import { offerReceipts } from '../../middleware/offer-receipt.js';
import { IdempotencyStore } from '../../store/idempotency.js';
import { payingParty } from '../../payments/core/party.js';
import type { HttpMiddleware, HttpRequest } from '../../middleware/types.js';
import { RateWindowStore } from '../../store/rate-limit.js';
import { DynamoPaymentLedger } from '../../store/ledger.js';
import { CreditStore, type Workspace } from '../../store/credits.js';
import { paymentTerms, x402PaymentCore } from '../../payments/x402-backend.js';
import { encodeBase64Json } from '../../payments/types.js';
import { LEGACY_RESPONSE_HEADER } from '../../payments/core/header.js';
import { topUp, type TopUpDeps, type TopUpOutcome } from '../../credits/topup.js';
import { topUpOffer, topUpTier, type TopUpTier } from '../../credits/offers.js';
import { answerDeadline, baseUrl, json, type HttpEvent, type HttpResult } from '../../shared/http.js';
import { checkAtColdStart, paymentConfig, storeConfig } from '../../shared/config.js';
import { TopUpPendingError, ValidationError } from '../../shared/errors.js';
import { usdcNumber } from '../../shared/money.js';
import { AGENT_STUDIO } from '../../surfaces/surface.js';
import { workspaceBearer, workspaceOf } from './workspace-auth.js';

let deps: TopUpDeps | undefined;
function topUpDeps(): TopUpDeps {
  deps ??= { credits: new CreditStore(), ledger: new DynamoPaymentLedger(), settle: (p, o) => x402PaymentCore().settle(p, o) };
  return deps;
}
let store: CreditStore | undefined;
const credits = () => (store ??= new CreditStore());

function tierOf(request: HttpRequest): TopUpTier {
  return request.internal.tier as TopUpTier;
}

/** The tier the query names (absent: 1); any other value is a 400 naming `tier`. */
function readTier(): HttpMiddleware {
  return {
    name: 'tier',
    before: (request) => {
      const tier = topUpTier(request.event.queryStringParameters?.tier);
      if (tier === undefined) throw new ValidationError([{ loc: ['query', 'tier'], msg: 'tier is one of 1, 5, 20 (USDC)', type: 'enum' }]);
      request.internal.tier = tier;
      Object.assign(request.context, { tier });
    },
  };
}

/** x402 v1's X-PAYMENT is read too (legacy clients during migration): set before anything classifies the header. */
const legacyV1: HttpMiddleware = { name: 'legacyV1', before: (request) => void (request.internal.legacyV1 = true) };

export function topUpEntry() {
  checkAtColdStart(storeConfig, paymentConfig);
  const surface = AGENT_STUDIO;
  return middy<HttpEvent, HttpResult, Error, Context>()
    .use(frame(surface))
    .use(legacyV1)
    .use(probeRateLimit({ counter: new RateWindowStore() }))
    .use(workspaceBearer(credits))
    .use(readTier())
    .use(
      idempotency({
        store: new IdempotencyStore(),
        scope: (request) => `topup:${workspaceOf(request.context).workspaceId}`,
        party: (request) => payingParty(paymentHeaderOf(request), paymentTerms()),
        binding: (request) => `tier=${tierOf(request)}`,
      }),
    )
    .use(offerReceipts({ network: () => paymentTerms().network }))
    .use(payment({ offer: (request) => topUpOffer(tierOf(request), baseUrl(request.event, surface)), core: x402PaymentCore }))
    .use({
      name: 'paid',
      before: (request) => {
        const header = paymentHeaderOf(request);
        Object.assign(request.context, { payment: request.internal.payment, legacy: header.kind === 'x402' && header.legacy === true });
      },
    })
    .handler(async (event, context) => {
      const { tier, payment: paid, legacy } = context as unknown as { tier: TopUpTier; payment: NonNullable<HttpRequest['internal']['payment']>; legacy: boolean };
      const workspace: Workspace = workspaceOf(context);
      const outcome = await topUp(topUpDeps(), { workspace, tier, payment: paid, deadline: answerDeadline(event, context) });
      return presentTopUp(outcome, tier, baseUrl(event, surface), legacy);
    });
}

function presentTopUp(outcome: TopUpOutcome, tier: TopUpTier, base: string, legacy: boolean): HttpResult {
  switch (outcome.type) {
    case 'refused':
    case 'unavailable':
      return refusedPurchase(outcome, topUpOffer(tier, base), x402PaymentCore);
    case 'pending':
      throw new TopUpPendingError(outcome.entryKey, outcome.reason);
    case 'credited': {
      const { receipt } = outcome;
      return json(
        200,
        { creditsAdded: usdcNumber(outcome.amount), transaction: receipt.transaction, payer: receipt.payer },
        { [legacy ? LEGACY_RESPONSE_HEADER : 'PAYMENT-RESPONSE']: encodeBase64Json(receipt) },
      );
    }
  }
}

export const handler = topUpEntry();
