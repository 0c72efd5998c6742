/**
 * The sweeper keeps two promises:
 * - "a settled payment always has a job row and a receipt row": a job still `reserved` after its request had time to
 *   record it means the settlement's outcome was unknown at the deadline, or the process died (or storage failed)
 *   between settling and recording. The chain decides, at every sweep from RESERVED_RECONCILE_SECONDS on, by the
 *   payment core's rule (lambdas/payments/core/paid-on-chain.ts: paid means our transfer landed, never merely a
 *   spent nonce): once it shows the transfer, the receipt is recorded with its transaction and the job queued and
 *   started, so a transfer that lands late starts its job at the next sweep, or sooner at a poll of the job
 *   (poll-reconcile.ts runs reconcileReserved for it). An authorization spent without paying us (the buyer canceled
 *   it) voids the job at once: it can never pay. An unspent one is voided (the nonce released) only once the request
 *   that reserved it is over (RESERVED_GRACE_SECONDS) and the authorization can no longer be used (its validBefore).
 *   A token job is never delivered from `reserved`, and is only looked at after
 *   RESERVED_GRACE_SECONDS (its charge may be in flight until then): the issuer has no status lookup, so the ledger
 *   says whether the charge was ever sent — never (`locked`): void the job and release the token; sent (`charging`,
 *   outcome unknown): void the job and keep the token locked (`uncertain`), the same rule as a charge of unknown
 *   outcome at purchase time.
 * - "a job always ends completed or failed": a durable job (queued or processing) that has not moved for a while
 *   gets its execution started (idempotent by the job-id name); if an execution with its name already ended
 *   without marking the job, the job is failed.
 * - "a paid run ends done or failed, and its payment with it": an agent run lives at most 30 s (its function's
 *   timeout), so a run still open (`running` or `settlement-unknown`) after RUN_IDLE_SECONDS lost its last write.
 *   The chain decides, by the same rule (see reconcileRun for why an unspent authorization is never released).
 */
import { refundFailedJob, refundOwed, TransientRefundError, type RefundDeps } from '../jobs/refund.js';
import type { JobRecord, JobStore } from '../store/jobs.js';
import type { JobWebhookStore } from '../store/job-webhooks.js';
import type { JobRefundStore } from '../store/job-refunds.js';
import { PurchaseConflictError, type LedgerItems, type PaymentLedger } from '../store/ledger.js';
import { OPEN_RUN_STATUSES, type RunRecord, type RunStore } from '../store/runs.js';
import { OPEN_TOPUP_STATUSES, type CreditStore, type LedgerEntry } from '../store/credits.js';
import type { WebhookStarter, WorkflowStarter } from '../store/workflow.js';
import { startWebhook } from '../jobs/webhook-start.js';
import type { OnChainPayment, PaidOnChain } from '../payments/core/paid-on-chain.js';
import { logger } from '../shared/logger.js';
import { count } from '../shared/metrics.js';
import { METRIC_NAMES } from '../shared/metric-names.js';

/** A reserved job's request is over by then (routes time out at 30 s): an unused authorization may be voided after. */
export const RESERVED_GRACE_SECONDS = 600;
/** How long a refund may stay owed before the sweeper (re)tries it: the workflow's refund task goes first. */
export const REFUND_RETRY_SECONDS = 60;
/**
 * How old a reserved job must be before the chain is asked whether its authorization was used. The request that
 * reserved it records its own receipt (with the transaction hash) as soon as the transfer's receipt arrives: a
 * block or two on Base (2 s each), then one DynamoDB transaction, so 10 s leaves the usual case to the request.
 * A slower receipt (the request waits up to its 30 s time-out) races the sweeper harmlessly: both record with the
 * same transaction — the ledger row settled on condition it exists (PaymentLedger.markSettled) together with the
 * job queued on condition it is still `reserved` (JobStore.queueItem) — so exactly one lands and the other fails
 * whole; the request then leaves the start to the sweeper, the sweeper skips a job the request recorded, and an
 * execution is named by its job id, so it starts once. The only cost of the sweeper winning: the receipt says
 * `reconciled` instead of the hash.
 */
export const RESERVED_RECONCILE_SECONDS = 10;
/** Runs end within their function's 30 s timeout; one untouched for this long will not be touched by it again. */
export const RUN_IDLE_SECONDS = 120;
/** An ended job's webhook not taken by a delivery this long after the job last moved is started by the sweeper. */
export const WEBHOOK_START_SECONDS = 60;

/** What a reconciled run says instead of its result, which was computed and paid for but never recorded. */
export const RECONCILED_RUN_NOTE = 'settled; result not recorded — the buyer may ask support with the runId';

