/** Step Functions task: see markFailed in tasks.ts. */
import { markFailed, jobKeys } from './tasks.js';
import { taskDeps } from './deps.js';
import { retryingTransient } from './transient.js';
import { flushMetrics } from '../shared/metrics.js';
import { traced } from '../shared/tracing.js';
import { WebhookStarter } from '../store/workflow.js';
import { checkAtColdStart, webhookConfig } from '../shared/config.js';

// Built (and the configuration checked) at cold start, not on the first task. This task ends jobs, so it starts their
// webhook deliveries (docs/decisions/0018).
checkAtColdStart(webhookConfig);
const deps = { ...taskDeps(), webhooks: new WebhookStarter() };

// A throttled or unavailable dependency is a TransientRenderError: the state machine retries it with back-off.
// Whatever the invocation counted is written as it ends (lambdas/shared/metrics.ts). Traced with the job's id and
// product as annotations; the logger gets the invocation's context (shared/tracing.ts).
export const handler = traced(async (input: Parameters<typeof markFailed>[1]) => {
  try {
    return await retryingTransient(() => markFailed(deps, input));
  } finally {
    flushMetrics();
  }
}, jobKeys);
