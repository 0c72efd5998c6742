/** The google-veo render function (lambdas/workflow/render-function.ts): its adapter and SDK only. */
import { renderFunction } from '../render-function.js';
import { create } from '../../render/google-veo/provider.js';

export const handler = renderFunction('google-veo', { build: create });
