/** The bedrock-stability render function (lambdas/workflow/render-function.ts): its adapter and SDK only. */
import { renderFunction } from '../render-function.js';
import { create } from '../../render/bedrock-stability/provider.js';

export const handler = renderFunction('bedrock-stability', { build: create });
