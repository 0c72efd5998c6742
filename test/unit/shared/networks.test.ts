import { describe, expect, it } from 'vitest';
import { canonicalNetwork, networkOf, NETWORK_IDS } from '../../../lambdas/shared/networks.js';
import { paymentChallenge } from '../../../lambdas/jobs/offers.js';
import { paymentPointer, paymentPointerSchema } from '../../../lambdas/protocols/payment-pointer.js';
import { networkAliases } from '../../../lambdas/protocols/discovery/x402-index.js';

const PAY_TO = '0x000000000000000000000000000000000000dEaD';
const SEPOLIA = { network: 'eip155:84532', usdcAddress: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', payTo: PAY_TO, tokenName: 'USDC' } as const;
const BASE = { network: 'eip155:8453', usdcAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: PAY_TO, tokenName: 'USD Coin' } as const;

describe('Networks: Base mainnet, and Base Sepolia for a staging stack', () => {
  it('knows both, by CAIP-2 id and by x402 v1 name', () => {
    expect(NETWORK_IDS).toEqual(['eip155:8453', 'eip155:84532']);
    expect(canonicalNetwork('base')).toBe('eip155:8453');
    expect(canonicalNetwork('base-sepolia')).toBe('eip155:84532');
    expect(canonicalNetwork('eip155:8453')).toBe('eip155:8453');
    expect(() => networkOf('eip155:1')).toThrow(/Unknown network/);
  });

  it("the 402 names the network's token domain: 'USD Coin' on Base, 'USDC' on Base Sepolia", () => {
    expect(paymentChallenge('agent_image', 'https://api.test', BASE, 'x').accepts[0]).toMatchObject({ network: 'eip155:8453', extra: { name: 'USD Coin', version: '2' } });
    expect(paymentChallenge('agent_image', 'https://api.test', SEPOLIA, 'x').accepts[0]).toMatchObject({
      network: 'eip155:84532',
      asset: SEPOLIA.usdcAddress,
      extra: { name: 'USDC', version: '2' },
    });
  });

  it('the payment pointer names the network and chain the 402 asks for', () => {
    expect(paymentPointer('agent_image', 'https://api.test', BASE)).toMatchObject({ network: 'base', chainId: '8453' });
    const staging = paymentPointer('agent_image', 'https://api.test', SEPOLIA);
    expect(staging).toMatchObject({ network: 'base-sepolia', chainId: '84532' });
    expect(paymentPointerSchema.parse(staging)).toEqual(staging);
  });

  it('the discovery index repeats each entry under its x402 v1 name', () => {
    const requirement = paymentChallenge('agent_image', 'https://api.test', SEPOLIA, 'x').accepts[0];
    expect(networkAliases(requirement).map((r) => r.network)).toEqual(['eip155:84532', 'base-sepolia']);
  });
});
