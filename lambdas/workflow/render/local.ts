/** The synthesiser's render function (lambdas/workflow/render-function.ts): every product, encoded with ffmpeg. */
import { renderFunction } from '../render-function.js';
import { renderConfig } from '../../render/config.js';
import { LocalRenderProvider } from '../../render/local/provider.js';

export const handler = renderFunction('local', { build: ({ store }) => new LocalRenderProvider(store, renderConfig().ffmpegPath) });
