/** Runs the job sweeper once with no idle threshold (at startup, every unfinished job is orphaned). */
import { sweep } from '../../lambdas/workflow/sweeper.js';
import { JobStore } from '../../lambdas/store/jobs.js';
import { WorkflowStarter } from '../../lambdas/store/workflow.js';

export function sweepNow() {
  return sweep({ jobs: new JobStore(), workflow: new WorkflowStarter() }, 0);
}
