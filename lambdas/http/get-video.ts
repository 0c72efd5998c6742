/** GET /agent/video/{jobId} — the video job; an unknown or expired id answers 200 `failed` with pollUrl null. */
import { mediaPollEntry } from './poll-entry.js';

export const handler = mediaPollEntry('agent_video');
