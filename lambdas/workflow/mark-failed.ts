/** Step Functions task: see markFailed in tasks.ts. */
import { markFailed } from './tasks.js';
import { taskDeps } from './deps.js';

export const handler = (input: Parameters<typeof markFailed>[1]) => markFailed(taskDeps(), input);
