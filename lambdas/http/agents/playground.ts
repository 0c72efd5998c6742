/** GET /playground on the agent studio — try every published agent in a browser, paid from a wallet. */
import { playgroundEntry } from '../../playground/entry.js';
import { AGENT_STUDIO } from '../../surfaces/surface.js';

export const handler = playgroundEntry(AGENT_STUDIO);
