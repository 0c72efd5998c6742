/**
 * A song vendor's cover art (lambdas/render/song.ts): the image provider configured for agent_image (read once per
 * process, lambdas/render/config.ts), the synthesiser or Bedrock, built once per process. Only the song vendors' render functions import this, so they alone carry the
 * image adapters beside their own.
 */
import { renderConfig } from '../render/config.js';
import { readProviderSecret } from '../render/adapter.js';
import { LocalRenderProvider } from '../render/local/provider.js';
import { RenderError, type RenderProvider } from '../render/provider.js';
import { create as createBedrock } from '../render/bedrock-stability/provider.js';
import { assetStoreFromConfig } from '../store/assets.js';
import { lazyRetry } from '../shared/lazy.js';

// A failed build (a missing secret, say) is not kept: the next cover tries again.
export const coverImageProvider: () => Promise<RenderProvider> = lazyRetry(async () => {
  const name = renderConfig().providers.agent_image;
  if (name === 'local') return new LocalRenderProvider(assetStoreFromConfig(), renderConfig().ffmpegPath);
  if (name === 'bedrock-stability') {
    return createBedrock({ store: assetStoreFromConfig(), secret: readProviderSecret, imageProvider: coverImageProvider, env: process.env });
  }
  throw new RenderError(`No cover art from image provider ${name}`);
});
