/**
 * Accept a paid job (spec "The paid request, in order", steps 7 to 9):
 *  1. lock the authorization nonce and write the job row `reserved`, in one transaction, before money moves;
 *  2. settle; on a failure that moved no money void the job, release the nonce and answer 402. When an x402
 *     transfer was broadcast but its outcome is unknown (no receipt in time), the job stays `reserved` and the
 *     answer is 202: the chain decides, and the sweeper either records the receipt and starts the job or voids it.
 *     A token charge of unknown outcome is refused with 402 and nothing runs (the token id stays locked);
 *  3. record the receipt and make the job durable (`queued`);
 *  4. start the product's execution named by the job id; if that fails the sweeper starts it later;
 *  5. answer 202 with the poll URL, or for `?async=false` wait (within a budget) for the asset and answer 200.
 * After step 2 succeeds nothing answers 5xx: the buyer paid and the job will run.
 */
import { randomUUID } from 'node:crypto';
import type { ProductId } from '../products/catalog.js';
import type { AcceptedPayment, ChargeOptions, ChargeResult, PaymentReceipt } from '../payments/types.js';
import { encodeBase64Json } from '../payments/types.js';
import { JOB_TTL_SECONDS, type JobRecord, type JobStore } from '../store/jobs.js';
import { PaymentAlreadyUsedError, type PaymentStore } from '../store/payments.js';
import type { WorkflowStarter } from '../store/workflow.js';
import { acceptedBody, mediaJob, musicBlockingBody, type Urls } from '../products/views.js';
import { json, type HttpResult } from '../shared/http.js';
import { logger } from '../shared/logger.js';

export interface AcceptDeps {
  jobs: Pick<JobStore, 'get'>;
  payments: Pick<PaymentStore, 'reserve' | 'settled' | 'settleFailed'>;
  /** Settles an x402 authorization or charges a token; waits for a receipt no later than `deadline`. */
  charge: (payment: AcceptedPayment, options?: ChargeOptions) => Promise<ChargeResult>;
  workflow: Pick<WorkflowStarter, 'start'>;
  providerName: string;
  now?: () => Date;
  newId?: () => string;
  sleep?: (ms: number) => Promise<void>;
}

export interface AcceptInput {
  product: ProductId;
  request: Record<string, unknown>;
  payment: AcceptedPayment;
  urls: Urls;
  blocking: boolean;
  blockingWaitMs: number;
  /**
   * Epoch ms by which the answer must be on its way (the function's time-out less a margin): the settlement's
   * receipt wait and the blocking wait end by then, so a paid buyer never meets a time-out after money moved.
   */
  deadline?: number;
}

/** Refusals before any money moved; mapped to a 402 with this reason. */
export class PaymentRefused extends Error {
  override name = 'PaymentRefused';
}

export async function acceptPaidJob(deps: AcceptDeps, input: AcceptInput): Promise<HttpResult> {
  const now = deps.now ?? (() => new Date());
  const at = now();
  const job: JobRecord = {
    jobId: (deps.newId ?? randomUUID)(),
    product: input.product,
    status: 'reserved',
    request: input.request,
    provider: deps.providerName,
    payer: input.payment.payer,
    paymentKind: input.payment.kind,
    nonceKey: input.payment.nonceKey,
    ...(input.payment.kind === 'x402' ? { validBefore: Number(input.payment.payload.payload.authorization.validBefore) } : {}),
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    expiresAt: Math.floor(at.getTime() / 1000) + JOB_TTL_SECONDS,
  };
  const log = logger.createChild({ persistentKeys: { jobId: job.jobId, payer: job.payer, product: job.product } });

  try {
    await deps.payments.reserve(input.payment.nonceKey, input.payment.amount, input.payment.payer, job);
  } catch (error) {
    if (error instanceof PaymentAlreadyUsedError) throw new PaymentRefused(error.message);
    throw error;
  }

  const settlement = await deps.charge(input.payment, { deadline: input.deadline });
  if (!settlement.ok) {
    log.warn('settlement failed', { reason: settlement.reason, broadcast: settlement.broadcast });
    if (settlement.broadcast && input.payment.kind === 'x402') {
      // The transfer may land: keep the job reserved with its nonce locked and let the chain decide (sweeper).
      log.error('settlement outcome unknown; the sweeper reconciles the job against the chain', { reason: settlement.reason });
      return json(202, acceptedBody(job, input.urls), { Location: String(acceptedBody(job, input.urls).pollUrl) });
    }
    try {
      await deps.payments.settleFailed(input.payment.nonceKey, job.jobId, settlement.reason, settlement.broadcast);
    } catch (error) {
      // The job stays reserved with its nonce locked; the sweeper voids it (nothing moved) later. Still a 402.
      log.error('could not void the job; the sweeper does', { error: (error as Error).message });
    }
    throw new PaymentRefused(settlement.reason);
  }
  const receipt: PaymentReceipt = { success: true, transaction: settlement.transaction, network: settlement.network, payer: settlement.payer };
  const receiptHeader = { 'PAYMENT-RESPONSE': encodeBase64Json(receipt) };

  // From here on money has moved: record, start, and answer 2xx whatever a dependency does.
  let recorded = false;
  try {
    await deps.payments.settled(input.payment.nonceKey, job.jobId, settlement.transaction);
    job.status = 'queued';
    job.transaction = settlement.transaction;
    recorded = true;
  } catch (error) {
    // The job stays `reserved`; the sweeper reads the chain, records the receipt and starts it.
    log.error('receipt not recorded; the sweeper reconciles it', { error: (error as Error).message, transaction: settlement.transaction });
  }
  if (recorded) {
    try {
      await deps.workflow.start(job.jobId, job.product);
    } catch (error) {
      log.error('execution not started; the sweeper starts it', { error: (error as Error).message });
    }
  }
  log.info('job accepted', { transaction: settlement.transaction });

  if (input.blocking) {
    const budget = Math.min(input.blockingWaitMs, (input.deadline ?? Infinity) - Date.now());
    const finished = await waitForFinal(deps, job.jobId, budget);
    if (finished) {
      const body = finished.product === 'create_music' ? musicBlockingBody(finished, input.urls) : mediaJob(finished, input.urls);
      return json(200, body, receiptHeader);
    }
    // Beyond the wait budget the job still completes; the 202 says where to poll.
  }
  return json(202, acceptedBody(job, input.urls), { ...receiptHeader, Location: String(acceptedBody(job, input.urls).pollUrl) });
}

async function waitForFinal(deps: AcceptDeps, jobId: string, budgetMs: number): Promise<JobRecord | undefined> {
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
