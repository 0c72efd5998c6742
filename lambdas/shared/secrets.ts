/**
 * One loader for the secrets a function needs at run time (the settler's private key, the token seller's API key):
 * a file on one machine, or Secrets Manager on AWS. Each secret is loaded once per process and kept only in
 * memory; a failed load is forgotten, so the next call tries again. Errors name the source (file path or secret
 * id) and never the value. SECRETS_MANAGER_ENDPOINT, when set, points the client at a local Secrets Manager (the
 * embedded default's, lib/local/secrets-server.ts), as DYNAMODB_ENDPOINT and S3_ENDPOINT do for theirs. The
 * Secrets Manager client is imported on first use: most cold starts (an unpaid probe, a poll) read no secret.
 */
import { readFile } from 'node:fs/promises';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/** Where a secret lives. The file wins over the secret, so a local run never reaches for AWS. */
export interface SecretSource {
  file?: string;
  secretId?: string;
}

export interface SecretReader<T> {
  /** What the secret is, in lower case, for messages: 'settler key' → "Cannot read settler key file …". */
  describe: string;
  /**
   * Checks and normalises the raw text (trimmed when from Secrets Manager); throws, without the value, when it is
   * unusable. `where` names the source: `file <path>` or `secret <id>`.
   */
  parse: (raw: string, where: string) => T;
  /** A SecretString that is a JSON object holds the value in this member (a plain string is the value itself). */
  jsonMember?: string;
  /** The class of the errors thrown by the loader (default SecretError). */
  error?: new (message: string) => Error;
  /** Appended when no source is set: "No settler key configured: <hint>". */
  configureHint?: string;
}

export class SecretError extends Error {
  override name = 'SecretError';
}

/** The variable naming a local Secrets Manager endpoint; unset on AWS. */
export const SECRETS_MANAGER_ENDPOINT = 'SECRETS_MANAGER_ENDPOINT';

let secretsClient: SecretsManagerClient | undefined;
/** Keyed by what is read and where from: the same file read as two different secrets is two entries. */
const cache = new Map<string, Promise<unknown>>();

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

async function fromFile<T>(file: string, read: SecretReader<T>, fail: (message: string) => Error): Promise<T> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw fail(`Cannot read ${read.describe} file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return read.parse(text, `file ${file}`);
}

function newSecretsClient(SecretsManagerClient: typeof import('@aws-sdk/client-secrets-manager').SecretsManagerClient, fail: (message: string) => Error): SecretsManagerClient {
  const endpoint = process.env[SECRETS_MANAGER_ENDPOINT];
  if (!endpoint) return new SecretsManagerClient({});
  if (!URL.canParse(endpoint)) throw fail(`${SECRETS_MANAGER_ENDPOINT} is not a URL`);
  return new SecretsManagerClient({
    endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

async function fromSecretsManager<T>(secretId: string, read: SecretReader<T>, fail: (message: string) => Error): Promise<T> {
  const sdk = await import('@aws-sdk/client-secrets-manager');
  secretsClient ??= newSecretsClient(sdk.SecretsManagerClient, fail);
  let secret: string | undefined;
  try {
    secret = (await secretsClient.send(new sdk.GetSecretValueCommand({ SecretId: secretId }))).SecretString;
  } catch (error) {
    throw fail(`Cannot read ${read.describe} secret ${secretId}: ${(error as Error).name}`);
  }
  const where = `secret ${secretId}`;
  const label = `${capitalise(read.describe)} ${where}`;
  if (!secret) throw fail(`${label} has no SecretString`);
  const trimmed = secret.trim();
  if (!read.jsonMember || !trimmed.startsWith('{')) return read.parse(trimmed, where);
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    throw fail(`${label} is not valid JSON`);
  }
  const member = (parsed as Record<string, unknown>)[read.jsonMember];
  if (typeof member !== 'string') throw fail(`${label} has no string member ${read.jsonMember}`);
  return read.parse(member, where);
}

/** The secret from `source`, loaded once per process; a failed load is retried on the next call. */
export function loadSecret<T>(source: SecretSource, read: SecretReader<T>): Promise<T> {
  const ErrorClass = read.error ?? SecretError;
  const fail = (message: string) => new ErrorClass(message);
  const where = source.file ? `file:${source.file}` : source.secretId ? `secret:${source.secretId}` : undefined;
  if (!where) {
    const hint = read.configureHint ? `: ${read.configureHint}` : '';
    return Promise.reject(fail(`No ${read.describe} configured${hint}`));
  }
  const id = `${read.describe}|${where}`;
  let pending = cache.get(id) as Promise<T> | undefined;
  if (!pending) {
    pending = source.file ? fromFile(source.file, read, fail) : fromSecretsManager(source.secretId!, read, fail);
    cache.set(id, pending);
    const mine = pending;
    mine.catch(() => {
      if (cache.get(id) === mine) cache.delete(id);
    });
  }
  return pending;
}

/** Tests only: forget every cached secret and the Secrets Manager client (so a mocked client is picked up). */
export function resetSecretCache(): void {
  cache.clear();
  secretsClient = undefined;
}
