/** The payment configuration read fresh from a stubbed environment (a module reload per call), for config unit tests. */
import { vi } from 'vitest';
import type { paymentConfig } from '../../lambdas/shared/config.js';

/** What a function needs besides its RPC URL (RPC_URL or RPC_URL_SECRET_ID, which each test chooses). */
export const PAYMENT_ENV = {
  USDC_ADDRESS: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  PAY_TO_ADDRESS: '0x000000000000000000000000000000000000dEaD',
  SETTLER_KEY_FILE: '/tmp/settler.key',
};

/** paymentConfig() with `base` and `env` stubbed (undo with vi.unstubAllEnvs()). */
export async function paymentConfigWith(env: Record<string, string>, base: Record<string, string> = PAYMENT_ENV): Promise<ReturnType<typeof paymentConfig>> {
  vi.resetModules();
  for (const [k, v] of Object.entries({ ...base, ...env })) vi.stubEnv(k, v);
  return (await import('../../lambdas/shared/config.js')).paymentConfig();
}
