/** The fal-veo render function (lambdas/workflow/render-function.ts): its adapter and SDK only. */
import { renderFunction } from '../render-function.js';
import { create } from '../../render/fal-veo/provider.js';

export const handler = renderFunction('fal-veo', { build: create });
