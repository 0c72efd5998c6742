/**
 * How many instances of a function the embedded runtime may run at once: the template's reserved
 * concurrency where it sets one, else LOCAL_MAX_INSTANCES, else four for the paid and agent-run routes and two for the
 * rest. No instance is started here: the cap is read from each function's spec.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LocalFunctions, maxInstancesSetting } from '../../../lib/local/functions/registry.js';
import type { FunctionEntry } from '../../../lib/functions.js';
import type { RouteDef } from '../../../lambdas/surfaces/routes.js';

const route = (id: string, role: 'paid' | 'run' | 'read'): FunctionEntry => ({ kind: 'route', id, entry: `lambdas/http/${id}.ts`, role, route: { id } as RouteDef });
const task = (id: string): FunctionEntry => ({ kind: 'task', id, entry: `lambdas/workflow/${id}.ts`, task: { id, entry: '', timeoutSeconds: 30, memoryMb: 256 } });
const functions = { a: route('Paid', 'paid'), b: route('Run', 'run'), c: route('Read', 'read'), d: task('RenderLocal'), e: task('StoreAsset') };

function caps(reservedConcurrency?: Record<string, number>) {
  const registry = new LocalFunctions('/nowhere', () => {});
  registry.define({ functions, policies: {}, ...(reservedConcurrency ? { reservedConcurrency } : {}) });
  return Object.fromEntries(Object.values(functions).map((f) => [f.id, registry.get(f.id).spec.maxInstances]));
}

afterEach(() => {
  delete process.env.LOCAL_MAX_INSTANCES;
});

describe('the embedded runtime runs as many instances of a function as its cap', () => {
  it('defaults: four for paid and run routes, two for the rest; reserved concurrency wins where the template sets it', () => {
    expect(caps()).toEqual({ Paid: 4, Run: 4, Read: 2, RenderLocal: 2, StoreAsset: 2 });
    expect(caps({ RenderLocal: 3 })).toEqual({ Paid: 4, Run: 4, Read: 2, RenderLocal: 3, StoreAsset: 2 });
  });

  it('LOCAL_MAX_INSTANCES sets every other function; a bad value is refused', () => {
    process.env.LOCAL_MAX_INSTANCES = '64';
    expect(caps({ RenderLocal: 3 })).toEqual({ Paid: 64, Run: 64, Read: 64, RenderLocal: 3, StoreAsset: 64 });
    for (const bad of ['0', '-1', 'many', '1.5', '10000']) expect(() => maxInstancesSetting({ LOCAL_MAX_INSTANCES: bad })).toThrow(/LOCAL_MAX_INSTANCES/);
    expect(maxInstancesSetting({ LOCAL_MAX_INSTANCES: ' ' })).toBeUndefined();
  });
});

describe("the template's reserved concurrency reaches the embedded runtime", () => {
  it('synthesised with renderReservedConcurrency 3: every render function is capped at 3, nothing else is reserved', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { synthesizeForLocal } = await import('../../../lib/local/asl.js');
    const { RENDER_FUNCTIONS } = await import('../../../lambdas/workflow/render-functions.js');
    const cacheDir = await mkdtemp(join(tmpdir(), 'paycall-cap-synth-'));
    try {
      const defs = await synthesizeForLocal({ cacheDir, context: { renderReservedConcurrency: '3' } });
      expect(defs.reservedConcurrency).toEqual(Object.fromEntries(RENDER_FUNCTIONS.map((f) => [f.id, 3])));
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  }, 120_000);
});
