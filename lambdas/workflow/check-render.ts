/** Step Functions task: see checkRender in tasks.ts. */
import { checkRender } from './tasks.js';
import { taskDeps } from './deps.js';

export const handler = (input: Parameters<typeof checkRender>[1]) => checkRender(taskDeps(), input);
