/**
 * The embedded runtime's sweep schedule (lib/local/sweep-now.ts), the local stand-in for the EventBridge rule that
 * runs the sweeper on AWS: one sweep at a time, the next an interval after the last ended, stopped cleanly.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicSweep } from '../../../lib/local/sweep-now.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A sweep that takes `ms` to end, counting how many run at once. */
function slowSweep(ms: number) {
  const state = { calls: 0, active: 0, maxActive: 0 };
  const run = vi.fn(async () => {
    state.calls++;
    state.active++;
    state.maxActive = Math.max(state.maxActive, state.active);
    await new Promise((r) => setTimeout(r, ms));
    state.active--;
  });
  return { run, state };
}

describe('Embedded runtime: the sweeper runs on a schedule, as on AWS', () => {
  it('sweeps every interval, never two sweeps at once even when one outlasts the interval', async () => {
    const { run, state } = slowSweep(2_500);
    const schedule = startPeriodicSweep(run, 1_000, () => {});
    await vi.advanceTimersByTimeAsync(999);
    expect(state.calls).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.calls).toBe(1);
    // The first sweep ends at 3.5 s; the next starts an interval later, at 4.5 s.
    await vi.advanceTimersByTimeAsync(3_499);
    expect(state.calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.calls).toBe(2);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(state.maxActive).toBe(1);
    await schedule.stop();
  });

  it('keeps its schedule after a failed sweep, reporting the failure', async () => {
    const errors: string[] = [];
    const run = vi.fn().mockRejectedValueOnce(new Error('Task timed out')).mockResolvedValue(undefined);
    const schedule = startPeriodicSweep(run, 1_000, (e) => errors.push(e.message));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(run).toHaveBeenCalledTimes(2);
    expect(errors).toEqual(['Task timed out']);
    await schedule.stop();
  });

  it('stops cleanly: waits for the sweep in progress and starts none after', async () => {
    const { run, state } = slowSweep(5_000);
    const schedule = startPeriodicSweep(run, 1_000, () => {});
    await vi.advanceTimersByTimeAsync(1_000);
    expect(state.active).toBe(1);
    let stopped = false;
    const stopping = schedule.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await stopping;
    expect(state.active).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(state.calls).toBe(1);
  });

  it('stopped before its first sweep, never sweeps', async () => {
    const run = vi.fn(async () => {});
    await startPeriodicSweep(run, 1_000, () => {}).stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run).not.toHaveBeenCalled();
  });
});
