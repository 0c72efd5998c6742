/** Step Functions task: see markFailed in tasks.ts. */
import { markFailed } from './tasks.js';
import { taskDeps } from './deps.js';

// Built (and the configuration checked) at cold start, not on the first task.
const deps = taskDeps();

export const handler = (input: Parameters<typeof markFailed>[1]) => markFailed(deps, input);
