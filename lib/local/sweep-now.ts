/**
 * The embedded runtime's sweeps.
 * - At start, once, with no idle threshold: executions do not outlive the process, so every unfinished job of an
 *   earlier run is orphaned. Reserved jobs keep the usual rules (reconciled once their authorization is used, voided
 *   only after the void grace and their validBefore).
 * - Then on a schedule (startPeriodicSweep), the local stand-in for the EventBridge rule that runs the sweeper on
 *   AWS, so a payment whose outcome was unknown starts its job soon after it lands, as it does there.
 */
import { sweep } from '../../lambdas/workflow/sweeper.js';
import { sweepDeps } from '../../lambdas/workflow/sweep-deps.js';
import { SWEEPER } from '../../lambdas/surfaces/routes.js';
import { asFunction } from './iam/enforce.js';

/** Runs as the sweeper function: its calls are checked against the sweeper's policy. */
export function sweepNow() {
  return asFunction(SWEEPER.id, () => sweep(sweepDeps(), 0));
}

export interface PeriodicSweep {
  /** Cancels the next sweep and waits for the one in progress, if any. */
  stop(): Promise<void>;
}

/**
 * Runs `sweepOnce` `intervalMs` after the previous sweep ended, so two never overlap (on AWS they may, unless
 * `sweeperReservedConcurrency=1`: overlapping sweeps are safe, only wasteful). A failed sweep is reported and the
 * schedule goes on, as the next scheduled event would.
 */
export function startPeriodicSweep(sweepOnce: () => Promise<unknown>, intervalMs: number, onError: (error: Error) => void): PeriodicSweep {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inProgress: Promise<void> | undefined;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };
  const tick = () => {
    inProgress = sweepOnce()
      .then(
        () => undefined,
        (error: unknown) => onError(error instanceof Error ? error : new Error(String(error))),
      )
      .finally(() => {
        inProgress = undefined;
        schedule();
      });
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inProgress;
    },
  };
}
