/** Step Functions task: see markCompleted in tasks.ts. */
import { markCompleted, jobKeys } from './tasks.js';
import { taskDeps } from './deps.js';
import { retryingTransient } from './transient.js';
import { flushMetrics } from '../shared/metrics.js';
import { traced } from '../shared/tracing.js';
import { WebhookStarter } from '../store/workflow.js';
import { checkAtColdStart, paymentConfig, webhookConfig } from '../shared/config.js';
import { JobCompletionStore } from '../store/job-completions.js';
import { preconfirmedDeps } from './preconfirmed-deps.js';

// Built (and the configuration checked) at cold start, not on the first task. This task ends jobs, so it starts their
// webhook deliveries (docs/decisions/0018).
checkAtColdStart(webhookConfig, paymentConfig);
// A job answered on a preconfirmed payment is completed only once its transfer is in a sealed block
// (docs/decisions/0021): the chain is asked through the function's RPC URL.
const jobs = new JobCompletionStore();
const deps = { ...taskDeps(), jobs, webhooks: new WebhookStarter(), preconfirmed: preconfirmedDeps(jobs) };

// A throttled or unavailable dependency is a TransientRenderError: the state machine retries it with back-off.
// Whatever the invocation counted is written as it ends (lambdas/shared/metrics.ts). Traced with the job's id and
// product as annotations; the logger gets the invocation's context (shared/tracing.ts).
export const handler = traced(async (input: Parameters<typeof markCompleted>[1]) => {
  try {
    return await retryingTransient(() => markCompleted(deps, input));
  } finally {
    flushMetrics();
  }
}, jobKeys);
