/**
 * What each render provider's own function needs in the stack besides its API key (lib/paycall-stack.ts grants
 * that): its settings as environment variables and its IAM statements, scoped to exactly the models configured.
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Stack } from 'aws-cdk-lib';
import type { StackConfig } from './config.js';
import { PRODUCT_IDS, PRODUCTS, type Product } from '../lambdas/products/catalog.js';
import { providersFor, type ProviderName } from '../lambdas/render/providers.js';

/**
 * A generation product as the stack builds it: its catalog entry and the providers that can render it (its machine
 * has a Submit and a Check state for each). Its id is any string: a test adds a product from a fixture entry
 * (test/infra/catalog-fixture.test.ts), which lambdas/render/providers.ts does not list, so it names its providers.
 */
export interface StackProduct extends Product<string> {
  providers: readonly ProviderName[];
}
export type GenerationCatalog = Readonly<Record<string, StackProduct>>;

/** The real catalog (lambdas/products/catalog.ts), each product with the providers that list it: the stack's default. */
export const GENERATION_CATALOG: GenerationCatalog = Object.fromEntries(PRODUCT_IDS.map((id) => [id, { ...PRODUCTS[id], providers: providersFor(id) }]));

/** A provider's own Wait between render checks, where the global one does not suit it (the context can override). */
export const PROVIDER_CHECK_SECONDS: Partial<Record<ProviderName, number>> = {
  // Veo renders take tens of seconds to minutes; the notes advise polling every 10–15 s.
  'google-veo': 10,
  // The same model through fal's queue.
  'fal-veo': 10,
};

/**
 * The providers whose render function needs another's for a song's cover (lambdas/workflow/cover-image.ts): the
 * image provider configured for agent_image, whose settings and grants it then gets too.
 */
export function providersServedBy(provider: ProviderName, config: StackConfig): ProviderName[] {
  const coverArt = provider === 'google-lyria' || provider === 'minimax-music';
  return coverArt && config.renderProviders.agent_image !== provider ? [provider, config.renderProviders.agent_image] : [provider];
}

/**
 * The variables a provider's adapter reads (model ids, regions); none for the local synthesiser. Every provider's
 * function has them whether or not a product is configured to it now: a job sold with it still finishes there.
 */
export function providerEnvironment(provider: ProviderName, config: StackConfig): Record<string, string> {
  switch (provider) {
    case 'bedrock-stability':
      return { BEDROCK_REGION: config.bedrockRegion, BEDROCK_IMAGE_MODEL_ID: config.bedrockImageModel };
    case 'google-lyria':
      return { LYRIA_MODEL: config.lyriaModel };
    case 'minimax-music':
      return { MINIMAX_MUSIC_MODEL: config.minimaxModel };
    case 'google-veo':
      return { VEO_MODEL: config.veoModel };
    case 'fal-veo':
      return { FAL_VIDEO_MODEL: config.falVideoModel };
    case 'local':
      return {};
  }
}

/** The IAM statements a provider's adapter needs besides its API key (Bedrock: InvokeModel on the configured model). */
export function providerStatements(stack: Stack, provider: ProviderName, config: StackConfig): iam.PolicyStatement[] {
  if (provider !== 'bedrock-stability') return [];
  return [
    new iam.PolicyStatement({
      actions: ['bedrock:InvokeModel'],
      resources: [stack.formatArn({ service: 'bedrock', region: config.bedrockRegion, account: '', resource: 'foundation-model', resourceName: config.bedrockImageModel })],
    }),
  ];
}
