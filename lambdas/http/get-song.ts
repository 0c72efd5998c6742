/** GET /api/songs/{songId} — the song row; 404 `{ error }` for an unknown id (paid songs are public). */
import { pollEntry, pollReconciler } from './poll-entry.js';
import { GENERATION } from '../surfaces/surface.js';
import { songReader } from '../protocols/mcp/songs.js';
import { NotFoundError } from '../shared/errors.js';
import { baseUrl, json } from '../shared/http.js';

// A reserved song (its payment's outcome unknown) is reconciled by its poll, as video and image jobs are.
const readSong = songReader(pollReconciler());

export const handler = pollEntry(async (event) => {
  const songId = event.pathParameters?.songId ?? '';
  const row = await readSong(songId, baseUrl(event, GENERATION));
  if (!row) throw new NotFoundError(`Song '${songId}' not found`);
  return json(200, row, { 'Cache-Control': 'no-store' });
});
