/** The song lookup behind `GET /api/songs/{songId}` and `get_music_with_token`: one row, one visibility rule. */
import { JobStore } from '../../store/jobs.js';
import { songRow } from '../../jobs/views.js';
import { urlsFor } from '../../jobs/urls.js';
import type { ReadSong } from './tools.js';

export function songReader(jobs: Pick<JobStore, 'get'> = new JobStore()): ReadSong {
  return async (songId, baseUrl) => {
    const job = await jobs.get(songId);
    // A reserved row (settlement in flight or being reconciled) is a paid song whose id the buyer may already
    // hold: it reads `pending`, never 404 ("a 404 means the id is wrong").
    if (!job || job.product !== 'create_music') return undefined;
    return songRow(job, urlsFor(baseUrl));
  };
}
