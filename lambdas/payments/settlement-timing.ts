/**
 * Where a paid request's time goes before its transfer reaches the node, as DEBUG log lines: on Base a transfer sent
 * late misses the block it could have made, and the buyer waits a whole block more (`npm run bench:settlement`).
 *
 * Each layer writes one line, message SETTLEMENT_TIMING, with `layer` and its own marks (epoch ms, sub-ms precision),
 * when it knows them all; the lines of one request share the logger's `function_request_id` (one invocation at a time
 * per instance, as on Lambda), which is how the bench and a Logs Insights query join them:
 * - `verify` (lambdas/middleware/payment.ts): the gateway's arrival, the off-chain checks, the chain reads;
 * - `purchase` (./core/purchase.ts): the ledger lock beside the chain reads, the work before the send, the settlement,
 *   the receipt recorded;
 * - `settle` (./settle.ts): the key's lease awaited, the estimate and fees, the nonce read, signing, the fence, the
 *   broadcast, the lease given back, the receipt.
 * Off (any level but DEBUG, which no deployment sets) nothing is allocated or written: the paid path asks the logger's
 * level once per request and reads no clock.
 */
import { logger } from '../shared/logger.js';

export const SETTLEMENT_TIMING = 'settlement timing';

export type TimingLayer = 'verify' | 'purchase' | 'settle';

/** Marks of one layer, by name: epoch ms, or counts and labels. */
export type TimingMarks = Record<string, number | string | undefined>;

/** Whether the timing lines are written (the logger at DEBUG). */
export function timingWanted(): boolean {
  return logger.getLevelName() === 'DEBUG';
}

/** Epoch ms with the monotonic clock's precision (Date.now() is whole ms: a 200 ms block needs better). */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** A fresh set of marks, its `start` now, when the lines are wanted; else undefined (and every `mark` a no-op). */
export function startMarks(): TimingMarks | undefined {
  return timingWanted() ? { start: nowMs() } : undefined;
}

export function mark(marks: TimingMarks | undefined, name: string): void {
  if (marks) marks[name] = nowMs();
}

/** Writes one layer's line (through `log`, a child logger with the request's context, when given). */
export function writeTiming(layer: TimingLayer, marks: TimingMarks | undefined, log: Pick<typeof logger, 'debug'> = logger): void {
  if (marks) log.debug(SETTLEMENT_TIMING, { layer, ...marks });
}
