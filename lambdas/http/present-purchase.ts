/**
 * The generation surface's presenter of a job purchase: 202 with the accepted body and the receipt, 200 with the
 * finished job for a blocking call, and the offer's 402 for a refusal (through the one refusal-to-402 function).
 */
import type { JobPurchase } from '../jobs/purchase.js';
import type { JobRecord } from '../store/jobs.js';
import { acceptedBody, JOB_VIEWS } from '../jobs/views.js';
import type { Offer } from '../payments/core/types.js';
import { encodeBase64Json } from '../payments/types.js';
import { paymentCore } from '../payments/backend.js';
import { refusedPurchase } from '../middleware/payment.js';
import { json, type HttpResult } from '../shared/http.js';
import { urlsFor } from '../jobs/urls.js';

/**
 * `secretsOf`: the job's secrets (lambdas/jobs/job-secrets.ts) as 202 members: its `cancelToken`, and its
 * `webhookSecret` when it has a webhook. The 202 gives them, with `cancelUrl`, to the payer alone (an idempotent
 * replay of the 202 goes only to the same payer): `POST cancelUrl` with `Authorization: Bearer <cancelToken>` cancels
 * the job while it is queued (lambdas/http/cancel-job.ts); the webhook secret verifies its deliveries.
 */
/** The secrets a paid 202 gives its payer. */
export interface JobSecrets {
  cancelToken: string;
  webhookSecret?: string;
}

export function presentPurchase(result: JobPurchase, offer: Offer, base: string, secretsOf: (job: JobRecord) => JobSecrets): HttpResult {
  const urls = urlsFor(base);
  switch (result.type) {
    case 'refused':
    case 'unavailable':
      return refusedPurchase(result, offer, paymentCore);
    case 'finished': {
      // A blocking call that ended in time: no cancel token (nothing left to cancel), but the webhook's secret, since
      // its delivery is on its way.
      const { webhookSecret } = secretsOf(result.job);
      const body = { ...JOB_VIEWS[result.job.product].finished(result.job, urls), ...(webhookSecret ? { webhookSecret } : {}) };
      return json(200, body, { 'PAYMENT-RESPONSE': encodeBase64Json(result.receipt) });
    }
    case 'accepted': {
      const accepted = acceptedBody(result.job, urls);
      const body = { ...accepted, cancelUrl: `${String(accepted.pollUrl)}/cancel`, ...secretsOf(result.job) };
      // No PAYMENT-RESPONSE while the settlement's outcome is unknown: there is no receipt to give yet.
      const receipt: Record<string, string> = result.receipt ? { 'PAYMENT-RESPONSE': encodeBase64Json(result.receipt) } : {};
      return json(202, body, { ...receipt, Location: String(accepted.pollUrl) });
    }
  }
}
