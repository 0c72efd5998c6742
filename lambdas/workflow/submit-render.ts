/** Step Functions task: see submitRender in tasks.ts. */
import { submitRender } from './tasks.js';
import { taskDeps } from './deps.js';

// Built (and the configuration checked) at cold start, not on the first task.
const deps = taskDeps();

export const handler = (input: Parameters<typeof submitRender>[1]) => submitRender(deps, input);
