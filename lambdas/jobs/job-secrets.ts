/**
 * Per-job secrets without accounts (docs/decisions/0017): a job's cancel token and its webhook signing secret are derived from one
 * service key and the job's id, so nothing per job is stored and only whoever was given them — the payer, in the paid
 * 202 — holds them. The service
 * key is 32 random bytes, hex, in Secrets Manager (`serviceKeySecretName`, default `paycall/service-key`; docs/deploy.md,
 * runbook step 6), read through the function's grant once per process (lambdas/shared/secrets.ts); the embedded default keeps
 * it in `<stateDir>/service-key` and serves it through its local Secrets Manager.
 *
 * Derivation: HMAC-SHA256(service key, "paycall/<purpose>/v1\0<jobId>"), base64url, with a prefix naming what it is
 * (`ct_` for a cancel token). A webhook secret is the Standard Webhooks form instead: `whsec_` and the 32 key bytes in
 * standard base64, which the `standardwebhooks` library (ours signing, the buyer's verifying) decodes. Each purpose has its own label, so one job's cancel token says nothing about another
 * purpose's secret or another job's. Rotating the service key invalidates every outstanding token.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DependencyError } from '../shared/errors.js';
import { loadSecret } from '../shared/secrets.js';

export const JOB_SECRETS_ENV = { secretId: 'SERVICE_KEY_SECRET_ID' } as const;

const MIN_KEY_BYTES = 32;

class ServiceKeyError extends DependencyError {
  override name = 'ServiceKeyError';
}

function parseServiceKey(raw: string, where: string): Buffer {
  const hex = raw.trim();
  // The value is the secret: the message says what is wrong with it, never what it is.
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex) || hex.length < MIN_KEY_BYTES * 2) {
    throw new ServiceKeyError(`The service key in ${where} is not hex of at least ${MIN_KEY_BYTES} bytes`);
  }
  return Buffer.from(hex, 'hex');
}

/** The service key (read once per process; a failed read is retried, and is a DependencyError: a 503, nothing charged). */
export function serviceKey(env: NodeJS.ProcessEnv = process.env): Promise<Buffer> {
  return loadSecret(
    { secretId: env[JOB_SECRETS_ENV.secretId] },
    { describe: 'service key', parse: parseServiceKey, error: ServiceKeyError, configureHint: `set ${JOB_SECRETS_ENV.secretId}` },
  );
}

type Purpose = 'cancel' | 'webhook';

function derive(key: Buffer, purpose: Purpose, jobId: string): Buffer {
  return createHmac('sha256', key).update(`paycall/${purpose}/v1\0${jobId}`).digest();
}

/** The cancel token of job `jobId`: given once, in the paid 202, to the payer. */
export function cancelToken(key: Buffer, jobId: string): string {
  return `ct_${derive(key, 'cancel', jobId).toString('base64url')}`;
}

/** The secret job `jobId`'s webhook deliveries are signed with (Standard Webhooks `whsec_…`): given once, in the paid 202. */
export function webhookSecret(key: Buffer, jobId: string): string {
  return `whsec_${derive(key, 'webhook', jobId).toString('base64')}`;
}

/** Whether `presented` is job `jobId`'s cancel token (compared in constant time). */
export function isCancelToken(key: Buffer, jobId: string, presented: string): boolean {
  const expected = Buffer.from(cancelToken(key, jobId));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
