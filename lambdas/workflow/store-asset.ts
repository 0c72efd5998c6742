/** Step Functions task: see storeAsset in tasks.ts. */
import { storeAsset } from './tasks.js';
import { taskDeps } from './deps.js';

// Built (and the configuration checked) at cold start, not on the first task.
const deps = taskDeps();

export const handler = (input: Parameters<typeof storeAsset>[1]) => storeAsset(deps, input);
