/**
 * The Middy chain of a paid generation endpoint, in the order the architecture fixes:
 * frame (version ▸ errors) ▸ probe rate limit ▸ idempotency ▸ offer-receipt (signed offers on a 402, a signed receipt
 * on a paid answer) ▸ payment (402 before validation) ▸ validation (the
 * schema, then the webhook URL's address) ▸ purchase. The handler parses nothing and decides nothing: it hands the verified payment and the valid body to
 * the purchase use case and presents its result.
 */
import type { Context } from 'aws-lambda';
import middy from '@middy/core';
import { PRODUCTS, type ProductId } from '../products/catalog.js';
import { productOffer } from '../jobs/offers.js';
import { frame } from '../middleware/http-frame.js';
import { probeRateLimit } from '../middleware/rate-limit.js';
import { idempotency } from '../middleware/idempotency.js';
import { offerReceipts } from '../middleware/offer-receipt.js';
import { payment, paymentHeaderOf } from '../middleware/payment.js';
import { validateBody } from '../middleware/validation.js';
import { checkWebhook } from '../middleware/webhook-url.js';
import type { HttpMiddleware } from '../middleware/types.js';
import { RateWindowStore } from '../store/rate-limit.js';
import { IdempotencyStore } from '../store/idempotency.js';
import { purchaseJob, type PurchaseDeps } from '../jobs/purchase.js';
import { purchaseDeps } from '../jobs/deps.js';
import type { AcceptedPayment, Offer } from '../payments/core/types.js';
import { paymentCore, paymentTerms } from '../payments/backend.js';
import { payingParty } from '../payments/core/party.js';
import { tokenConfig } from '../payments/token/config.js';
import { answerDeadline, baseUrl, wantsBlocking, type HttpEvent, type HttpResult } from '../shared/http.js';
import { checkAtColdStart, httpConfig, PURCHASE_CONFIG } from '../shared/config.js';
import { renderConfig } from '../render/config.js';
import { GENERATION } from '../surfaces/surface.js';
import { presentPurchase } from './present-purchase.js';
import { cancelToken, serviceKey, webhookSecret } from '../jobs/job-secrets.js';

/** What the chain hands the handler: Middy passes (event, context), so it rides on the context under one key. */
export interface PaidContext extends Context {
  purchase: { offer: Offer; payment: AcceptedPayment; body: Record<string, unknown> };
}

export function paidEntry(product: ProductId) {
  // Configuration is checked at cold start: a broken deployment fails its first invocation's init, not a payment.
  checkAtColdStart(...PURCHASE_CONFIG, renderConfig, tokenConfig);

  const surface = GENERATION;
  return middy<HttpEvent, HttpResult, Error, PaidContext>()
    .use(frame(surface))
    .use(probeRateLimit({ counter: new RateWindowStore() }))
    .use(idempotency({ store: new IdempotencyStore(), scope: product, party: (request) => payingParty(paymentHeaderOf(request), paymentTerms()) }))
    .use(offerReceipts({ network: () => paymentTerms().network }))
    .use(payment({ offer: (request) => productOffer(product, baseUrl(request.event, surface)), core: paymentCore }))
    .use(validateBody(PRODUCTS[product].schema))
    .use(checkWebhook())
    .use(handOver())
    .handler((event, context) => answerPurchase(product, event, context, purchaseDeps()));
}

/**
 * The handler's work, testable without Middy: purchase with what the chain verified, blocking (`?async=false`) no
 * later than the answer deadline, so a cut-short wait still answers 202 with the poll URL; then present the result.
 */
export async function answerPurchase(product: ProductId, event: HttpEvent, context: PaidContext, deps: PurchaseDeps, key: () => Promise<Buffer> = serviceKey): Promise<HttpResult> {
  const { offer, payment: paid, body } = context.purchase;
  // Read before any money moves (once per process): a service key that cannot be read is a 503 that charges nothing,
  // never a paid job whose payer gets no cancel token.
  const jobKey = await key();
  const base = baseUrl(event, GENERATION);
  // The webhook is the job's, not its request's: recorded apart, never handed to a render.
  const { webhook, ...request } = body as { webhook?: string };
  const result = await purchaseJob(deps, {
    product,
    request,
    payment: paid,
    blockingWaitMs: wantsBlocking(event, body as { asyncMode?: boolean }) ? httpConfig().blockingWaitMs : 0,
    deadline: answerDeadline(event, context),
    ...(webhook ? { webhook: { url: webhook, base } } : {}),
  });
  return presentPurchase(result, offer, base, (job) => ({
    cancelToken: cancelToken(jobKey, job.jobId),
    ...(job.webhookTarget ? { webhookSecret: webhookSecret(jobKey, job.jobId) } : {}),
  }));
}

/** Puts what the payment and validation middlewares left in `request.internal` where the handler can read it. */
function handOver(): HttpMiddleware {
  return {
    name: 'handOver',
    before: (request) => {
      const { offer, payment, body } = request.internal;
      Object.assign(request.context, { purchase: { offer: offer!, payment: payment!, body: body as Record<string, unknown> } });
    },
  };
}
