/**
 * A render function per provider (docs/decisions/0016): a provider's own render function (lambdas/workflow/render-function.ts) runs the step its state
 * names, with its own provider only: a job of another provider (a wrong branch) is a RenderError, never a render
 * elsewhere; a provider that could not be built (a bad setting) is built again by the next task.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RenderError, type RenderProvider } from '../../../lambdas/render/provider.js';

const render = (provider: string) => ({ renderId: 'r-1', provider, state: 'running' as const, attempts: 2 });

beforeEach(() => {
  vi.resetModules();
  // What the tasks' configuration checks at cold start (a file asset store; no AWS call is made here).
  vi.stubEnv('ASSETS_DIR', '/tmp/render-function-test');
  vi.stubEnv('ASSETS_PUBLIC_URL', 'http://127.0.0.1/assets');
  vi.stubEnv('JOBS_TABLE', 'jobs');
});
afterEach(() => vi.unstubAllEnvs());

async function handlerWith(build: () => RenderProvider) {
  const { renderFunction } = await import('../../../lambdas/workflow/render-function.js');
  return renderFunction('fal-veo', { build });
}

const provider = (check: RenderProvider['check']): RenderProvider => ({ name: 'fal-veo', submit: vi.fn(), check });

describe('a render function runs its own provider, the step its state names', () => {
  it('check: asks its provider about the render and counts the attempt', async () => {
    const check = vi.fn(async () => ({ state: 'running' as const }));
    const handler = await handlerWith(() => provider(check));
    await expect(handler({ step: 'check', jobId: 'j-1', product: 'agent_video', render: render('fal-veo') })).resolves.toEqual({
      renderId: 'r-1',
      provider: 'fal-veo',
      state: 'running',
      attempts: 3,
    });
    expect(check).toHaveBeenCalledWith('r-1', 'agent_video');
  });

  it("refuses another provider's render (a wrong branch) without asking anyone", async () => {
    const check = vi.fn();
    const handler = await handlerWith(() => provider(check));
    const error = await handler({ step: 'check', jobId: 'j-1', product: 'agent_video', render: render('google-veo') }).catch((e: unknown) => e);
    // By name, as the state machine matches it (this test reloads the modules, so not by class).
    expect((error as Error).name).toBe(RenderError.errorName);
    expect((error as Error).message).toBe("This is the fal-veo render function; the job's provider is google-veo");
    expect(check).not.toHaveBeenCalled();
  });

  it('refuses a payload naming no known step, or a check without its render', async () => {
    const handler = await handlerWith(() => provider(vi.fn()));
    for (const input of [{ step: 'store' }, { step: 'check' }]) {
      await expect(handler({ ...input, jobId: 'j-1', product: 'agent_video' } as never)).rejects.toMatchObject({ name: RenderError.errorName });
    }
  });

  it('builds its provider once per process, and again after a failed build', async () => {
    const check = vi.fn(async () => ({ state: 'running' as const }));
    const build = vi
      .fn<() => RenderProvider>()
      .mockImplementationOnce(() => {
        throw new Error('FAL_VIDEO_MODEL is not a fal Veo model id');
      })
      .mockImplementation(() => provider(check));
    const handler = await handlerWith(build);
    const input = { step: 'check' as const, jobId: 'j-1', product: 'agent_video' as const, render: render('fal-veo') };
    await expect(handler(input)).rejects.toThrow(/FAL_VIDEO_MODEL/);
    await handler(input);
    await handler(input);
    expect(build).toHaveBeenCalledTimes(2);
    expect(check).toHaveBeenCalledTimes(2);
  });
});
