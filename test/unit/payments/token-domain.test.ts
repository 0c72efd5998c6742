/**
 * The token's EIP-712 domain name is the network's, taken from the network table everywhere it is used: Base's USDC
 * is "USD Coin", Base Sepolia's "USDC". Terms name only the network, so no caller can forget the name and get
 * Base's by default (the refund itself is signed over it too: test/components/refunds-sepolia.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { paymentRequirement, type PaymentTerms } from '../../../lambdas/payments/core/challenge.js';
import { payingParty } from '../../../lambdas/payments/core/party.js';
import { playgroundPage } from '../../../lambdas/playground/page.js';
import { AGENT_STUDIO } from '../../../lambdas/surfaces/surface.js';
import type { Offer } from '../../../lambdas/payments/core/types.js';
import { PAY_TO, newBuyer, requirementFor, signedPayment } from './fixtures.js';

const SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const SEPOLIA: PaymentTerms = { network: 'eip155:84532', usdcAddress: SEPOLIA_USDC, payTo: PAY_TO };
const OFFER: Offer = {
  id: 'agent_image',
  amount: 150_000n,
  resource: 'https://api.test/agent/image',
  description: 'agent_image',
  method: 'POST',
  inputSchema: {},
  mimeType: 'application/json',
  timeoutSeconds: 300,
  accepts: ['x402'],
};

describe("The token domain is the network's (network table), never Base's by default", () => {
  it('the requirement on Base Sepolia names "USDC"; on Base "USD Coin"', () => {
    expect(paymentRequirement(OFFER, SEPOLIA).extra).toMatchObject({ name: 'USDC', version: '2', decimals: 6 });
    expect(paymentRequirement(OFFER, { ...SEPOLIA, network: 'eip155:8453' }).extra).toMatchObject({ name: 'USD Coin', version: '2' });
  });

  it('the paying party on Base Sepolia is the address that signed over the "USDC" domain', async () => {
    const buyer = newBuyer();
    const payload = await signedPayment(buyer, requirementFor({ network: 'eip155:84532', asset: SEPOLIA_USDC, extra: { name: 'USDC', version: '2', decimals: 6, priceUsd: '$0.15' } }));
    expect(await payingParty({ kind: 'x402', payload }, SEPOLIA)).toBe(`x402:${buyer.address.toLowerCase()}`);
  });

  it("the playground knows each network's token name from the table, for a requirement whose extra omits it", () => {
    const script = /<script[^>]*>([\s\S]*?)<\/script>/.exec(playgroundPage(AGENT_STUDIO).html)![1];
    const config = JSON.parse(/\)\((\{.*\})\);$/.exec(script.trim())![1]);
    expect(config.tokenNames).toEqual({ '8453': 'USD Coin', '84532': 'USDC' });
  });
});
