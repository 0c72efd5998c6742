/**
 * Task "Deliver webhook" of the webhook machine (lib/webhook-workflow.ts): one attempt at a job's webhook
 * (lambdas/webhooks/deliver.ts), answering the machine whether to wait and call again.
 */
import { deliverWebhook, type DeliveryStep } from '../webhooks/deliver.js';
import { postWebhook } from '../webhooks/post.js';
import { webhookPolicy } from '../webhooks/address.js';
import { serviceKey } from '../jobs/job-secrets.js';
import { JobStore } from '../store/jobs.js';
import { JobWebhookStore } from '../store/job-webhooks.js';
import { assetConfig, checkAtColdStart } from '../shared/config.js';
import { traced } from '../shared/tracing.js';

// The delivered body names assets by their public URL.
checkAtColdStart(assetConfig);
const deps = { jobs: new JobStore(), webhooks: new JobWebhookStore(), key: () => serviceKey(), post: postWebhook, policy: webhookPolicy() };

export const handler = traced(async (input: { jobId: string }): Promise<DeliveryStep> => deliverWebhook(deps, input.jobId), (input) => ({ jobId: input.jobId }));
