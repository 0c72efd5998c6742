/**
 * The settler's gas-paying private keys: a file on one machine (SETTLER_KEY_FILE), Secrets Manager on AWS
 * (SETTLER_KEY_SECRET_ID); the file wins, so a local run never reaches for AWS. Loaded once per process by the
 * shared secret loader (lambdas/shared/secrets.ts) and kept only in memory; never logged, never put in an error.
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

/**
 * The pool of settlement keys: one key per line (a file, or a secret string), or JSON {"privateKeys": ["…", …]}
 * (or {"privateKey": "…"}). Each key has its own nonce sequence; more keys settle more payments at once.
 */
export function loadSettlerKeys(config: SettlerKeySource): Promise<Hex[]> {
  return loadSecret(
    { file: config.settlerKeyFile, secretId: config.settlerKeySecretId },
    {
      describe: 'settler keys',
      parse: parseKeyPool,
      error: SettlerKeyError,
      configureHint: 'set SETTLER_KEY_FILE or SETTLER_KEY_SECRET_ID',
    },
  );
}

export function parseKeyPool(raw: string, where: string): Hex[] {
  const text = raw.trim();
  let keys: string[];
  if (text.startsWith('{')) {
    let parsed: { privateKeys?: unknown; privateKey?: unknown };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      throw new SettlerKeyError(`Settler keys from ${where} are not valid JSON`);
    }
    const list = Array.isArray(parsed.privateKeys) ? parsed.privateKeys : typeof parsed.privateKey === 'string' ? [parsed.privateKey] : undefined;
    if (!list || list.some((k) => typeof k !== 'string')) throw new SettlerKeyError(`Settler keys from ${where} have no string members privateKeys or privateKey`);
    keys = list as string[];
  } else {
    keys = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  }
  if (keys.length === 0) throw new SettlerKeyError(`Settler keys from ${where} are empty`);
  const normalised = keys.map((key) => normaliseKey(key, where));
  if (new Set(normalised).size !== normalised.length) throw new SettlerKeyError(`Settler keys from ${where} repeat a key`);
  return normalised;
}

/** Tests only: forget cached keys and the client (so a mocked client is picked up). */
export function resetSettlerKeyCache(): void {
  resetSecretCache();
}
