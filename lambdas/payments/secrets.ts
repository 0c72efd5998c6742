/**
 * The settler's gas-paying private key: a file on one machine (SETTLER_KEY_FILE), Secrets Manager on AWS
 * (SETTLER_KEY_SECRET_ID, a bare key or JSON {"privateKey": "…"}). Loaded once per process by the shared secret
 * loader (lambdas/shared/secrets.ts) and kept only in memory; never logged, never put in an error.
 */
import { loadSecret, resetSecretCache } from '../shared/secrets.js';
import type { Hex } from './types.js';

export interface SettlerKeySource {
  settlerKeyFile?: string;
  settlerKeySecretId?: string;
}

export class SettlerKeyError extends Error {
  override name = 'SettlerKeyError';
}

/** Accepts the key with or without 0x; anything else is refused without echoing the value. */
export function normaliseKey(raw: string, where: string): Hex {
  const trimmed = raw.trim();
  const hex = trimmed.startsWith('0x') || trimmed.startsWith('0X') ? trimmed.slice(2) : trimmed;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new SettlerKeyError(`Settler key from ${where} is not a 32-byte hex private key`);
  }
  return `0x${hex.toLowerCase()}`;
}

/** The key file wins over the secret, so a local run never reaches for AWS. A failed load is retried next call. */
export function loadSettlerKey(config: SettlerKeySource): Promise<Hex> {
  return loadSecret(
    { file: config.settlerKeyFile, secretId: config.settlerKeySecretId },
    {
      describe: 'settler key',
      parse: normaliseKey,
      jsonMember: 'privateKey',
      error: SettlerKeyError,
      configureHint: 'set SETTLER_KEY_FILE or SETTLER_KEY_SECRET_ID',
    },
  );
}

/** Tests only: forget cached keys and the client (so a mocked client is picked up). */
export function resetSettlerKeyCache(): void {
  resetSecretCache();
}
