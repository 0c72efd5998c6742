/** Step Functions task: see submitRender in tasks.ts. */
import { submitRender } from './tasks.js';
import { taskDeps } from './deps.js';

export const handler = (input: Parameters<typeof submitRender>[1]) => submitRender(taskDeps(), input);
