/**
 * Cancel a job (`POST {pollUrl}/cancel`; docs/decisions/0017): the job's payer, proven by its cancel token (the HTTP entry checks
 * it), ends a job whose render has not been handed to a provider, and gets the full price back.
 *
 * Only a `queued` job is canceled: its render function has not run yet (the render's submit moves the job to
 * `processing` before it calls the provider, lambdas/workflow/tasks.ts). One conditional write moves it `queued` →
 * `failed` with `error: "canceled"` and, for a paid job, the refund owed (JobStore.fail, the sweeper's own write for
 * a job that ends without a result): the render's `processing` move, the completion and a second cancel are each
 * conditional on the status too, so exactly one of them wins, and a canceled job can never complete. Its execution is
 * then stopped; the refund is sent by the existing refund path (the sweeper's refund pass, once: the job's refund
 * record moves `pending` → `refunded` exactly once), like any paid job that failed.
 *
 * A `processing` job whose provider's queue takes cancellations (fal's; `atProvider`) is canceled there first: if the
 * provider drops it before it started, the execution is stopped (so its next check cannot end the job another way)
 * and one conditional write moves it `processing` → `failed` "canceled" with the refund owed; if the provider has
 * started it, nothing changes.
 *
 * Anything else is not cancellable and nothing changes: `reserved` (its payment is not confirmed), `processing` at a
 * provider without cancellation (the provider has it, or may: a retried submit is `processing` too), `completed`, or
 * failed for another reason. A job already canceled answers canceled again (a retried cancel gets the same outcome,
 * and no second refund).
 */
import type { JobRecord, JobStore } from '../store/jobs.js';
import type { WebhookStarter, WorkflowStopper } from '../store/workflow.js';
import { startWebhook } from './webhook-start.js';
import { refundOwed } from './refund.js';
import { logger } from '../shared/logger.js';
import { PRODUCT_IDS, PRODUCTS, type ProductId } from '../products/products.js';

/** The `error` of a canceled job (its poll shows it; music reads `model_version: "failed"`). */
export const CANCELED = 'canceled';

export interface CancelDeps {
  jobs: Pick<JobStore, 'get' | 'fail'>;
  workflow: Pick<WorkflowStopper, 'stop'>;
  /** Asks the job's provider to drop its render: 'unsupported' for a provider without cancellation. */
  atProvider?: (job: JobRecord) => Promise<'canceled' | 'too-late' | 'unsupported'>;
  /** Starts the canceled job's webhook delivery (docs/decisions/0018): a canceled job has ended like any failed one. */
  webhooks?: Pick<WebhookStarter, 'start'>;
}

export type CancelOutcome = { type: 'canceled'; job: JobRecord } | { type: 'not-cancellable'; reason: string; job: JobRecord };

const NOT_CANCELLABLE: Record<Exclude<JobRecord['status'], 'queued'>, string> = {
  reserved: 'its payment is not confirmed yet',
  processing: 'its render has been handed to the provider',
  completed: 'it has completed',
  failed: 'it has already failed',
};

function decided(job: JobRecord): CancelOutcome | undefined {
  if (job.status === 'failed' && job.error === CANCELED) return { type: 'canceled', job };
  if (job.status !== 'queued') return { type: 'not-cancellable', reason: `The job cannot be canceled: ${NOT_CANCELLABLE[job.status]}.`, job };
  return undefined;
}

export async function cancelJob(deps: CancelDeps, job: JobRecord): Promise<CancelOutcome> {
  if (job.status === 'processing' && deps.atProvider) return cancelAtProvider(deps, job, deps.atProvider);
  const early = decided(job);
  if (early) return early;
  const won = await deps.jobs.fail(job.jobId, CANCELED, ['queued'], refundOwed(job));
  const now = (await deps.jobs.get(job.jobId)) ?? job;
  if (!won) return decided(now) ?? { type: 'not-cancellable', reason: 'The job cannot be canceled now.', job: now };
  logger.info('job canceled by its payer', { jobId: job.jobId, product: job.product, refundOwed: refundOwed(job) });
  // The job is final: an execution left running finds it failed at its next step and ends without rendering.
  await stopQuietly(deps, job);
  if (deps.webhooks) await startWebhook(deps.webhooks, now);
  return { type: 'canceled', job: now };
}

async function cancelAtProvider(deps: CancelDeps, job: JobRecord, atProvider: NonNullable<CancelDeps['atProvider']>): Promise<CancelOutcome> {
  const answer = await atProvider(job);
  if (answer === 'unsupported') return decided(job)!;
  if (answer === 'too-late') return { type: 'not-cancellable', reason: 'The job cannot be canceled: the provider has started rendering it.', job };
  // The provider dropped it: stop the execution before the job moves, so no check of it ends the job another way.
  await stopQuietly(deps, job);
  const won = await deps.jobs.fail(job.jobId, CANCELED, ['processing'], refundOwed(job));
  const now = (await deps.jobs.get(job.jobId)) ?? job;
  if (!won) return decided(now) ?? { type: 'not-cancellable', reason: 'The job cannot be canceled now.', job: now };
  logger.info('job canceled by its payer at its provider', { jobId: job.jobId, product: job.product, provider: job.provider, refundOwed: refundOwed(job) });
  if (deps.webhooks) await startWebhook(deps.webhooks, now);
  return { type: 'canceled', job: now };
}

async function stopQuietly(deps: CancelDeps, job: JobRecord): Promise<void> {
  try {
    await deps.workflow.stop(job.jobId, job.product, 'canceled by its payer');
  } catch (error) {
    logger.warn('could not stop a canceled job\'s execution', { jobId: job.jobId, error: (error as Error).name });
  }
}

/** Each product's cancel path, as a pattern over the request's path (a custom domain's base path may precede it). */
const CANCEL_PATHS = PRODUCT_IDS.map((product) => ({
  product,
  pattern: new RegExp(`${PRODUCTS[product].pollPath.replace(/\{[^}]+\}/, '([^/]+)')}/cancel$`),
}));

/** The product and job id a cancel request names, from its path. */
export function cancelTarget(rawPath: string): { product: ProductId; jobId: string } | undefined {
  for (const { product, pattern } of CANCEL_PATHS) {
    const match = pattern.exec(rawPath);
    if (!match) continue;
    try {
      return { product, jobId: decodeURIComponent(match[1]) };
    } catch {
      return undefined; // a malformed escape names no job
    }
  }
  return undefined;
}
