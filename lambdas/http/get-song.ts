/** GET /api/songs/{songId} — the song row; 404 `{ error }` for an unknown id (paid songs are public). */
import { pollEntry } from './poll-entry.js';
import { JobStore } from '../store/jobs.js';
import { songRow } from '../products/views.js';
import { NotFoundError } from '../shared/errors.js';
import { baseUrl, json } from '../shared/http.js';
import { urlsFor } from './urls.js';

const jobs = new JobStore();

export const handler = pollEntry(async (event) => {
  const songId = event.pathParameters?.songId ?? '';
  const job = await jobs.get(songId);
  if (!job || job.product !== 'create_music' || job.status === 'reserved') {
    throw new NotFoundError(`Song '${songId}' not found`);
  }
  return json(200, songRow(job, urlsFor(baseUrl(event))), { 'Cache-Control': 'no-store' });
});
