/**
 * POST {pollUrl}/cancel — `/agent/video/{jobId}/cancel`, `/agent/image/{jobId}/cancel`, `/api/songs/{songId}/cancel`
 * (docs/decisions/0017; additive to the spec): the job's payer cancels a job whose render has not been handed to a provider and
 * gets the full price back (lambdas/jobs/cancel.ts). One function serves the three routes.
 *
 * The proof is the job's cancel token (lambdas/jobs/job-secrets.ts), given once in the paid 202 beside `cancelUrl`,
 * sent as `Authorization: Bearer <cancelToken>`, or (docs/decisions/0020) a sign-in-with-x from the wallet that paid for the job
 * over x402 (checked by the sign-in authorizer before this function runs, lambdas/http/sign-in-authorizer.ts; a job paid with an agent-payment token keeps only its token). Either is checked
 * before the job is read, so without one nobody learns whether a job exists. Answers:
 * - 402 with the sign-in declaration and `WWW-Authenticate: Bearer` (neither a bearer nor a sign-in, or a sign-in
 *   refused), so the official client hook signs in and retries; nothing changes;
 * - 401 `invalid_token` (not this job's token), with `WWW-Authenticate`; nothing changes;
 * - 403 `not_payer`: signed in, but not as the wallet that paid for this job over x402; nothing changes;
 * - 404 `not_found`: no such job of this product;
 * - 200 with the job's poll body, now `failed` with `error: "canceled"` (music: `model_version: "failed"`) and its
 *   `refund` (`pending` until the sweeper's refund pass sends it); the same for a job already canceled;
 * - 409 `not_cancellable` with the reason (`processing`, `completed`, ...) and the job's status; nothing changes.
 * A `processing` job at fal is canceled in fal's queue first (lambdas/jobs/cancel.ts): 200 if fal had not started it.
 */
import middy from '@middy/core';
import { frame } from '../middleware/http-frame.js';
import { baseUrl, bearerToken, header, json, type HttpEvent, type HttpResult } from '../shared/http.js';
import { assetConfig, checkAtColdStart, storeConfig, webhookConfig, workflowConfig } from '../shared/config.js';
import { JobStore, type JobRecord } from '../store/jobs.js';
import { assetStoreFromConfig } from '../store/assets.js';
import { lazyRetry } from '../shared/lazy.js';
import { DependencyError } from '../shared/errors.js';
import { readProviderSecret } from '../render/adapter.js';
import { RenderError, type RenderProvider } from '../render/provider.js';
import { CANCELLERS } from '../jobs/cancellers.js';
import { WebhookStarter, WorkflowStopper } from '../store/workflow.js';
import { cancelJob, cancelTarget } from '../jobs/cancel.js';
import { isCancelToken, serviceKey } from '../jobs/job-secrets.js';
import { JOB_VIEWS } from '../jobs/views.js';
import { signedIn } from '../sign-in/context.js';
import { urlsFor } from '../jobs/urls.js';
import { GENERATION } from '../surfaces/surface.js';

checkAtColdStart(storeConfig, assetConfig, workflowConfig, webhookConfig);

/**
 * The adapters of the providers whose queue takes cancellations (lambdas/jobs/cancellers.ts), each built on first use
 * (a job of theirs being canceled); they read the render's record and the provider's key through this function's grants.
 */
const adapters: Record<string, () => Promise<RenderProvider>> = Object.fromEntries(
  Object.entries(CANCELLERS).map(([provider, create]) => [
    provider,
    lazyRetry(async () =>
      create({ store: assetStoreFromConfig(), secret: readProviderSecret, imageProvider: () => Promise.reject(new RenderError('the cancel route renders nothing')), env: process.env }),
    ),
  ]),
);

async function atProvider(job: JobRecord): Promise<'canceled' | 'too-late' | 'unsupported'> {
  const adapter = adapters[job.provider];
  if (!adapter || !job.providerJobId) return 'unsupported';
  try {
    return (await (await adapter()).cancel!(job.providerJobId)) ? 'canceled' : 'too-late';
  } catch (error) {
    // Nothing changed: the buyer may ask again.
    throw new DependencyError(`${job.provider} could not be asked to cancel: ${(error as Error).name}`, { cause: error });
  }
}

const deps = { jobs: new JobStore(), workflow: new WorkflowStopper(), atProvider, webhooks: new WebhookStarter() };

const NO_STORE = { 'Cache-Control': 'no-store' };

export const handler = middy<HttpEvent, HttpResult>()
  .use(frame(GENERATION))
  .handler(async (event) => {
    const target = cancelTarget(event.rawPath);
    if (!target) return json(404, { detail: 'Not a cancel route', code: 'not_found' });
    const { product, jobId } = target;
    const base = baseUrl(event, GENERATION);
    const bearer = bearerToken(header(event, 'authorization'));
    let wallet: string | undefined;
    if (!bearer) {
      wallet = signedIn(
        event,
        {
          description: `Cancel ${product} job ${jobId}: its cancel token as a bearer, or a sign-in from the wallet that paid`,
          missing: 'SIGN-IN-WITH-X header is required: sign in with the wallet that paid',
        },
        { 'WWW-Authenticate': 'Bearer', ...NO_STORE },
      );
    } else if (!isCancelToken(await serviceKey(), jobId, bearer)) {
      return json(401, { detail: 'This is not the cancel token of this job.', code: 'invalid_token' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"', ...NO_STORE });
    }
    const job = await deps.jobs.get(jobId);
    if (!job || job.product !== product) return json(404, { detail: `No ${product} job ${jobId}`, code: 'not_found' }, NO_STORE);
    if (wallet !== undefined && !(job.paymentKind === 'x402' && job.payer?.toLowerCase() === wallet.toLowerCase())) {
      return json(403, { detail: 'The signed-in wallet did not pay for this job over x402; cancel it with its cancel token.', code: 'not_payer' }, NO_STORE);
    }
    const outcome = await cancelJob(deps, job);
    const body = JOB_VIEWS[product].poll(outcome.job, urlsFor(base));
    if (outcome.type === 'not-cancellable') {
      return json(409, { detail: outcome.reason, code: 'not_cancellable', job: body }, NO_STORE);
    }
    return json(200, body, NO_STORE);
  });
