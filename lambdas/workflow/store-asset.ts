/** Step Functions task: see storeAsset in tasks.ts. */
import { storeAsset } from './tasks.js';
import { taskDeps } from './deps.js';
import { retryingTransient } from './transient.js';

// Built (and the configuration checked) at cold start, not on the first task.
const deps = taskDeps();

// A throttled or unavailable dependency is a TransientRenderError: the state machine retries it with back-off.
export const handler = (input: Parameters<typeof storeAsset>[1]) => retryingTransient(() => storeAsset(deps, input));
