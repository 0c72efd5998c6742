/**
 * A poll of a reserved job reconciles it: a buyer whose payment's outcome was unknown polls
 * the job, and once the chain shows the authorization used, that poll records the receipt and starts the job rather
 * than leaving it to the next sweep. The rule is the sweeper's own (reconcileReserved), for this one job:
 *
 * 1. Only a `reserved` job with a payment is looked at; every other poll reads the row and nothing else.
 * 2. Claim it (JobStore.claimReconcile): one conditional write, granted to one poll per job per
 *    POLL_RECONCILE_SECONDS across all instances; a poll that loses answers from the row it read.
 * 3. Reconcile it as the sweeper does (one chain read; on `used`, one ledger transaction conditional on the job still
 *    `reserved`, then the execution named by the job id, so it starts once however many reconcilers race).
 * 4. A job that moved is read again, so the poll answers its new status.
 *
 * A failure here (the RPC down, a throttled write) never fails the poll: it is logged, and the sweeper still runs.
 */
import type { JobRecord, JobStore } from '../store/jobs.js';
import { RESERVED_GRACE_SECONDS, reconcileReserved, type ReservedDeps } from './sweeper.js';
import { logger } from '../shared/logger.js';
import { count } from '../shared/metrics.js';
import { METRIC_NAMES } from '../shared/metric-names.js';

/** At most one reconciliation per job per this many seconds, however often and wherever it is polled. */
export const POLL_RECONCILE_SECONDS = 5;

export interface PollReconcileDeps extends ReservedDeps {
  jobs: Pick<JobStore, 'claimReconcile' | 'queueItem' | 'voidItem' | 'get'>;
  now?: () => Date;
}

/** The job as the poll should answer it: `job` itself, or the row re-read after reconciliation moved it. */
export async function reconcileOnPoll(deps: PollReconcileDeps, job: JobRecord): Promise<JobRecord | undefined> {
  if (job.status !== 'reserved' || !job.nonceKey) return job;
  try {
    if (!(await deps.jobs.claimReconcile(job.jobId, POLL_RECONCILE_SECONDS))) return job;
    const now = (deps.now ?? (() => new Date()))().getTime();
    const outcome = await reconcileReserved(deps, job, now, RESERVED_GRACE_SECONDS);
    if (outcome === 'reconciled') count(METRIC_NAMES.jobsReconciled);
    if (outcome === 'voided') count(METRIC_NAMES.jobsVoided);
    if (outcome === 'waiting' || outcome === 'skipped') return job;
    logger.info('reserved job reconciled on poll', { jobId: job.jobId, outcome });
    return await deps.jobs.get(job.jobId);
  } catch (error) {
    logger.warn('reconcile on poll failed; left to the sweeper', { jobId: job.jobId, error: (error as Error).message });
    return job;
  }
}
