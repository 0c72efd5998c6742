/**
 * The render providers of the embedded default: `RENDER_PROVIDER_<PRODUCT>` chooses one per product (default
 * `local`, the synthesiser). A model adapter runs for real — its vendor SDK, pointed through the SDK's official
 * endpoint override at a wire-level fake of the vendor's API on loopback (this folder, one module per vendor), which
 * answers with media made by the local synthesiser. The fakes honour failure markers in the prompt
 * (`[fake:content-filter]`, `[fake:429]`, `[fake:500]`, `[fake:hang]`, `[fake:malformed]`); the service never does.
 */
import type { ProductId } from '../../../lambdas/products/catalog.js';
import { PRODUCT_IDS } from '../../../lambdas/products/catalog.js';
import { PROVIDER_SECRETS, providerEnvName, providerProblem, providerSecret, type ProviderName, type ProviderSecret } from '../../../lambdas/render/providers.js';

export interface ProviderFake {
  /** Variables of the task functions that point the adapter's SDK at the fake (e.g. GEMINI_API_BASE_URL). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface FakeOptions {
  stateDir: string;
  /** The API key the fake accepts (the local Secrets Manager serves it under the template's secret name). */
  apiKey: string;
  log: (line: string) => void;
}

/** The vendor API each adapter talks to: one fake per API, shared by the adapters that use it (Veo and Lyria). */
export type VendorApi = 'bedrock' | 'gemini' | 'fal' | 'minimax';
const API_OF: Record<Exclude<ProviderName, 'local'>, VendorApi> = {
  'bedrock-stability': 'bedrock',
  'google-veo': 'gemini',
  'google-lyria': 'gemini',
  'fal-veo': 'fal',
  'minimax-music': 'minimax',
};

/** One starter per vendor API (imported on first use); a provider whose API has a fake here can be chosen locally. */
export type FakeStarter = (options: FakeOptions) => Promise<ProviderFake>;
const FAKES: Partial<Record<VendorApi, () => Promise<FakeStarter>>> = {
  bedrock: async () => (await import('./bedrock.js')).startBedrockFake,
  gemini: async () => (await import('./gemini.js')).startGeminiFake,
  fal: async () => (await import('./fal.js')).startFalFake,
  minimax: async () => (await import('./minimax.js')).startMiniMaxFake,
};

/** The fake API key of each vendor on the embedded default (not a secret: the fakes are on loopback). */
export function fakeApiKey(which: ProviderSecret): string {
  return `local-fake-${which}-key`;
}

/** The provider of each product from `RENDER_PROVIDER_<PRODUCT>` (default local); throws naming a bad value. */
export function chosenProviders(env: NodeJS.ProcessEnv = process.env): Record<ProductId, ProviderName> {
  const chosen = {} as Record<ProductId, ProviderName>;
  const problems: string[] = [];
  for (const product of PRODUCT_IDS) {
    const value = env[providerEnvName(product)] || 'local';
    const problem = providerProblem(product, value);
    if (problem) problems.push(`${providerEnvName(product)}: ${problem}`);
    else if (value !== 'local' && !FAKES[API_OF[value as Exclude<ProviderName, 'local'>]]) problems.push(`${providerEnvName(product)}: ${value} has no local fake yet`);
    else chosen[product] = value as ProviderName;
  }
  if (problems.length) throw new Error(`Invalid render provider choice: ${problems.join('; ')}`);
  return chosen;
}

export interface LocalProviders {
  /** RENDER_PROVIDER_<PRODUCT> for every product, and each started fake's endpoint variables. */
  env: Record<string, string>;
  /** The fake API key under each secret variable the chosen providers read, as the local Secrets Manager serves a value. */
  secretValues: Record<string, () => Promise<string>>;
  stop(): Promise<void>;
}

export async function startLocalProviders(chosen: Record<ProductId, ProviderName>, options: Omit<FakeOptions, 'apiKey'>): Promise<LocalProviders> {
  const env: Record<string, string> = Object.fromEntries(PRODUCT_IDS.map((product) => [providerEnvName(product), chosen[product]]));
  const secretValues: Record<string, () => Promise<string>> = {};
  const fakes: ProviderFake[] = [];
  try {
    const adapters = [...new Set(Object.values(chosen))].filter((name): name is Exclude<ProviderName, 'local'> => name !== 'local');
    for (const api of new Set(adapters.map((name) => API_OF[name]))) {
      const users = adapters.filter((name) => API_OF[name] === api);
      const secret = providerSecret(users[0]);
      const apiKey = secret ? fakeApiKey(secret) : 'unused';
      if (secret) secretValues[PROVIDER_SECRETS[secret].env] = async () => apiKey;
      const start = await FAKES[api]!();
      const fake = await start({ ...options, apiKey });
      fakes.push(fake);
      Object.assign(env, fake.env);
      options.log(`[local] ${users.join(', ')}: the vendor SDK talks to a wire-level fake of the ${api} API (${Object.values(fake.env).join(', ')})`);
    }
  } catch (error) {
    await Promise.all(fakes.map((fake) => fake.stop()));
    throw error;
  }
  return { env, secretValues, stop: async () => void (await Promise.all(fakes.map((fake) => fake.stop()))) };
}
