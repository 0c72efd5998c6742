/** Step Functions task: see markCompleted in tasks.ts. */
import { markCompleted } from './tasks.js';
import { taskDeps } from './deps.js';

export const handler = (input: Parameters<typeof markCompleted>[1]) => markCompleted(taskDeps(), input);
