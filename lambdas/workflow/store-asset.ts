/** Step Functions task: see storeAsset in tasks.ts. */
import { storeAsset } from './tasks.js';
import { taskDeps } from './deps.js';

export const handler = (input: Parameters<typeof storeAsset>[1]) => storeAsset(taskDeps(), input);
