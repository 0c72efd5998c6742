/** GET /song/{songId} — the public share page of a song (HTML): title, cover art and, once ready, the player. */
import { pollEntry } from './poll-entry.js';
import { GENERATION } from '../surfaces/surface.js';
import { JobStore } from '../store/jobs.js';
import { songRow } from '../jobs/views.js';
import { baseUrl } from '../shared/http.js';
import { urlsFor } from '../jobs/urls.js';

const jobs = new JobStore();

const escape = (value: unknown) =>
  String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const handler = pollEntry(async (event) => {
  const songId = event.pathParameters?.songId ?? '';
  const job = await jobs.get(songId);
  const html = (status: number, title: string, inner: string, refresh = false) => ({
    statusCode: status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">${
      refresh ? '<meta http-equiv="refresh" content="5">' : ''
    }<title>${escape(title)}</title></head><body style="font-family:sans-serif;max-width:40rem;margin:2rem auto">${inner}</body></html>`,
  });
  if (!job || job.product !== 'create_music' || job.status === 'reserved') {
    return html(404, 'Song not found', '<h1>Song not found</h1>');
  }
  const row = songRow(job, urlsFor(baseUrl(event, GENERATION)));
  const title = String(row.title);
  const cover = `<img src="${escape(row.image_url)}" alt="Cover art" width="320" height="320">`;
  if (row.model_version === 'pending') return html(200, title, `<h1>${escape(title)}</h1>${cover}<p>Rendering… this page refreshes.</p>`, true);
  if (row.model_version === 'failed') return html(200, title, `<h1>${escape(title)}</h1><p>${escape(row.error)}</p>`);
  return html(
    200,
    title,
    `<h1>${escape(title)}</h1>${cover}<p><audio controls src="${escape(row.audio_url)}"></audio></p><p>${escape(row.prompt)}</p>`,
  );
});