export interface SweepDeps {
  jobs: Pick<JobStore, 'listStale' | 'fail' | 'queueItem' | 'voidItem'>;
  ledger: Pick<PaymentLedger, 'markSettled' | 'markFailed' | 'state'>;
  workflow: Pick<WorkflowStarter, 'start' | 'state'>;
  /** Agent runs; without it (a process that sells no runs) only jobs are swept. */
  runs?: Pick<RunStore, 'listStale' | 'reconciledItem' | 'unknownItem' | 'failItem'>;
  /** Workspace credit top-ups; without it only jobs and runs are swept. */
  topUps?: Pick<CreditStore, 'listOpenTopUps' | 'creditTopUpItems' | 'voidTopUpItem' | 'pendingTopUpItem'>;
  /** What the chain shows of an x402 payment (the payment core's rule, lambdas/payments/core/paid-on-chain.ts). */
  paidOnChain: (payment: OnChainPayment) => Promise<PaidOnChain>;
  /** Refunds still owed (failed paid jobs): retried each sweep; without it (tests of other passes) none are. */
  refunds?: RefundDeps & { jobs: Pick<JobRefundStore, 'listOpenRefunds'> };
  /** Webhooks of ended jobs no delivery took (docs/decisions/0018): started each sweep; without it none are. */
  webhooks?: { jobs: Pick<JobWebhookStore, 'listWaiting'>; starter: Pick<WebhookStarter, 'start'> };
  now?: () => Date;
}

export interface SweepResult {
  started: string[];
  failed: string[];
  running: string[];
  reconciled: string[];
  voided: string[];
  /** Runs whose transfer the chain shows: settled, `done` without a result. */
  runsSettled: string[];
  /** Open runs whose authorization was spent without paying (canceled): `failed`, the lock released. */
  runsVoided: string[];
  /** `running` runs whose authorization is unused so far: now `settlement-unknown`, the lock kept. */
  runsUnknown: string[];
  /** `settlement-unknown` runs whose authorization is still unused: left as they are, asked again next time. */
  runsWaiting: string[];
  /** Top-ups whose transfer the chain shows: credited (entry and balance) with the receipt. */
  topUpsCredited: string[];
  /** Open top-ups whose authorization was spent without paying (canceled): entry removed, the lock released. */
  topUpsVoided: string[];
  /** `reserved` top-ups whose authorization is unused so far: now `pending`, the lock kept. */
  topUpsPending: string[];
  /** `pending` top-ups whose authorization is still unused: asked again next time. */
  topUpsWaiting: string[];
  /** Failed paid jobs whose refund this sweep sent (or found already sent). */
  refunded: string[];
  /** Failed paid jobs whose refund is still owed after this sweep (retried next time; token refunds stay owed). */
  refundsOwed: string[];
  /** Ended jobs whose webhook delivery this sweep started (their ender had not, or had died before it could). */
  webhooksStarted: string[];
}

/**
 * One sweep. `idleSeconds`: how long a queued or processing job goes untouched before its execution is checked;
 * `reservedGraceSeconds`: how old a reserved job must be before it may be voided (a reserved job is reconciled
 * from RESERVED_RECONCILE_SECONDS on, or from this grace if shorter); `runIdleSeconds`: the same for open runs.
 */
