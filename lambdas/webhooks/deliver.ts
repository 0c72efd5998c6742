/**
 * One delivery attempt of a job's webhook (docs/decisions/0018), the task of the webhook machine (lib/webhook-workflow.ts), which
 * waits what this answers and calls it again until it says `done`.
 *
 * - The body is the job's poll body as a poll reads it now; the headers are Standard Webhooks' (`webhook-id`,
 *   `webhook-timestamp`, `webhook-signature`), signed by the `standardwebhooks` library with the job's secret
 *   (lambdas/jobs/job-secrets.ts `webhookSecret`, given to the payer in the paid 202). The id is the job's own
 *   (`msg_<jobId>`), the same on every attempt, so a receiver drops a repeat by it: delivery is at least once.
 * - The POST goes through the network guard (./post.ts): the address connected to is checked, nothing redirects, 10 s.
 * - Attempts follow RETRY_SCHEDULE_SECONDS (8 attempts over about 28 hours); each one's outcome is recorded on the job
 *   (`webhook: { attempts, lastStatus, nextAttemptAt, delivered }` in the poll) before it is answered, conditional on
 *   the count before it, so two deliveries of one job (a retried task, one the sweeper started) record an attempt once
 *   and the loser stops.
 */
import { Webhook } from 'standardwebhooks';
import { JOB_VIEWS } from '../jobs/views.js';
import { urlsFor } from '../jobs/urls.js';
import { webhookSecret } from '../jobs/job-secrets.js';
import { FINAL_STATUSES, type JobStore, type WebhookState } from '../store/jobs.js';
import type { JobWebhookStore } from '../store/job-webhooks.js';
import { logger } from '../shared/logger.js';
import type { WebhookPolicy } from './address.js';
import type { postWebhook } from './post.js';

/**
 * Seconds before each retry: after the 1st attempt 5 s, then 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: the 8th and last
 * attempt comes about 27.6 hours after the first (Standard Webhooks' recommended schedule, as Svix runs it).
 */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;
/** How long a delivery started for a job not yet ended waits before looking again (only a hand-started one does). */
const NOT_ENDED_WAIT_SECONDS = 60;

export interface DeliverDeps {
  jobs: Pick<JobStore, 'get'>;
  webhooks: Pick<JobWebhookStore, 'record'>;
  /** The service key the job's secret is derived from. */
  key: () => Promise<Buffer>;
  post: typeof postWebhook;
  policy: WebhookPolicy;
  now?: () => Date;
}

/** What the machine does next: stop, or wait this long and call again. */
export type DeliveryStep = { done: true } | { done: false; waitSeconds: number };

export async function deliverWebhook(deps: DeliverDeps, jobId: string): Promise<DeliveryStep> {
  const job = await deps.jobs.get(jobId);
  const state = job?.webhook;
  const target = job?.webhookTarget;
  if (!job || !state || !target || state.delivered || (state.attempts > 0 && state.nextAttemptAt === null)) return { done: true };
  if (!FINAL_STATUSES.includes(job.status)) return { done: false, waitSeconds: NOT_ENDED_WAIT_SECONDS };

  const at = (deps.now ?? (() => new Date()))();
  const body = JSON.stringify(JOB_VIEWS[job.product].poll(job, urlsFor(target.base)));
  const id = `msg_${jobId}`;
  const signature = new Webhook(webhookSecret(await deps.key(), jobId)).sign(id, at, body);
  const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
  const outcome = await deps.post(target.url, body, headers, deps.policy);

  const attempts = state.attempts + 1;
  const wait = outcome.delivered ? undefined : RETRY_SCHEDULE_SECONDS[attempts - 1];
  const next: WebhookState = {
    attempts,
    lastStatus: outcome.status ?? null,
    nextAttemptAt: wait === undefined ? null : new Date(at.getTime() + wait * 1000).toISOString(),
    delivered: outcome.delivered,
  };
  const { lastError: _previous, ...where } = target;
  const recorded = { ...where, lastAttemptAt: at.toISOString(), ...(outcome.error ? { lastError: outcome.error } : {}) };
  const log = { jobId, attempt: attempts, status: outcome.status, error: outcome.error };
  if (!(await deps.webhooks.record(jobId, next, recorded, state.attempts, wait !== undefined))) {
    logger.warn('webhook attempt raced another delivery of the job; this one stops', log);
    return { done: true };
  }
  if (outcome.delivered) logger.info('webhook delivered', log);
  else logger.warn(wait === undefined ? 'webhook not delivered; no attempt left' : 'webhook not delivered; retried later', log);
  return wait === undefined ? { done: true } : { done: false, waitSeconds: wait };
}
