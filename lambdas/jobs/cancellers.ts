/**
 * The adapters the cancel route asks to drop a render, one per provider whose queue takes cancellations
 * (`cancels` in lambdas/render/providers.ts; a unit test holds the two lists equal). Each is built on first use, with
 * the route's own grants (the provider's key and records, lib/paycall-stack.ts `cancel` role).
 */
import type { AdapterDeps } from '../render/adapter.js';
import type { RenderProvider } from '../render/provider.js';
import type { ProviderName } from '../render/providers.js';
import { create as createFalVeo } from '../render/fal-veo/provider.js';

export const CANCELLERS: Partial<Record<ProviderName, (deps: AdapterDeps) => RenderProvider>> = {
  'fal-veo': createFalVeo,
};
