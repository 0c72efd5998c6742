/** The sweeper's dependencies, built once per process (the scheduled Lambda and the embedded runtime's start). */
import { JobStore } from '../store/jobs.js';
import { PaymentStore } from '../store/payments.js';
import { WorkflowStarter } from '../store/workflow.js';
import { paymentMoved } from '../payments/reconcile.js';
import type { SweepDeps } from './sweeper.js';

let deps: SweepDeps | undefined;
export function sweepDeps(): SweepDeps {
  deps ??= { jobs: new JobStore(), payments: new PaymentStore(), workflow: new WorkflowStarter(), paymentMoved };
  return deps;
}
