/** Step Functions task: see markCompleted in tasks.ts. */
import { markCompleted } from './tasks.js';
import { taskDeps } from './deps.js';

// Built (and the configuration checked) at cold start, not on the first task.
const deps = taskDeps();

export const handler = (input: Parameters<typeof markCompleted>[1]) => markCompleted(deps, input);
