/**
 * Step Functions task "Refund payment", right after "Mark failed": sends a failed paid job's money back to its payer
 * (lambdas/jobs/refund.ts). A refund that may pass (the chain, the settler busy) throws TransientRefundError, which
 * the state machine retries; whatever is still owed after that, the sweeper retries from the open-refunds index.
 */
import { refundFailedJob } from '../jobs/refund.js';
import { JobRefundStore } from '../store/job-refunds.js';
import { paymentConfig } from '../shared/config.js';
import { traced } from '../shared/tracing.js';
import { jobKeys, type ExecutionInput } from './tasks.js';
import { refunder } from './refund-deps.js';
import { preconfirmedDeps } from './preconfirmed-deps.js';

paymentConfig();
const jobs = new JobRefundStore();

// A preconfirmed payment is refunded once it is in a sealed block, never if it did not land (docs/decisions/0021).
const preconfirmed = preconfirmedDeps();

export const handler = traced(async (input: ExecutionInput) => ({ refund: await refundFailedJob({ jobs, refunder: refunder(), preconfirmed }, input.jobId) }), jobKeys);
