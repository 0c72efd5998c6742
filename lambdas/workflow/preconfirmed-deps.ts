/**
 * What Mark completed, the refund task and the sweeper read a preconfirmed payment's standing with
 * (lambdas/jobs/preconfirmed.ts, docs/decisions/0021): the job rows that record the landing, and the sealed chain read
 * through the function's RPC URL.
 */
import { JobCompletionStore } from '../store/job-completions.js';
import { paidOnChain } from '../payments/core/paid-on-chain.js';
import type { PreconfirmedDeps } from '../jobs/preconfirmed.js';

export function preconfirmedDeps(jobs: JobCompletionStore = new JobCompletionStore()): PreconfirmedDeps {
  return { jobs, paidOnChain: (payment) => paidOnChain(payment) };
}
