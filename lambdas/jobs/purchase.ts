/**
 * Purchase a job with a verified payment (spec "The paid request, in order", steps 7 to 9), on the payment core's
 * purchase skeleton (lambdas/payments/core/purchase.ts, docs/decisions/0011) with the job as its item. Returns what
 * happened, never an HTTP answer: each surface's presenter turns the result into its own shape (a 202/200/402 on
 * HTTP, a tool result on MCP). Settlement happens here, not in a middleware's `after` (docs/decisions/0001).
 *
 *  1. lock the authorization and write the job `reserved`: one ledger transaction, before money moves;
 *  2. settle through the payment core:
 *     - refused (nothing moved): void the job, release the lock → `refused` (with Retry-After when back-pressured);
 *     - settler unavailable (no key with gas): void the job, release the lock → `unavailable` (a 503);
 *     - unknown outcome, x402 (a transfer broadcast without a receipt): keep the job reserved and the lock held;
 *       the chain decides and the sweeper reconciles → `accepted` without a receipt;
 *     - unknown outcome, token (the issuer may have charged; no status lookup): void the job and keep the lock
 *       `uncertain` → `refused`: nothing runs, the token cannot pay twice;
 *  3. settled: record the receipt and queue the job in one ledger transaction;
 *  4. start the product's execution (named by the job id); on failure the sweeper starts it;
 *  5. `accepted` with the receipt, or for a blocking call wait (within the budget) → `finished`.
 * After step 2 settles nothing throws: the buyer paid and the job will run.
 */
import { randomUUID } from 'node:crypto';
import type { ProductId } from '../products/catalog.js';
import type { AcceptedPayment } from '../payments/core/types.js';
import { purchase, type PurchasedItem, type PurchaseSkeletonDeps } from '../payments/core/purchase.js';
import type { PaymentReceipt } from '../payments/types.js';
import { JOB_TTL_SECONDS, type JobRecord, type JobStore } from '../store/jobs.js';
import type { WorkflowStarter } from '../store/workflow.js';
import { logger } from '../shared/logger.js';
import { annotate } from '../shared/tracing.js';

export interface PurchaseDeps extends PurchaseSkeletonDeps {
  jobs: Pick<JobStore, 'get' | 'reserveItem' | 'queueItem' | 'voidItem'>;
  workflow: Pick<WorkflowStarter, 'start'>;
  /** The render provider a new job of this product is recorded with (and rendered by). */
  providerFor: (product: ProductId) => string;
  now?: () => Date;
  newId?: () => string;
  sleep?: (ms: number) => Promise<void>;
}

export interface PurchaseInput {
  product: ProductId;
  request: Record<string, unknown>;
  payment: AcceptedPayment;
  /** Wait for the asset (`?async=false`) up to this many ms; 0 answers at once. */
  blockingWaitMs: number;
  /**
   * Epoch ms by which the answer must be on its way (the function's time-out less a margin): the settlement's
   * receipt wait and the blocking wait end by then, so a paid buyer never meets a time-out after money moved.
   */
  deadline?: number;
  /**
   * Where the job's end is POSTed (a URL already checked: lambdas/webhooks/address.ts) and the base URL the buyer
   * called, for the URLs of the delivered body. Recorded with the job, `waiting` for its delivery.
   */
  webhook?: { url: string; base: string };
}

export type JobPurchase =
  /** Nothing was charged (or, for a token of unknown outcome, nothing runs): answer with the offer's 402. */
  | { type: 'refused'; reason: string; retryAfterSeconds?: number }
  /** The settler cannot take payments now; nothing was charged and the authorization is free again: a 503. */
  | { type: 'unavailable'; reason: string }
  /** The job is taken; `receipt` is absent while the settlement's outcome is still unknown. */
  | { type: 'accepted'; job: JobRecord; receipt?: PaymentReceipt }
  /** A blocking call whose job reached `completed` or `failed` within the budget. */
  | { type: 'finished'; job: JobRecord; receipt: PaymentReceipt };

