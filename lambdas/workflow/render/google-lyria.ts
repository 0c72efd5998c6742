/** The google-lyria render function (lambdas/workflow/render-function.ts): its adapter, and the image adapters for the cover. */
import { renderFunction } from '../render-function.js';
import { coverImageProvider } from '../cover-image.js';
import { create } from '../../render/google-lyria/provider.js';

export const handler = renderFunction('google-lyria', { build: create, imageProvider: coverImageProvider });
