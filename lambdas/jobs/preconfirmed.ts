/**
 * A job paid on a preconfirmed receipt (docs/decisions/0021): the 202 went out on Base's Flashblocks preconfirmation,
 * and nothing of the job is delivered — no completed job, no asset, no refund — until its transfer is seen in a sealed
 * block. This decides where such a payment stands, by the rule every reconciler uses ("paid means our transfer landed":
 * lambdas/payments/core/paid-on-chain.ts), read from the sealed chain:
 *  - `final`: our transfer landed (in that transaction, recorded on the job, its flag removed): deliver as any job;
 *  - `pending`: the authorization is unused and still valid, so the transfer may yet land: ask again later;
 *  - `never`: the authorization can no longer pay us (spent otherwise, or expired unused): the job ends as if the
 *    payment never landed — failed, nothing delivered, nothing refunded.
 */
import type { JobRecord } from '../store/jobs.js';
import type { JobCompletionStore } from '../store/job-completions.js';
import type { OnChainPayment, PaidOnChain } from '../payments/core/paid-on-chain.js';

export type Finality = 'final' | 'pending' | 'never';

/** The error a job's end is recorded with when its preconfirmed payment never landed. */
export const PAYMENT_NEVER_LANDED = 'Payment not settled: the preconfirmed transfer never landed in a block';

export interface PreconfirmedDeps {
  jobs: Pick<JobCompletionStore, 'confirmPayment'>;
  paidOnChain: (payment: OnChainPayment) => Promise<PaidOnChain>;
  now?: () => number;
}

export async function resolvePreconfirmed(deps: PreconfirmedDeps, job: JobRecord): Promise<Finality> {
  if (!job.preconfirmed) return 'final';
  if (!job.nonceKey || job.amount === undefined) throw new Error(`job ${job.jobId} is preconfirmed but names no authorization`);
  const paid = await deps.paidOnChain({ nonceKey: job.nonceKey, amount: BigInt(job.amount), notBefore: Date.parse(job.createdAt) });
  if (paid.state === 'paid') {
    await deps.jobs.confirmPayment(job.jobId, paid.transaction);
    return 'final';
  }
  if (paid.state === 'spent') return 'never';
  const nowSeconds = (deps.now ?? Date.now)() / 1000;
  return job.validBefore !== undefined && nowSeconds > job.validBefore ? 'never' : 'pending';
}
