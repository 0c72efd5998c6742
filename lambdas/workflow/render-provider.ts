/**
 * The render providers by name, each built once per process with its asset store (the composition root of render/).
 * A job renders with the provider its purchase recorded (the job row's `provider`), and a check asks the provider
 * the submit used, so a configuration change never moves a job that is under way. Adapters other than the local
 * synthesiser are imported on first use: a function configured for one provider does not load the others' SDKs.
 */
import { renderConfig } from '../render/config.js';
import { assetStoreFromConfig } from '../store/assets.js';
import { LocalRenderProvider } from '../render/local/provider.js';
import { RenderError, type RenderProvider } from '../render/provider.js';
import { isProviderName, type ProviderName } from '../render/providers.js';
import { readProviderSecret, type AdapterDeps } from '../render/adapter.js';

const built = new Map<ProviderName, Promise<RenderProvider>>();

export function renderProviderNamed(name: string): Promise<RenderProvider> {
  if (!isProviderName(name)) return Promise.reject(new RenderError(`Unknown render provider ${name}`));
  let provider = built.get(name);
  if (!provider) {
    provider = build(name);
    built.set(name, provider);
    // A failed build (a missing secret, say) is not kept: the next task tries again.
    provider.catch(() => built.delete(name));
  }
  return provider;
}

function adapterDeps(): AdapterDeps {
  return {
    store: assetStoreFromConfig(),
    secret: readProviderSecret,
    imageProvider: () => renderProviderNamed(renderConfig().providers.agent_image),
    env: process.env,
  };
}

async function build(name: ProviderName): Promise<RenderProvider> {
  switch (name) {
    case 'local':
      return new LocalRenderProvider(assetStoreFromConfig(), renderConfig().ffmpegPath);
    // One case per adapter, each a static import() so the bundler includes it (loaded only when first used).
    case 'bedrock-stability':
      return (await import('../render/bedrock-stability/provider.js')).create(adapterDeps());
    case 'google-veo':
      return (await import('../render/google-veo/provider.js')).create(adapterDeps());
    case 'fal-veo':
      return (await import('../render/fal-veo/provider.js')).create(adapterDeps());
    case 'minimax-music':
      return (await import('../render/minimax-music/provider.js')).create(adapterDeps());
    case 'google-lyria':
      return (await import('../render/google-lyria/provider.js')).create(adapterDeps());
  }
  throw new RenderError(`Render provider ${name} has no adapter in this build`);
}
