/** Step Functions task: see checkRender in tasks.ts. */
import { checkRender } from './tasks.js';
import { taskDeps } from './deps.js';

// Built (and the configuration checked) at cold start, not on the first task.
const deps = taskDeps();

export const handler = (input: Parameters<typeof checkRender>[1]) => checkRender(deps, input);
