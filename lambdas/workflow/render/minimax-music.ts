/** The minimax-music render function (lambdas/workflow/render-function.ts): its adapter, and the image adapters for the cover. */
import { renderFunction } from '../render-function.js';
import { coverImageProvider } from '../cover-image.js';
import { create } from '../../render/minimax-music/provider.js';

export const handler = renderFunction('minimax-music', { build: create, imageProvider: coverImageProvider });