export async function sweep(
  deps: SweepDeps,
  idleSeconds: number,
  reservedGraceSeconds = RESERVED_GRACE_SECONDS,
  runIdleSeconds = RUN_IDLE_SECONDS,
): Promise<SweepResult> {
  const now = (deps.now ?? (() => new Date()))().getTime();
  const result: SweepResult = {
    started: [],
    failed: [],
    running: [],
    reconciled: [],
    voided: [],
    runsSettled: [],
    runsVoided: [],
    runsUnknown: [],
    runsWaiting: [],
    topUpsCredited: [],
    topUpsVoided: [],
    topUpsPending: [],
    topUpsWaiting: [],
    refunded: [],
    refundsOwed: [],
    webhooksStarted: [],
  };

  const reconcileAfter = Math.min(RESERVED_RECONCILE_SECONDS, reservedGraceSeconds);
  for (const job of await deps.jobs.listStale(new Date(now - reconcileAfter * 1000), ['reserved'])) {
    await guarded({ jobId: job.jobId }, async () => {
      const outcome = await reconcileReserved(deps, job, now, reservedGraceSeconds);
      if (outcome === 'reconciled') {
        result.reconciled.push(job.jobId);
        result.started.push(job.jobId);
      } else if (outcome === 'waiting') {
        result.running.push(job.jobId);
      } else if (outcome === 'voided') {
        result.voided.push(job.jobId);
      }
    });
  }
  for (const job of await deps.jobs.listStale(new Date(now - idleSeconds * 1000))) {
    await guarded({ jobId: job.jobId }, () => resume(deps, job, result));
  }
  const { runs } = deps;
  if (runs) {
    for (const run of await runs.listStale(new Date(now - runIdleSeconds * 1000), OPEN_RUN_STATUSES)) {
      await guarded({ runId: run.runId, payer: run.payer ?? '' }, () => reconcileRun(deps, runs, run, result));
    }
  }
  const { topUps } = deps;
  if (topUps) {
    // A top-up's request lives at most 30 s as a run's does: one untouched for runIdleSeconds lost its last write.
    for (const entry of await topUps.listOpenTopUps(new Date(now - runIdleSeconds * 1000), OPEN_TOPUP_STATUSES)) {
      await guarded({ topUp: entry.entryKey, workspaceId: entry.workspaceId }, () => reconcileTopUp(deps, topUps, entry, result));
    }
  }
  const { refunds } = deps;
  if (refunds) {
    // After REFUND_RETRY_SECONDS, so the workflow's own refund task goes first; a failed attempt waits as long again.
    for (const job of await refunds.jobs.listOpenRefunds(new Date(now - REFUND_RETRY_SECONDS * 1000))) {
      if (job.refund?.owed === 'token') continue; // owed by hand; counted when recorded
      await guarded({ jobId: job.jobId }, async () => {
        try {
          const outcome = await refundFailedJob(refunds, job.jobId);
          (outcome === 'refunded' || outcome === 'already-refunded' ? result.refunded : result.refundsOwed).push(job.jobId);
        } catch (error) {
          if (!(error instanceof TransientRefundError)) throw error;
          result.refundsOwed.push(job.jobId);
        }
      });
    }
  }
  const { webhooks } = deps;
  if (webhooks) {
    // After WEBHOOK_START_SECONDS, so the job's ender starts it first; an open job is skipped (startWebhook).
    for (const job of await webhooks.jobs.listWaiting(new Date(now - WEBHOOK_START_SECONDS * 1000))) {
      await guarded({ jobId: job.jobId }, async () => {
        if (await startWebhook(webhooks.starter, job)) result.webhooksStarted.push(job.jobId);
      });
    }
  }
  const touched = Object.values(result).reduce((n, ids) => n + ids.length, 0);
  if (touched > 0) logger.info('sweep done', { ...result });
  // Zeros too: every sweep is a data point, so an alarm on JobsStuck sees the sweeper alive.
  count(METRIC_NAMES.jobsVoided, result.voided.length);
  count(METRIC_NAMES.jobsReconciled, result.reconciled.length);
  count(METRIC_NAMES.jobsStuck, result.failed.length);
  return result;
}

/** What reconciling one reserved job did (see reconcileReserved). */
export type ReservedOutcome = 'reconciled' | 'waiting' | 'voided' | 'changed' | 'skipped';

/** What reconciling one reserved job touches: the sweeper's deps, less the listing and the runs. */
export interface ReservedDeps {
  jobs: Pick<JobStore, 'queueItem' | 'voidItem'>;
  ledger: Pick<PaymentLedger, 'markSettled' | 'markFailed' | 'state'>;
  workflow: Pick<WorkflowStarter, 'start'>;
  paidOnChain: (payment: OnChainPayment) => Promise<PaidOnChain>;
}

/**
 * One reserved job against the chain (or, for a token job, the ledger), the rule of the file's header: the sweeper
 * runs it for every reserved job it lists, and a poll of a reserved job for that job (lambdas/workflow/poll-reconcile.ts).
 * `reconciled`: our transfer landed, the receipt recorded with its transaction and the job `queued`, its execution
 * started; `waiting`: nothing decided yet; `voided`: the job failed and its lock released (or kept `uncertain`);
 * `changed`: the job or its lock moved meanwhile (its request or another reconciler got there first);
 * `skipped`: no payment to reconcile (no nonce key).
 */
