/**
 * Starting a job's webhook delivery once the job has ended (docs/decisions/0018). Whoever ends a job with a webhook calls this
 * after its final write: the workflow's Mark completed and Mark failed, the cancel route, the sweeper. It never
 * throws: a delivery that could not be started stays `waiting` in the jobs table's OpenWebhooks index, and the
 * sweeper starts it (lambdas/workflow/sweeper.ts), so an ender that dies between its write and the start loses
 * nothing.
 */
import { FINAL_STATUSES, type JobRecord } from '../store/jobs.js';
import type { WebhookStarter } from '../store/workflow.js';
import { logger } from '../shared/logger.js';

/** Starts the delivery when the job has ended, has a webhook and no delivery has taken it yet; true when it did (or one existed). */
export async function startWebhook(starter: Pick<WebhookStarter, 'start'>, job: JobRecord | undefined): Promise<boolean> {
  if (!job?.webhookTarget || job.webhookOpen !== 'waiting' || !FINAL_STATUSES.includes(job.status)) return false;
  try {
    await starter.start(job.jobId);
    return true;
  } catch (error) {
    logger.warn('webhook delivery not started; the sweeper starts it', { jobId: job.jobId, error: (error as Error).message });
    return false;
  }
}
