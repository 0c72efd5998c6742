/** Step Functions task: see checkRender in tasks.ts. */
import { checkRender, jobKeys } from './tasks.js';
import { renderTaskDeps } from './render-deps.js';
import { retryingTransient } from './transient.js';
import { traced } from '../shared/tracing.js';

// Built (and the configuration checked) at cold start, not on the first task.
const deps = renderTaskDeps();

// A throttled or unavailable dependency is a TransientRenderError: the state machine retries it with back-off.
// Traced with the job's id and product as annotations; the logger gets the invocation's context (shared/tracing.ts).
export const handler = traced((input: Parameters<typeof checkRender>[1]) => retryingTransient(() => checkRender(deps, input)), jobKeys);