export async function reconcileReserved(deps: ReservedDeps, job: JobRecord, now: number, graceSeconds: number): Promise<ReservedOutcome> {
  if (!job.nonceKey) return 'skipped';
  // Rows from the index always carry updatedAt (its sort key); one without is treated as long over.
  const requestOver = !job.updatedAt || now - Date.parse(job.updatedAt) >= graceSeconds * 1000;
  if (job.paymentKind === 'token') {
    if (!requestOver) return 'waiting';
    const sent = (await deps.ledger.state(job.nonceKey)) === 'charging';
    const reason = sent ? 'the token charge was not confirmed' : 'the token was never charged';
    return voided(() => deps.ledger.markFailed(job.nonceKey!, reason, sent ? 'may-have-moved' : 'nothing-moved', deps.jobs.voidItem(job.jobId, reason)));
  }
  if (job.amount === undefined) throw new Error(`reserved job ${job.jobId} has no amount to look for on chain`);
  const chain = await deps.paidOnChain({ nonceKey: job.nonceKey, amount: BigInt(job.amount), notBefore: Date.parse(job.createdAt) });
  let decided: Decided;
  try {
    decided = await applyChain(deps.ledger, job.nonceKey, chain, {
      settled: (transaction) => deps.jobs.queueItem(job.jobId, transaction),
      refused: (reason) => deps.jobs.voidItem(job.jobId, reason),
    });
  } catch (error) {
    if (!(error instanceof PurchaseConflictError)) throw error;
    // The job (or its lock) changed since it was read: usually its request recorded the receipt meanwhile and
    // starts the execution itself. A job still reserved is listed again next sweep, so a lasting cause shows.
    logger.warn('reserved job changed while reconciling; left to its request', { jobId: job.jobId, error: error.message });
    return 'changed';
  }
  if (decided === 'settled') {
    await deps.workflow.start(job);
    return 'reconciled';
  }
  if (decided === 'voided') {
    logger.warn('reserved job voided: its authorization was spent without paying', { jobId: job.jobId, payer: job.payer, reason: chain.state === 'spent' ? chain.reason : '' });
    return 'voided';
  }
  if (!requestOver || (job.validBefore !== undefined && now < job.validBefore * 1000)) {
    // Not used yet, but a transfer in flight could land until the authorization expires: decide after that.
    return 'waiting';
  }
  const reason = 'settlement was not confirmed';
  return voided(() => deps.ledger.markFailed(job.nonceKey!, reason, 'nothing-moved', deps.jobs.voidItem(job.jobId, reason)));
}

/** A void is one ledger transaction conditional on the job still `reserved`: a job that moved meanwhile is `changed`. */
async function voided(write: () => Promise<void>): Promise<ReservedOutcome> {
  try {
    await write();
    return 'voided';
  } catch (error) {
    if (error instanceof PurchaseConflictError) return 'changed';
    throw error;
  }
}

/** What the chain's answer did to an open purchased item (`unused`: nothing yet; each item has its own rule for that). */
type Decided = 'settled' | 'voided' | 'unused';

/**
 * The rule per chain state, one for every open purchased item (a reserved job, an open run, and what the purchase
 * skeleton sells next): paid → the receipt recorded with the item's settled entry; spent without paying → the lock
 * released with the item's refused entry (nothing reached us, and this authorization never can: no wait for its
 * validBefore); unused → nothing written. Each write is one ledger transaction conditional on the item still open.
 */
async function applyChain(
  ledger: Pick<PaymentLedger, 'markSettled' | 'markFailed'>,
  nonceKey: string,
  chain: PaidOnChain,
  item: { settled: (transaction: string) => LedgerItems; refused: (reason: string) => LedgerItems },
): Promise<Decided> {
  if (chain.state === 'paid') {
    await ledger.markSettled(nonceKey, chain.transaction, item.settled(chain.transaction));
    return 'settled';
  }
  if (chain.state === 'spent') {
    await ledger.markFailed(nonceKey, chain.reason, 'nothing-moved', item.refused(chain.reason));
    return 'voided';
  }
  return 'unused';
}

async function resume(deps: SweepDeps, job: JobRecord, result: SweepResult): Promise<void> {
  if (result.started.includes(job.jobId)) return;
  if ((await deps.workflow.start(job)) === 'started') {
    result.started.push(job.jobId);
    return;
  }
  if ((await deps.workflow.state(job.jobId, job.product)) === 'RUNNING') {
    result.running.push(job.jobId);
    return;
  }
  // A queued or processing job was paid for: failing it owes the payer a refund (the refund pass above sends it).
  await deps.jobs.fail(job.jobId, 'Generation failed: the render ended without a result', ['queued', 'processing'], refundOwed(job));
  result.failed.push(job.jobId);
}