export async function purchaseJob(deps: PurchaseDeps, input: PurchaseInput): Promise<JobPurchase> {
  const job = newJob(deps, input);
  const keys = { jobId: job.jobId, payer: job.payer, product: job.product };
  const log = logger.createChild({ persistentKeys: keys });
  annotate(keys);
  const { payment } = input;

  // A job delivers nothing until its render is done, and its delivery waits for the sealed block: its payment is
  // answered on a preconfirmed receipt where a preconfirmation endpoint is configured (docs/decisions/0021).
  const outcome = await purchase(deps, payment, jobItem(deps, job, payment), { log, deadline: input.deadline, preconfirmation: payment.kind === 'x402' });
  switch (outcome.type) {
    case 'refused':
    case 'unavailable':
      return outcome;
    case 'unknown':
      // x402: the job stays reserved with its lock, and the chain decides (the sweeper, or a poll, reconciles it).
      // A token (no status lookup): the job was voided with the lock kept `uncertain`, so nothing runs.
      return outcome.kept ? { type: 'refused', reason: outcome.reason } : { type: 'accepted', job };
    case 'settled':
      break;
  }

  // From here on money has moved: start, and answer whatever a dependency does.
  const { receipt } = outcome;
  if (outcome.recorded) {
    Object.assign(job, { status: 'queued', transaction: receipt.transaction, ...(receipt.preconfirmed ? { preconfirmed: true } : {}) });
    try {
      await deps.workflow.start(job);
    } catch (error) {
      log.error('execution not started; the sweeper starts it', { error: (error as Error).message });
    }
  }
  log.info('job accepted', { transaction: receipt.transaction });

  if (input.blockingWaitMs > 0) {
    const budget = Math.min(input.blockingWaitMs, (input.deadline ?? Infinity) - Date.now());
    const finished = await waitForFinal(deps, job.jobId, budget);
    // Beyond the wait budget the job still completes; the accepted answer says where to poll.
    if (finished) return { type: 'finished', job: finished, receipt };
  }
  return { type: 'accepted', job, receipt };
}

/**
 * A job as the skeleton's purchased item: reserved with the lock, voided when nothing moved, queued with the receipt.
 * An x402 payment of unknown outcome leaves it reserved (the chain decides); a token's voids it, the lock `uncertain`.
 */
function jobItem(deps: PurchaseDeps, job: JobRecord, payment: AcceptedPayment): PurchasedItem<void> {
  return {
    ref: `job#${job.jobId}`,
    sold: job.product,
    reserve: deps.jobs.reserveItem(job),
    // Refused to the buyer (a 402): the webhook goes with the job, since no 202 gave its secret.
    refused: (reason) => deps.jobs.voidItem(job.jobId, reason, true),
    unknown: (reason) => (payment.kind === 'token' ? deps.jobs.voidItem(job.jobId, reason, true) : undefined),
    settled: (transaction, _work, receipt) => deps.jobs.queueItem(job.jobId, transaction, receipt.preconfirmed === true),
  };
}

function newJob(deps: PurchaseDeps, input: PurchaseInput): JobRecord {
  const at = (deps.now ?? (() => new Date()))();
  const { payment } = input;
  return {
    jobId: (deps.newId ?? randomUUID)(),
    product: input.product,
    status: 'reserved',
    request: input.request,
    provider: deps.providerFor(input.product),
    payer: payment.payer,
    ...(payment.kind === 'x402' ? { buyer: payment.payer.toLowerCase() } : {}),
    paymentKind: payment.kind,
    amount: payment.amount.toString(),
    nonceKey: payment.nonceKey,
    ...(payment.kind === 'x402' ? { validBefore: Number(payment.payload.payload.authorization.validBefore) } : {}),
    ...(input.webhook
      ? { webhook: { attempts: 0, lastStatus: null, nextAttemptAt: null, delivered: false }, webhookTarget: input.webhook, webhookOpen: 'waiting' as const }
      : {}),
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    expiresAt: Math.floor(at.getTime() / 1000) + JOB_TTL_SECONDS,
  };
}

async function waitForFinal(deps: PurchaseDeps, jobId: string, budgetMs: number): Promise<JobRecord | undefined> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = Date.now() + budgetMs;
  let delay = 100;
  while (Date.now() < deadline) {
    await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
    try {
      const job = await deps.jobs.get(jobId);
      if (job && (job.status === 'completed' || job.status === 'failed')) return job;
    } catch {
      // a failed poll only shortens the wait; the buyer can still poll
    }
    delay = Math.min(delay * 2, 1000);
  }
  return undefined;
}
