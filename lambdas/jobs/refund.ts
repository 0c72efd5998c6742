/**
 * The refund of a failed paid job: run by the workflow right after it marks the job failed, and by the sweeper for
 * any refund still owed (a failed attempt, a crash between the two). Safe to run any number of times, concurrently:
 * the money moves at most once (the refund's EIP-3009 nonce is derived from the job id; lambdas/payments/refund.ts),
 * and a refund recorded `refunded` is never overwritten.
 *
 *   x402 payment   → a USDC transfer of the paid amount back to the payer: `refunded` with its transaction, or
 *                    `failed` with the reason (retried by the sweeper; counted as RefundsFailed, which is alarmed).
 *   token payment  → the issuer here has no refund interface: recorded as owed (`pending`, `owed: token`) for an
 *                    operator, counted as RefundsOwed.
 */
import type { JobRecord } from '../store/jobs.js';
import type { JobRefundStore } from '../store/job-refunds.js';
import type { Refunder } from '../payments/refund.js';
import type { Hex } from '../payments/types.js';
import { PRODUCTS } from '../products/products.js';
import { logger } from '../shared/logger.js';
import { countRefund } from '../shared/metrics.js';
import { resolvePreconfirmed, type PreconfirmedDeps } from './preconfirmed.js';

export interface RefundDeps {
  jobs: Pick<JobRefundStore, 'get' | 'setRefund' | 'dropRefund'>;
  refunder: Refunder;
  /** Where a payment answered on its preconfirmation stands (docs/decisions/0021): nothing is refunded before it landed. */
  preconfirmed?: PreconfirmedDeps;
}

export type RefundOutcome = 'refunded' | 'already-refunded' | 'owed' | 'failed' | 'retry' | 'not-owed';

/** Thrown when a refund could not be made for a reason that may pass (the chain, the settler): retry later. */
export class TransientRefundError extends Error {
  static readonly errorName = 'TransientRefundError';
  override name = TransientRefundError.errorName;
}

/** Whether a job ended `failed` after its payment settled (so its money is owed back). */
export function refundOwed(job: Pick<JobRecord, 'transaction' | 'payer'>): boolean {
  return Boolean(job.transaction && job.payer);
}

export async function refundFailedJob(deps: RefundDeps, jobId: string): Promise<RefundOutcome> {
  const job = await deps.jobs.get(jobId);
  if (!job || job.status !== 'failed' || !refundOwed(job)) return 'not-owed';
  if (job.refund?.status === 'refunded') return 'already-refunded';
  // A payment answered on its preconfirmation is refunded once it is in a sealed block, and never if it did not land.
  if (job.preconfirmed) {
    if (!deps.preconfirmed) throw new TransientRefundError(`Refund of job ${jobId} waits: this task cannot tell where its preconfirmed payment stands`);
    const finality = await resolvePreconfirmed(deps.preconfirmed, job);
    if (finality === 'pending') throw new TransientRefundError(`Refund of job ${jobId} waits for its payment's sealed block`);
    if (finality === 'never') {
      await deps.jobs.dropRefund(jobId);
      logger.warn('no refund: the preconfirmed payment never landed', { jobId, payer: job.payer });
      return 'not-owed';
    }
  }
  if (job.paymentKind === 'token') {
    if (job.refund?.owed !== 'token') {
      await deps.jobs.setRefund(jobId, { status: 'pending', owed: 'token' });
      countRefund('owed', job.product);
      logger.warn('refund owed for a token payment (no issuer refund interface): settle it by hand', { jobId, payer: job.payer });
    }
    return 'owed';
  }
  const amount = BigInt(job.amount ?? PRODUCTS[job.product].amount);
  const result = await deps.refunder.refund({ jobId, payer: job.payer as Hex, amount });
  if (result.ok) {
    if (await deps.jobs.setRefund(jobId, { status: 'refunded', transaction: result.transaction })) {
      countRefund('refunded', job.product, amount);
      logger.info('refunded', { jobId, payer: job.payer, amount: amount.toString(), transaction: result.transaction });
    }
    return 'refunded';
  }
  logger.error('refund not made', { jobId, payer: job.payer, reason: result.reason, retry: result.retry });
  await deps.jobs.setRefund(jobId, { status: result.retry ? 'pending' : 'failed', reason: result.reason });
  countRefund('failed', job.product);
  if (result.retry) throw new TransientRefundError(`Refund of job ${jobId} not made yet: ${result.reason}`);
  return 'failed';
}
