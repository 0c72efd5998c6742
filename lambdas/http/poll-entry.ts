/**
 * The Middy chain of a free poll route: frame (version ▸ errors) ▸ read the job. Polls are never charged or limited.
 * A poll of a reserved job (its payment's outcome unknown) reconciles it against the chain first (pollReconciler).
 */
import middy from '@middy/core';
import { frame } from '../middleware/http-frame.js';
import { baseUrl, json, type HttpEvent, type HttpResult } from '../shared/http.js';
import { assetConfig, checkAtColdStart, httpConfig, paymentConfig, storeConfig, workflowConfig } from '../shared/config.js';
import { JobStore, type JobRecord } from '../store/jobs.js';
import { DynamoPaymentLedger } from '../store/ledger.js';
import { WorkflowStarter } from '../store/workflow.js';
import { paidOnChain, type OnChainPayment } from '../payments/core/paid-on-chain.js';
import { reconcileOnPoll } from '../workflow/poll-reconcile.js';
import { mediaJob, unknownMediaJob } from '../jobs/views.js';
import { GENERATION } from '../surfaces/surface.js';
import { urlsFor } from '../jobs/urls.js';

export function pollEntry(read: (event: HttpEvent) => Promise<HttpResult>) {
  checkAtColdStart(storeConfig, assetConfig, httpConfig);
  return middy<HttpEvent, HttpResult>().use(frame(GENERATION)).handler(read);
}

/**
 * Reads a job by id for a poll, reconciling a reserved one (lambdas/workflow/poll-reconcile.ts). Only the poll routes
 * build one: their functions hold the grants it needs (the `poll` role, lib/paycall-stack.ts).
 */
export function pollReconciler(jobs = new JobStore()): Pick<JobStore, 'get'> {
  checkAtColdStart(paymentConfig, workflowConfig);
  const deps = { jobs, ledger: new DynamoPaymentLedger(), workflow: new WorkflowStarter(), paidOnChain: (payment: OnChainPayment) => paidOnChain(payment) };
  return {
    async get(jobId: string): Promise<JobRecord | undefined> {
      const job = await jobs.get(jobId);
      return job && reconcileOnPoll(deps, job);
    },
  };
}

/** Poll of a video or image job: an unknown or expired id answers 200 `failed` with pollUrl null, never 404. */
export function mediaPollEntry(product: 'agent_video' | 'agent_image') {
  const jobs = pollReconciler();
  return pollEntry(async (event) => {
    const jobId = event.pathParameters?.jobId ?? '';
    const job = await jobs.get(jobId);
    const body = job && job.product === product ? mediaJob(job, urlsFor(baseUrl(event, GENERATION))) : unknownMediaJob(product, jobId);
    return json(200, body, { 'Cache-Control': 'no-store' });
  });
}
