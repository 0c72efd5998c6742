/**
 * Configuration of agent-payment tokens, read and validated once per process. The CDK stack sets these for the
 * real issuer on AWS; the embedded default sets them for its local issuer (lib/local/token-issuer.ts).
 *
 *   TOKEN_ISSUER                the `iss` we accept
 *   TOKEN_JWKS_URL              the issuer's key set (ES256 public keys)
 *   TOKEN_CHARGE_URL            the issuer's token-charge endpoint
 *   TOKEN_SELLER_ID             our seller service id (`ssi`)
 *   TOKEN_AUDIENCE              optional `aud` we require; defaults to TOKEN_SELLER_ID
 *   TOKEN_SELLER_KEY_FILE       the seller API key in a file (one machine), or
 *   TOKEN_SELLER_KEY_SECRET_ID  the seller API key in Secrets Manager (AWS; plain string or JSON {"apiKey": "…"})
 *
 * All unset: token payments are disabled and tokenConfig() is undefined. Partly set: a configuration error, so a
 * half-configured deployment fails at start instead of refusing every token. The seller key is loaded lazily by the
 * shared secret loader (lambdas/shared/secrets.ts), kept only in memory and never logged or put in an error.
 */
import * as z from '../../shared/zod.js';
import { loadSecret, resetSecretCache } from '../../shared/secrets.js';

export const TOKEN_ENV = {
  issuer: 'TOKEN_ISSUER',
  jwksUrl: 'TOKEN_JWKS_URL',
  chargeUrl: 'TOKEN_CHARGE_URL',
  sellerId: 'TOKEN_SELLER_ID',
  audience: 'TOKEN_AUDIENCE',
  sellerKeyFile: 'TOKEN_SELLER_KEY_FILE',
  sellerKeySecretId: 'TOKEN_SELLER_KEY_SECRET_ID',
} as const;

export interface SellerKeySource {
  sellerKeyFile?: string;
  sellerKeySecretId?: string;
}

export interface TokenConfig extends SellerKeySource {
  issuer: string;
  jwksUrl: string;
  chargeUrl: string;
  sellerId: string;
  audience: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https, or http to loopback only (the embedded default): a key set or charge call in clear text is refused. */
const endpoint = z.string().check(
  z.url(),
  z.refine((text: string) => {
    if (!URL.canParse(text)) return true; // z.url() has already reported it
    const url = new URL(text);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  }, 'must be an https URL (http only on loopback)'),
);

/** An empty variable is an unset one (zod's preprocess, which zod/mini spells as this pipe). */
const blankIsUnset = <T extends z.ZodMiniType>(schema: T) => z.pipe(z.transform((v: unknown) => (v === '' ? undefined : v)), schema);
const optional = blankIsUnset(z.optional(z.string().check(z.minLength(1))));
const schema = z.object({
  TOKEN_ISSUER: optional,
  TOKEN_JWKS_URL: blankIsUnset(z.optional(endpoint)),
  TOKEN_CHARGE_URL: blankIsUnset(z.optional(endpoint)),
  TOKEN_SELLER_ID: optional,
  TOKEN_AUDIENCE: optional,
  TOKEN_SELLER_KEY_FILE: optional,
  TOKEN_SELLER_KEY_SECRET_ID: optional,
});

const REQUIRED = ['TOKEN_ISSUER', 'TOKEN_JWKS_URL', 'TOKEN_CHARGE_URL', 'TOKEN_SELLER_ID'] as const;

/** Pure: reads `env`; undefined when token payments are not configured at all. */
export function readTokenConfig(env: Record<string, string | undefined>): TokenConfig | undefined {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('; ');
    throw new Error(`Invalid token configuration: ${problems}`);
  }
  const values = result.data;
  const present = (Object.keys(values) as (keyof typeof values)[]).filter((k) => values[k] !== undefined);
  if (present.length === 0) return undefined;
  const missing: string[] = REQUIRED.filter((k) => values[k] === undefined);
  if (!values.TOKEN_SELLER_KEY_FILE && !values.TOKEN_SELLER_KEY_SECRET_ID) {
    missing.push('TOKEN_SELLER_KEY_FILE or TOKEN_SELLER_KEY_SECRET_ID');
  }
  if (missing.length) {
    throw new Error(`Invalid token configuration: ${present.join(', ')} set but ${missing.join(', ')} missing`);
  }
  return {
    issuer: values.TOKEN_ISSUER!,
    jwksUrl: values.TOKEN_JWKS_URL!,
    chargeUrl: values.TOKEN_CHARGE_URL!,
    sellerId: values.TOKEN_SELLER_ID!,
    audience: values.TOKEN_AUDIENCE ?? values.TOKEN_SELLER_ID!,
    sellerKeyFile: values.TOKEN_SELLER_KEY_FILE,
    sellerKeySecretId: values.TOKEN_SELLER_KEY_SECRET_ID,
  };
}

let cached: { value: TokenConfig | undefined } | undefined;

/** process.env, read once; undefined means token payments are disabled. */
export function tokenConfig(): TokenConfig | undefined {
  cached ??= { value: readTokenConfig(process.env) };
  return cached.value;
}

export class SellerKeyError extends Error {
  override name = 'SellerKeyError';
}

function usableKey(raw: string, where: string): string {
  const key = raw.trim();
  if (!/^[\x21-\x7e]{8,512}$/.test(key)) {
    throw new SellerKeyError(`Seller API key from ${where} is empty or not a printable single-line string`);
  }
  return key;
}

/** The file wins over the secret, so a local run never reaches for AWS. A failed load is retried on the next call. */
export function loadSellerKey(source: SellerKeySource): Promise<string> {
  return loadSecret(
    { file: source.sellerKeyFile, secretId: source.sellerKeySecretId },
    {
      describe: 'seller key',
      parse: usableKey,
      jsonMember: 'apiKey',
      error: SellerKeyError,
      configureHint: `set ${TOKEN_ENV.sellerKeyFile} or ${TOKEN_ENV.sellerKeySecretId}`,
    },
  );
}

/** Tests only: forget the cached configuration, keys and Secrets Manager client. */
export function resetTokenConfigCache(): void {
  cached = undefined;
  resetSecretCache();
}
