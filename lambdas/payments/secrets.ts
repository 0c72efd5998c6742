/**
 * The settler's gas-paying private key: a file on one machine (SETTLER_KEY_FILE), Secrets Manager on AWS
 * (SETTLER_KEY_SECRET_ID). Loaded once per process and kept only in memory; never logged, never put in an error.
 */
import { readFile } from 'node:fs/promises';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Hex } from './types.js';

export interface SettlerKeySource {
  settlerKeyFile?: string;
  settlerKeySecretId?: string;
}

export class SettlerKeyError extends Error {
  override name = 'SettlerKeyError';
}

let secretsClient: SecretsManagerClient | undefined;
const cache = new Map<string, Promise<Hex>>();

/** Accepts the key with or without 0x; anything else is refused without echoing the value. */
export function normaliseKey(raw: string, where: string): Hex {
  const trimmed = raw.trim();
  const hex = trimmed.startsWith('0x') || trimmed.startsWith('0X') ? trimmed.slice(2) : trimmed;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new SettlerKeyError(`Settler key from ${where} is not a 32-byte hex private key`);
  }
  return `0x${hex.toLowerCase()}`;
}

async function fromFile(file: string): Promise<Hex> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SettlerKeyError(`Cannot read settler key file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return normaliseKey(text, `file ${file}`);
}

async function fromSecretsManager(secretId: string): Promise<Hex> {
  secretsClient ??= new SecretsManagerClient({});
  let secret: string | undefined;
  try {
    const out = await secretsClient.send(new GetSecretValueCommand({ SecretId: secretId }));
    secret = out.SecretString;
  } catch (error) {
    throw new SettlerKeyError(`Cannot read settler key secret ${secretId}: ${(error as Error).name}`);
  }
  if (!secret) throw new SettlerKeyError(`Settler key secret ${secretId} has no SecretString`);
  const where = `secret ${secretId}`;
  const trimmed = secret.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new SettlerKeyError(`Settler key ${where} is not valid JSON`);
    }
    const key = (parsed as { privateKey?: unknown }).privateKey;
    if (typeof key !== 'string') throw new SettlerKeyError(`Settler key ${where} has no string member privateKey`);
    return normaliseKey(key, where);
  }
  return normaliseKey(trimmed, where);
}

/** The key file wins over the secret, so a local run never reaches for AWS. A failed load is retried next call. */
export function loadSettlerKey(config: SettlerKeySource): Promise<Hex> {
  const source = config.settlerKeyFile
    ? `file:${config.settlerKeyFile}`
    : config.settlerKeySecretId
      ? `secret:${config.settlerKeySecretId}`
      : undefined;
  if (!source) {
    return Promise.reject(new SettlerKeyError('No settler key configured: set SETTLER_KEY_FILE or SETTLER_KEY_SECRET_ID'));
  }
  let pending = cache.get(source);
  if (!pending) {
    pending = config.settlerKeyFile ? fromFile(config.settlerKeyFile) : fromSecretsManager(config.settlerKeySecretId!);
    cache.set(source, pending);
    pending.catch(() => cache.delete(source));
  }
  return pending;
}

/** Tests only: forget cached keys and the client (so a mocked client is picked up). */
export function resetSettlerKeyCache(): void {
  cache.clear();
  secretsClient = undefined;
}
