/**
 * Runs the job sweeper once at start with no idle threshold: executions do not outlive the process, so every
 * unfinished job of an earlier run is orphaned. Reserved jobs keep the usual grace (a settlement may be in flight
 * on a chain that outlived us; locally it does not, and the grace only delays the void).
 */
import { sweep } from '../../lambdas/workflow/sweeper.js';
import { sweepDeps } from '../../lambdas/workflow/sweep-deps.js';
import { SWEEPER } from '../../lambdas/surfaces/routes.js';
import { asFunction } from './iam/enforce.js';

/** Runs as the sweeper function: its calls are checked against the sweeper's policy. */
export function sweepNow() {
  return asFunction(SWEEPER.id, () => sweep(sweepDeps(), 0));
}
