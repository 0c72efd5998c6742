/** GET /agent/image/{jobId} — the image job; an unknown or expired id answers 200 `failed` with pollUrl null. */
import { mediaPollEntry } from './poll-entry.js';

export const handler = mediaPollEntry('agent_image');
