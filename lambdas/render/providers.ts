/**
 * THE list of render providers: which products each can render, the variable that chooses one per product, and what
 * an adapter needs from its environment (an endpoint override for the embedded default's wire-level fakes, the
 * Secrets Manager id of its API key). CDK (lib/config.ts, lib/paycall-stack.ts), the task functions
 * (lambdas/workflow/render-function.ts) and the embedded runtime (lib/local/providers/) all read it.
 */
import type { ProductId } from '../products/catalog.js';
import { PRODUCTS, type Product } from '../products/products.js';

export type ProviderSecret = 'gemini' | 'fal' | 'minimax';

export interface ProviderDefinition {
  products: readonly ProductId[];
  /** The API key it reads from Secrets Manager (none: IAM, as Bedrock, or nothing, as the local synthesiser). */
  secret?: ProviderSecret;
  /** The variable that points its SDK at another endpoint (the embedded default's fake); unset on AWS. */
  endpointEnv?: string;
  /** Its queue takes cancellations (`RenderProvider.cancel`): the cancel route asks it first (lambdas/jobs/cancellers.ts). */
  cancels?: true;
}

export const RENDER_PROVIDERS = {
  local: { products: ['create_music', 'agent_video', 'agent_image'] },
  'bedrock-stability': { products: ['agent_image'], endpointEnv: 'BEDROCK_RUNTIME_ENDPOINT' },
  'google-veo': { products: ['agent_video'], secret: 'gemini', endpointEnv: 'GEMINI_API_BASE_URL' },
  'fal-veo': { products: ['agent_video'], secret: 'fal', endpointEnv: 'FAL_QUEUE_BASE_URL', cancels: true },
  'google-lyria': { products: ['create_music'], secret: 'gemini', endpointEnv: 'GEMINI_API_BASE_URL' },
  'minimax-music': { products: ['create_music'], secret: 'minimax', endpointEnv: 'MINIMAX_API_BASE_URL' },
} as const satisfies Record<string, ProviderDefinition>;

export type ProviderName = keyof typeof RENDER_PROVIDERS;
export const PROVIDER_NAMES = Object.keys(RENDER_PROVIDERS) as ProviderName[];

/** The API keys: the variable naming each one's secret, its default secret name and the CDK context key that overrides it. */
export const PROVIDER_SECRETS: Record<ProviderSecret, { env: string; defaultName: string; contextKey: string }> = {
  gemini: { env: 'GEMINI_API_KEY_SECRET_ID', defaultName: 'paycall/gemini-api-key', contextKey: 'geminiApiKeySecretName' },
  fal: { env: 'FAL_KEY_SECRET_ID', defaultName: 'paycall/fal-key', contextKey: 'falKeySecretName' },
  minimax: { env: 'MINIMAX_API_KEY_SECRET_ID', defaultName: 'paycall/minimax-api-key', contextKey: 'minimaxApiKeySecretName' },
};

/** `RENDER_PROVIDER_AGENT_IMAGE` etc.: the variable that chooses the provider of one product. */
export function providerEnvName(product: ProductId): string {
  return `RENDER_PROVIDER_${product.toUpperCase()}`;
}

/**
 * `musicProvider` etc.: the CDK context key that chooses the provider of one product (lib/config.ts), named by the
 * product's category. Deployed stacks read these keys: a product's category is part of its configuration's name.
 */
export function providerContextKey(product: ProductId): `${Product['category']}Provider` {
  return `${PRODUCTS[product].category}Provider`;
}

/** The vendor API key a provider reads, if any. */
export function providerSecret(name: ProviderName): ProviderSecret | undefined {
  return (RENDER_PROVIDERS[name] as ProviderDefinition).secret;
}

export function providersFor(product: ProductId): ProviderName[] {
  return PROVIDER_NAMES.filter((name) => (RENDER_PROVIDERS[name].products as readonly string[]).includes(product));
}

export function isProviderName(value: string): value is ProviderName {
  return Object.hasOwn(RENDER_PROVIDERS, value);
}

/** Why `name` cannot render `product`, or null when it can. */
export function providerProblem(product: ProductId, name: string): string | null {
  if (!isProviderName(name)) return `unknown render provider '${name}' (one of ${PROVIDER_NAMES.join(', ')})`;
  if (!(RENDER_PROVIDERS[name].products as readonly string[]).includes(product)) {
    return `render provider '${name}' cannot render ${product} (for ${product}: ${providersFor(product).join(', ')})`;
  }
  return null;
}

/** The providers whose queue takes cancellations (the cancel route holds their adapters, keys and settings). */
export const CANCELLING_PROVIDERS = PROVIDER_NAMES.filter((name) => (RENDER_PROVIDERS[name] as ProviderDefinition).cancels);
