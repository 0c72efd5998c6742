/** The song lookup behind `get_music_with_token`: the same row and visibility as `GET /api/songs/{songId}`. */
import { JobStore } from '../../store/jobs.js';
import { songRow } from '../../products/views.js';
import { urlsFor } from '../../http/urls.js';
import type { ReadSong } from './tools.js';

export function songReader(jobs: Pick<JobStore, 'get'> = new JobStore()): ReadSong {
  return async (songId, baseUrl) => {
    const job = await jobs.get(songId);
    // A reserved row is a payment still settling, not a song yet: the poll route answers 404 for it too.
    if (!job || job.product !== 'create_music' || job.status === 'reserved') return undefined;
    return songRow(job, urlsFor(baseUrl));
  };
}
