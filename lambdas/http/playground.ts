/** GET /playground — try every product in a browser, paid from a wallet (lambdas/playground/). */
import { playgroundEntry } from '../playground/entry.js';
import { GENERATION } from '../surfaces/surface.js';

export const handler = playgroundEntry(GENERATION);
