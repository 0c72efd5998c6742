/** Payment configuration is validated once at cold start: a bad combination fails loudly, never at a payer's expense. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAYMENT_ENV, paymentConfigWith as configWith } from '../../support/payment-config.js';
import { PRODUCT_IDS, PRODUCTS } from '../../../lambdas/products/products.js';

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

/**
 * lambdas/shared/ cannot import the catalog (lambdas/products/ imports shared/: a folder cycle, test/unit/architecture),
 * so shared/config.ts spells the state machine variables; this holds them to each product's `workflow.arnEnv`.
 */
describe('Workflow configuration', () => {
  it("reads each product's state machine ARN from the variable its catalog entry names (workflow.arnEnv)", async () => {
    vi.resetModules();
    for (const id of PRODUCT_IDS) vi.stubEnv(PRODUCTS[id].workflow.arnEnv, `arn:aws:states:us-east-1:000000000000:stateMachine:${id}`);
    const { ENV, workflowConfig } = await import('../../../lambdas/shared/config.js');
    expect(workflowConfig().stateMachineArns).toEqual(
      Object.fromEntries(PRODUCT_IDS.map((id) => [id, `arn:aws:states:us-east-1:000000000000:stateMachine:${id}`])),
    );
    expect(Object.values(ENV)).toEqual(expect.arrayContaining(PRODUCT_IDS.map((id) => PRODUCTS[id].workflow.arnEnv)));
  });
});
