/** GET /api/purchases on the generation surface: the signed-in wallet's jobs (lambdas/purchases/entry.ts). */
import { purchasesEntry, price } from '../purchases/entry.js';
import { BUYER_JOBS_INDEX, BUYER_JOBS_KEY, type JobRecord } from '../store/jobs.js';
import { storeConfig } from '../shared/config.js';
import { pollUrl } from '../jobs/views.js';
import { GENERATION } from '../surfaces/surface.js';

export const handler = purchasesEntry<JobRecord>(GENERATION, {
  index: () => ({ table: storeConfig().jobsTable, indexName: BUYER_JOBS_INDEX, keyName: 'jobId', keys: BUYER_JOBS_KEY }),
  view: (job, base) => ({
    kind: 'job',
    id: job.jobId,
    item: job.product,
    status: job.status,
    ...price(job.amount),
    transaction: job.transaction ?? null,
    url: pollUrl(job.product, job.jobId, base),
    createdAt: job.createdAt,
    ...(job.refund ? { refund: { status: job.refund.status, transaction: job.refund.transaction ?? null } } : {}),
  }),
});
