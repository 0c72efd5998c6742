/**
 * The sweeper keeps the promise "a job always ends completed or failed": a durable job (paid, queued or
 * processing) that has not moved for a while gets its execution started (idempotent by the job-id name); if an
 * execution with its name already ended without marking the job, the job is failed.
 */
import type { JobStore } from '../store/jobs.js';
import type { WorkflowStarter } from '../store/workflow.js';
import { logger } from '../shared/logger.js';

export interface SweepDeps {
  jobs: Pick<JobStore, 'listUnfinished' | 'fail'>;
  workflow: Pick<WorkflowStarter, 'start' | 'state'>;
  now?: () => Date;
}

export interface SweepResult {
  started: string[];
  failed: string[];
  running: string[];
}

export async function sweep(deps: SweepDeps, idleSeconds: number): Promise<SweepResult> {
  const now = (deps.now ?? (() => new Date()))();
  const result: SweepResult = { started: [], failed: [], running: [] };
  const stale = await deps.jobs.listUnfinished(new Date(now.getTime() - idleSeconds * 1000));
  for (const job of stale) {
    try {
      const started = await deps.workflow.start(job.jobId, job.product);
      if (started === 'started') {
        result.started.push(job.jobId);
        continue;
      }
      const state = await deps.workflow.state(job.jobId, job.product);
      if (state === 'RUNNING') {
        result.running.push(job.jobId);
      } else {
        await deps.jobs.fail(job.jobId, 'Generation failed: the render ended without a result', ['queued', 'processing']);
        result.failed.push(job.jobId);
      }
    } catch (error) {
      logger.error('sweep of job failed', { jobId: job.jobId, error: (error as Error).message });
    }
  }
  if (stale.length > 0) logger.info('sweep done', { ...result });
  return result;
}
