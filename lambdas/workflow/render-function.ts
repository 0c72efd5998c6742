/**
 * The handler of a render provider's own function (ADR 0016): one per provider, running that provider's "Submit
 * render (<provider>)" and "Check render (<provider>)" states; the state's payload names the step. Its entry
 * (lambdas/workflow/render/<provider>.ts) imports only that provider's adapter, so the bundle carries only its SDK.
 *
 * The machine chooses the function from the provider the job recorded at purchase (the execution input's
 * `provider`; a check, from the submit's `render.provider`). A job whose provider is not this function's reached
 * the wrong branch: a RenderError (the job fails and is refunded), never a render by another provider.
 */
import { checkRender, jobKeys, submitRender, type ExecutionInput, type RenderState } from './tasks.js';
import { taskDeps } from './deps.js';
import { retryingTransient } from './transient.js';
import { traced } from '../shared/tracing.js';
import { readProviderSecret, type AdapterDeps } from '../render/adapter.js';
import { RenderError, type RenderProvider } from '../render/provider.js';
import type { ProviderName } from '../render/providers.js';
import { assetStoreFromConfig } from '../store/assets.js';
import { lazyRetry } from '../shared/lazy.js';
import { RenderStep } from './render-functions.js';

export type RenderTaskInput = ExecutionInput & { step: RenderStep; render?: RenderState };

/** Builds the provider once per process; `imageProvider` is the song vendors' (their cover art), else none. */
export interface RenderFunctionOptions {
  build: (deps: AdapterDeps) => RenderProvider | Promise<RenderProvider>;
  imageProvider?: () => Promise<RenderProvider>;
}

export function renderFunction(name: ProviderName, options: RenderFunctionOptions) {
  // Built once per process; a failed build (a bad setting, say) is not kept: the next task tries again.
  const built = lazyRetry(async () =>
    options.build({
      store: assetStoreFromConfig(),
      secret: readProviderSecret,
      imageProvider: options.imageProvider ?? (() => Promise.reject(new RenderError(`${name} renders no cover art`))),
      env: process.env,
    }),
  );
  const provider = (wanted: string): Promise<RenderProvider> =>
    wanted === name ? built() : Promise.reject(new RenderError(`This is the ${name} render function; the job's provider is ${wanted}`));
  // Built (and the configuration checked) at cold start, not on the first task.
  const deps = { ...taskDeps(), provider };
  // A throttled or unavailable dependency is a TransientRenderError: the state machine retries it with back-off.
  // Traced with the job's id and product as annotations; the logger gets the invocation's context (shared/tracing.ts).
  return traced(
    (input: RenderTaskInput) =>
      retryingTransient(async () => {
        if (input.step === 'submit') return submitRender(deps, input);
        if (input.step === 'check' && input.render) return checkRender(deps, { ...input, render: input.render });
        throw new RenderError(`A render task needs step submit, or check with the render; got ${String(input.step)}`);
      }),
    jobKeys,
  );
}
