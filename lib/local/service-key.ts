/**
 * The embedded default's service key (lambdas/jobs/job-secrets.ts): 32 random bytes, hex, made once in
 * `<stateDir>/service-key` (mode 0600) and kept across restarts, so a cancel token given before a restart still
 * cancels its job after it. The functions read it as on AWS, through the local Secrets Manager and their grant.
 * The offer-signing key (lambdas/payments/offer-receipt.ts) is made the same way, in `<stateDir>/offer-signing-key`:
 * 32 random bytes are a secp256k1 private key but for a chance of about 2^-128.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** 32 random bytes, hex, made once in `<stateDir>/<name>` and kept: the service key, the offer-signing key. */
export function localKeyFile(stateDir: string, name: string): { file: string; value: () => Promise<string> } {
  const file = join(stateDir, name);
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return { file, value: async () => readFileSync(file, 'utf8').trim() };
}
