/**
 * What a render adapter (a provider other than the local synthesiser) gets from the composition root
 * (lambdas/workflow/render-function.ts). Each adapter lives in `lambdas/render/<provider name>/provider.ts` and exports
 * `create(deps: AdapterDeps): RenderProvider`, building its SDK client once.
 */
import { loadSecret } from '../shared/secrets.js';
import type { AssetStore, RenderProvider } from './provider.js';
import { PROVIDER_SECRETS, type ProviderSecret } from './providers.js';

export interface AdapterDeps {
  /** The asset store (S3): outputs an adapter receives as bytes are written here and passed on by key. */
  store: AssetStore;
  /** The API key of a vendor, from the Secrets Manager secret its variable names (cached per process, never logged). */
  secret: (which: ProviderSecret) => Promise<string>;
  /** The provider configured for agent_image, for a song's cover art. */
  imageProvider: () => Promise<RenderProvider>;
  /** The function's environment (endpoint overrides, model ids). */
  env: NodeJS.ProcessEnv;
}

/** A vendor API key: the SecretString itself, or its `apiKey` member when it is a JSON object. */
export function readProviderSecret(which: ProviderSecret): Promise<string> {
  const { env, defaultName } = PROVIDER_SECRETS[which];
  return loadSecret(
    { secretId: process.env[env] },
    {
      describe: `${which} API key`,
      jsonMember: 'apiKey',
      configureHint: `set ${env} to the name of a Secrets Manager secret (by default ${defaultName})`,
      parse: (raw, where) => {
        if (!raw) throw new Error(`The ${which} API key in ${where} is empty`);
        return raw;
      },
    },
  );
}