/**
 * An open run whose function stopped before its last write, or whose settlement's outcome was unknown (x402 only:
 * runs accept no tokens; a key that is not an x402 nonce key makes paidOnChain throw, and the run is left alone and
 * logged). The chain decides by the payment core's rule:
 * - Paid (our transfer landed): record the receipt with its transaction and the run `done`, with the result it kept
 *   while its settlement was unknown (GET /api/runs/{runId} then answers it), or, for a run whose function died
 *   before it had one, without (RECONCILED_RUN_NOTE); the ledger row becomes `settled`, from `locked` or `uncertain`.
 * - Spent without paying (the buyer canceled the authorization): nothing reached us and nothing can; the run
 *   becomes `failed` and the lock is released (the chain refuses the nonce anyway).
 * - Unspent, run `running`: the run becomes `settlement-unknown` and the lock `uncertain` — never released. Releasing
 *   ("nothing moved") is only safe once the authorization can no longer be submitted, i.e. after its validBefore,
 *   and nothing bounds that: our offers ask for maxTimeoutSeconds = 300 (MAX_TIMEOUT_SECONDS), but the verifier
 *   (lambdas/payments/verify.ts checkOffChain) only requires validBefore > now + SETTLE_MARGIN_SECONDS, and the run
 *   row does not record validBefore. A transfer we broadcast could still be mined long after the run died, and
 *   a released lock would leave a payment the record denies (the run `failed`, no receipt, the buyer charged
 *   without a result). Keeping the lock costs the buyer only a fresh authorization.
 * - Unspent, run `settlement-unknown`: left as it is; asked again at every sweep, so a transfer that lands later is
 *   still recorded.
 */
async function reconcileRun(deps: SweepDeps, runs: NonNullable<SweepDeps['runs']>, run: RunRecord, result: SweepResult): Promise<void> {
  if (!run.nonceKey) return;
  const chain = await deps.paidOnChain({ nonceKey: run.nonceKey, amount: BigInt(run.cost), notBefore: Date.parse(run.createdAt) });
  const decided = await applyChain(deps.ledger, run.nonceKey, chain, {
    // A run that kept its result while its settlement was unknown is recorded with it; one that never had one says so.
    settled: (transaction) => runs.reconciledItem(run.runId, transaction, run.result === undefined ? RECONCILED_RUN_NOTE : undefined),
    refused: (reason) => runs.failItem(run.runId, `Payment not settled: ${reason}`, OPEN_RUN_STATUSES),
  });
  if (decided === 'settled') {
    result.runsSettled.push(run.runId);
  } else if (decided === 'voided') {
    result.runsVoided.push(run.runId);
  } else if (run.status === 'running') {
    const reason = 'the run stopped before recording its settlement; the authorization is unused on chain so far';
    await deps.ledger.markFailed(run.nonceKey, reason, 'may-have-moved', runs.unknownItem(run.runId, reason));
    result.runsUnknown.push(run.runId);
  } else {
    result.runsWaiting.push(run.runId);
  }
}

/**
 * An open top-up (`reserved`: its request stopped before recording; `pending`: the settlement's outcome was unknown),
 * by the same rule as an open run: paid → the entry `credited` and the balance increment with the receipt (once: the
 * entry moves only from an open status); spent without paying → the entry removed and the lock released; unused and
 * `reserved` → `pending` with the lock `uncertain` (never released: nothing bounds validBefore, see reconcileRun);
 * unused and `pending` → asked again next sweep.
 */
async function reconcileTopUp(deps: SweepDeps, topUps: NonNullable<SweepDeps['topUps']>, entry: LedgerEntry, result: SweepResult): Promise<void> {
  if (!entry.nonceKey || !entry.keyHash) return;
  const chain = await deps.paidOnChain({ nonceKey: entry.nonceKey, amount: entry.amount, notBefore: Date.parse(entry.createdAt) });
  const decided = await applyChain(deps.ledger, entry.nonceKey, chain, {
    settled: (transaction) => topUps.creditTopUpItems(entry, transaction),
    refused: () => topUps.voidTopUpItem(entry),
  });
  if (decided === 'settled') {
    result.topUpsCredited.push(entry.entryKey);
  } else if (decided === 'voided') {
    result.topUpsVoided.push(entry.entryKey);
  } else if (entry.status === 'reserved') {
    const reason = 'the top-up stopped before recording its settlement; the authorization is unused on chain so far';
    await deps.ledger.markFailed(entry.nonceKey, reason, 'may-have-moved', topUps.pendingTopUpItem(entry, reason));
    result.topUpsPending.push(entry.entryKey);
  } else {
    result.topUpsWaiting.push(entry.entryKey);
  }
}

async function guarded(keys: Record<string, string>, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    logger.error('sweep of an item failed', { ...keys, error: (error as Error).message });
  }
}
