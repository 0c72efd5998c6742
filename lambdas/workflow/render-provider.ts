/** The configured render provider with its asset store, built once per process (the composition root of render/). */
import { renderConfig } from '../shared/config.js';
import { assetStoreFromConfig } from '../store/assets.js';
import { LocalRenderProvider } from '../render/local/provider.js';
import type { RenderProvider } from '../render/provider.js';

let provider: RenderProvider | undefined;
export function renderProviderFromConfig(): RenderProvider {
  if (provider) return provider;
  const config = renderConfig();
  // One provider today; an upstream HTTP or Bedrock provider is another case of this switch.
  switch (config.provider) {
    case 'local':
      return (provider = new LocalRenderProvider(assetStoreFromConfig(), config.ffmpegPath));
  }
  throw new Error(`unknown render provider ${String(config.provider)}`);
}
