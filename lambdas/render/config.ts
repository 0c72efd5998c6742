/** The render configuration, read and validated once per cold start (the rules of lambdas/shared/config.ts). */
import { PRODUCT_IDS, type ProductId } from '../products/products.js';
import { memo, ok, optional, parse, text, type Rule } from '../shared/config.js';
import { providerEnvName, providerProblem, type ProviderName } from './providers.js';

/** The render provider of each product (`RENDER_PROVIDER_<PRODUCT>`, lambdas/render/providers.ts; `local` by default). */
export const renderConfig = memo(() => {
  const providerRule = (product: ProductId): Rule<ProviderName> => (raw) => {
    if (raw === undefined) return ok('local');
    const problem = providerProblem(product, raw);
    return problem ? { problem } : ok(raw as ProviderName);
  };
  const rules: Record<string, Rule<string | undefined>> = Object.fromEntries(
    PRODUCT_IDS.map((product) => [providerEnvName(product), providerRule(product)]),
  );
  rules.FFMPEG_PATH = optional(text());
  const env = parse(rules, 'render');
  const providers = Object.fromEntries(PRODUCT_IDS.map((product) => [product, env[providerEnvName(product)] as ProviderName])) as Record<
    ProductId,
    ProviderName
  >;
  return { providers, ffmpegPath: env.FFMPEG_PATH as string | undefined };
});

