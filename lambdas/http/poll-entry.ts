/** The Middy chain of a free poll route: frame (version ▸ errors) ▸ read the job. Polls are never charged or limited. */
import middy from '@middy/core';
import { frame } from '../middleware/http-frame.js';
import { baseUrl, json, type HttpEvent, type HttpResult } from '../shared/http.js';
import { assetConfig, checkAtColdStart, httpConfig, storeConfig } from '../shared/config.js';
import { JobStore } from '../store/jobs.js';
import { mediaJob, unknownMediaJob } from '../jobs/views.js';
import { GENERATION } from '../surfaces/surface.js';
import { urlsFor } from '../jobs/urls.js';

export function pollEntry(read: (event: HttpEvent) => Promise<HttpResult>) {
  checkAtColdStart(storeConfig, assetConfig, httpConfig);
  return middy<HttpEvent, HttpResult>().use(frame(GENERATION)).handler(read);
}

/** Poll of a video or image job: an unknown or expired id answers 200 `failed` with pollUrl null, never 404. */
export function mediaPollEntry(product: 'agent_video' | 'agent_image') {
  const jobs = new JobStore();
  return pollEntry(async (event) => {
    const jobId = event.pathParameters?.jobId ?? '';
    const job = await jobs.get(jobId);
    const body = job && job.product === product ? mediaJob(job, urlsFor(baseUrl(event, GENERATION))) : unknownMediaJob(product, jobId);
    return json(200, body, { 'Cache-Control': 'no-store' });
  });
}
