/**
 * Runs the job sweeper once at start with no idle threshold: executions do not outlive the process, so every
 * unfinished job of an earlier run is orphaned. Reserved jobs keep the usual grace (a settlement may be in flight
 * on a chain that outlived us; locally it does not, and the grace only delays the void).
 */
import { sweep } from '../../lambdas/workflow/sweeper.js';
import { sweepDeps } from '../../lambdas/workflow/sweep-deps.js';

export function sweepNow() {
  return sweep(sweepDeps(), 0);
}
