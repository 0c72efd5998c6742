/** Payment configuration is validated once at cold start: a bad combination fails loudly, never at a payer's expense. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAYMENT_ENV, paymentConfigWith as configWith } from '../../support/payment-config.js';

const VALID = { ...PAYMENT_ENV, RPC_URL: 'http://127.0.0.1:8545' };
const paymentConfigWith = (env: Record<string, string>) => configWith(env, VALID);

afterEach(() => vi.unstubAllEnvs());

describe('Payment configuration', () => {
  it('defaults to Base (eip155:8453, chain 8453) with self-settlement', async () => {
    expect(await paymentConfigWith({})).toMatchObject({ network: 'eip155:8453', chainId: 8453, facilitatorMode: 'self' });
  });
  it('refuses a CHAIN_ID that is not the network’s (signatures would never recover)', async () => {
    await expect(paymentConfigWith({ CHAIN_ID: '84532' })).rejects.toThrow('CHAIN_ID 84532 does not match X402_NETWORK eip155:8453');
  });
  it('accepts Base Sepolia (eip155:84532) with its chain id, for a staging stack; refuses any other network', async () => {
    expect(await paymentConfigWith({ X402_NETWORK: 'eip155:84532', CHAIN_ID: '84532' })).toMatchObject({ network: 'eip155:84532', chainId: 84532 });
    await expect(paymentConfigWith({ X402_NETWORK: 'eip155:1', CHAIN_ID: '1' })).rejects.toThrow(/X402_NETWORK/);
  });
  it('refuses a remote facilitator without a URL, and self-settlement without a key source', async () => {
    await expect(paymentConfigWith({ FACILITATOR_MODE: 'remote' })).rejects.toThrow('FACILITATOR_URL is required');
    await expect(paymentConfigWith({ SETTLER_KEY_FILE: '' })).rejects.toThrow(/SETTLER_KEY/);
  });
});
