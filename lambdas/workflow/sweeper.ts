/**
 * The sweeper keeps two promises:
 * - "a settled payment always has a job row and a receipt row": a job still `reserved` well after its payment was
 *   locked means the process died (or storage failed) between settling and recording. The chain decides: if the
 *   authorization was used, the receipt is recorded and the job queued; if not, the job is voided and the nonce
 *   released. It waits RESERVED_GRACE_SECONDS, past any settlement still in flight. A token job is never delivered
 *   from `reserved`: the issuer has no status lookup, so the ledger says whether the charge was ever sent — never
 *   (`locked`): void the job and release the token; sent (`charging`, outcome unknown): void the job and keep the
 *   token locked (`uncertain`), the same rule as a charge of unknown outcome at purchase time.
 * - "a job always ends completed or failed": a durable job (queued or processing) that has not moved for a while
 *   gets its execution started (idempotent by the job-id name); if an execution with its name already ended
 *   without marking the job, the job is failed.
 */
import type { JobRecord, JobStore } from '../store/jobs.js';
import type { PaymentLedger } from '../store/ledger.js';
import type { WorkflowStarter } from '../store/workflow.js';
import { logger } from '../shared/logger.js';

export const RESERVED_GRACE_SECONDS = 600;

export interface SweepDeps {
  jobs: Pick<JobStore, 'listStale' | 'fail' | 'queueItem' | 'voidItem'>;
  ledger: Pick<PaymentLedger, 'markSettled' | 'markFailed' | 'state'>;
  workflow: Pick<WorkflowStarter, 'start' | 'state'>;
  /** Whether an x402 authorization was used on chain (see lambdas/payments/reconcile.ts). */
  authorizationUsed: (nonceKey: string) => Promise<boolean>;
  now?: () => Date;
}

export interface SweepResult {
  started: string[];
  failed: string[];
  running: string[];
  reconciled: string[];
  voided: string[];
}

export async function sweep(deps: SweepDeps, idleSeconds: number, reservedGraceSeconds = RESERVED_GRACE_SECONDS): Promise<SweepResult> {
  const now = (deps.now ?? (() => new Date()))().getTime();
  const result: SweepResult = { started: [], failed: [], running: [], reconciled: [], voided: [] };

  for (const job of await deps.jobs.listStale(new Date(now - reservedGraceSeconds * 1000), ['reserved'])) {
    await guarded(job, () => reconcile(deps, job, result, now));
  }
  for (const job of await deps.jobs.listStale(new Date(now - idleSeconds * 1000))) {
    await guarded(job, () => resume(deps, job, result));
  }
  const touched = Object.values(result).reduce((n, ids) => n + ids.length, 0);
  if (touched > 0) logger.info('sweep done', { ...result });
  return result;
}

async function reconcile(deps: SweepDeps, job: JobRecord, result: SweepResult, now: number): Promise<void> {
  if (!job.nonceKey) return;
  if (job.paymentKind === 'token') {
    const sent = (await deps.ledger.state(job.nonceKey)) === 'charging';
    const reason = sent ? 'the token charge was not confirmed' : 'the token was never charged';
    await deps.ledger.markFailed(job.nonceKey, reason, sent ? 'may-have-moved' : 'nothing-moved', deps.jobs.voidItem(job.jobId, reason));
    result.voided.push(job.jobId);
    return;
  }
  if (await deps.authorizationUsed(job.nonceKey)) {
    const transaction = job.transaction ?? 'reconciled';
    await deps.ledger.markSettled(job.nonceKey, transaction, deps.jobs.queueItem(job.jobId, transaction));
    result.reconciled.push(job.jobId);
    await deps.workflow.start(job.jobId, job.product);
    result.started.push(job.jobId);
  } else if (job.validBefore !== undefined && now < job.validBefore * 1000) {
    // Not used yet, but a transfer still in flight could land until the authorization expires: decide after that.
    result.running.push(job.jobId);
  } else {
    const reason = 'settlement was not confirmed';
    await deps.ledger.markFailed(job.nonceKey, reason, 'nothing-moved', deps.jobs.voidItem(job.jobId, reason));
    result.voided.push(job.jobId);
  }
}

async function resume(deps: SweepDeps, job: JobRecord, result: SweepResult): Promise<void> {
  if (result.started.includes(job.jobId)) return;
  if ((await deps.workflow.start(job.jobId, job.product)) === 'started') {
    result.started.push(job.jobId);
    return;
  }
  if ((await deps.workflow.state(job.jobId, job.product)) === 'RUNNING') {
    result.running.push(job.jobId);
    return;
  }
  await deps.jobs.fail(job.jobId, 'Generation failed: the render ended without a result', ['queued', 'processing']);
  result.failed.push(job.jobId);
}

async function guarded(job: JobRecord, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    logger.error('sweep of job failed', { jobId: job.jobId, error: (error as Error).message });
  }
}
