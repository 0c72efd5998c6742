/** Scheduled Lambda: the sweeper of jobs and paid agent runs (see sweeper.ts). */
import { sweep } from './sweeper.js';
import { sweepDeps } from './sweep-deps.js';
import { flushMetrics } from '../shared/metrics.js';
import { traced } from '../shared/tracing.js';

/** Jobs untouched for this long are looked at; renders update their job when they start and end. */
export const IDLE_SECONDS = 120;

// Built (and the configuration checked) at cold start.
const deps = sweepDeps();

// The sweep's counts (voided, reconciled, stuck) are written as the invocation ends. Traced, and the logger gets the
// invocation's context (shared/tracing.ts); a sweep spans many jobs, so it carries no job annotation.
export const handler = traced(async (_scheduled: void) => {
  try {
    return await sweep(deps, IDLE_SECONDS);
  } finally {
    flushMetrics();
  }
});
