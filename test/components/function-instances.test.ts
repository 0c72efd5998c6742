/**
 * Functions run as instances, as Lambda runs them (lib/local/functions/instances.ts): isolated module state per
 * instance, one invocation per instance at a time, a busy function spreads over new instances up to its limit, the
 * timeout ends the instance, errors keep their names, and each instance enforces its own policy.
 */
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { FunctionInstances } from '../../lib/local/functions/instances.js';
import { PROJECT_ROOT } from '../../lib/local/runtime.js';

type Probe = { instanceId: string; invocations: number; remainingMs?: number; dynamo?: string };
const pools: FunctionInstances[] = [];
function pool(options: { maxInstances?: number; timeoutSeconds?: number; memoryMb?: number; statements?: never[] | object[] } = {}) {
  const p = new FunctionInstances(
    { id: 'Probe', entry: 'test/support/functions/probe.ts', timeoutSeconds: options.timeoutSeconds ?? 10, memoryMb: options.memoryMb ?? 128, maxInstances: options.maxInstances ?? 4 },
    { projectRoot: PROJECT_ROOT, statements: (options.statements ?? []) as never[], log: () => {} },
  );
  pools.push(p);
  return p;
}
afterAll(async () => {
  for (const p of pools) await p.stop();
});

describe('Functions run as instances', () => {
  it('an instance that outgrows the function memory is ended with Runtime.OutOfMemory; the next call gets a fresh one', async () => {
    const p = pool({ memoryMb: 128, timeoutSeconds: 30 });
    const before = (await p.invoke({})) as Probe;
    await expect(p.invoke({ allocateMb: 1024 })).rejects.toMatchObject({ name: 'Runtime.OutOfMemory' });
    const after = (await p.invoke({})) as Probe;
    expect(after.instanceId).not.toBe(before.instanceId);
  });

  it('reuses a warm instance for sequential calls (module state persists within it) and passes the remaining time', async () => {
    const p = pool();
    const first = (await p.invoke({})) as Probe;
    const second = (await p.invoke({})) as Probe;
    expect(second.instanceId).toBe(first.instanceId);
    expect(second.invocations).toBe(first.invocations + 1);
    expect(first.remainingMs).toBeGreaterThan(5_000);
    expect(first.remainingMs).toBeLessThanOrEqual(10_000);
    expect(p.started).toBe(1);
  });

  it('spreads concurrent calls over separate instances up to the limit, queueing beyond it', async () => {
    const p = pool({ maxInstances: 4 });
    const results = (await Promise.all(Array.from({ length: 6 }, () => p.invoke({ sleepMs: 300 })))) as Probe[];
    expect(new Set(results.map((r) => r.instanceId)).size).toBe(4);
    expect(p.started).toBe(4);
    // Separate module state: every instance counted only its own invocations (1, 2, … within each instance),
    // however the queued calls fell among them (on a loaded machine a warm instance may take two of them).
    const counts = new Map<string, number[]>();
    for (const r of results) counts.set(r.instanceId, [...(counts.get(r.instanceId) ?? []), r.invocations]);
    for (const seen of counts.values()) expect(seen.sort((a, b) => a - b)).toEqual(seen.map((_, i) => i + 1));
    // Each instance is its own OS thread of this process (the bench reads their CPU time by these ids).
    const tids = p.threadIds();
    expect(new Set(tids).size).toBe(4);
    for (const tid of tids) expect(existsSync(`/proc/self/task/${tid}/stat`)).toBe(true);
    expect(tids).not.toContain(process.pid);
  });

  it('ends an instance that runs past its timeout (Sandbox.Timedout) and starts a fresh one for the next call', async () => {
    const p = pool({ timeoutSeconds: 1, maxInstances: 1 });
    const before = (await p.invoke({})) as Probe;
    await expect(p.invoke({ sleepMs: 3_000 })).rejects.toMatchObject({ name: 'Sandbox.Timedout' });
    const after = (await p.invoke({})) as Probe;
    expect(after.instanceId).not.toBe(before.instanceId);
    expect(after.invocations).toBe(1);
  });

  it("reports a function's error by its name (what Step Functions Retry/Catch and the gateway match)", async () => {
    await expect(pool().invoke({ fail: 'TransientRenderError' })).rejects.toMatchObject({ name: 'TransientRenderError', message: 'probe failed' });
  });

  it('enforces its own policy inside the instance: an AWS call its statements do not grant is AccessDenied', async () => {
    const denied = (await pool({ statements: [] }).invoke({ dynamo: true })) as Probe;
    expect(denied.dynamo).toBe('AccessDeniedException');
    const granted = (await pool({
      statements: [{ Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: 'arn:aws:dynamodb:local:000000000000:table/jobs' }],
    }).invoke({ dynamo: true })) as Probe;
    // Allowed, the call goes out and finds no server: any error but a denial.
    expect(granted.dynamo).not.toBe('AccessDeniedException');
  });
});
