/** The render configuration, read and validated once per cold start (the rules of lambdas/shared/config.ts). */
import type { ProductId } from '../products/catalog.js';
import { memo, ok, optional, parse, text, type Rule } from '../shared/config.js';
import { providerProblem, type ProviderName } from './providers.js';

/** The render provider of each product (`RENDER_PROVIDER_<PRODUCT>`, lambdas/render/providers.ts; `local` by default). */
export const renderConfig = memo(() => {
  const providerRule = (product: ProductId): Rule<ProviderName> => (raw) => {
    if (raw === undefined) return ok('local');
    const problem = providerProblem(product, raw);
    return problem ? { problem } : ok(raw as ProviderName);
  };
  const env = parse(
    {
      RENDER_PROVIDER_CREATE_MUSIC: providerRule('create_music'),
      RENDER_PROVIDER_AGENT_VIDEO: providerRule('agent_video'),
      RENDER_PROVIDER_AGENT_IMAGE: providerRule('agent_image'),
      FFMPEG_PATH: optional(text()),
    },
    'render',
  );
  const providers: Record<ProductId, ProviderName> = {
    create_music: env.RENDER_PROVIDER_CREATE_MUSIC,
    agent_video: env.RENDER_PROVIDER_AGENT_VIDEO,
    agent_image: env.RENDER_PROVIDER_AGENT_IMAGE,
  };
  return { providers, ffmpegPath: env.FFMPEG_PATH };
});

