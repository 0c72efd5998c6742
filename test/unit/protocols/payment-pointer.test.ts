import { describe, expect, it } from 'vitest';
import { PRODUCT_IDS } from '../../../lambdas/products/catalog.js';
import { paymentChallenge } from '../../../lambdas/jobs/offers.js';
import { POINTER_CHAIN_ID, paymentInstructions, paymentPointer, paymentPointerSchema } from '../../../lambdas/protocols/payment-pointer.js';
import { BASE, TERMS } from './fixtures.js';

describe('MCP tools of the generation surface: the payment pointer of an x402 tool', () => {
  it('has exactly the nine members of the spec, with the catalog price in cents', () => {
    expect(paymentPointer('create_music', BASE, TERMS)).toStrictEqual({
      paymentRequired: true,
      protocol: 'x402',
      endpoint: 'https://api.test/create-music',
      method: 'POST',
      network: 'base',
      chainId: '8453',
      priceUsdCents: 50,
      receiver: TERMS.payTo,
      discovery: 'https://api.test/.well-known/x402',
    });
    expect(paymentPointer('agent_video', BASE, TERMS)).toMatchObject({ endpoint: 'https://api.test/agent/video', priceUsdCents: 499 });
    expect(paymentPointer('agent_image', BASE, TERMS)).toMatchObject({ endpoint: 'https://api.test/agent/image', priceUsdCents: 15 });
  });

  it.each(PRODUCT_IDS)('%s points at the same resource, price and payee as its 402 challenge', (product) => {
    const pointer = paymentPointer(product, BASE, TERMS);
    const challenge = paymentChallenge(product, BASE, TERMS, 'x');
    const [requirement] = challenge.accepts;
    expect(pointer.endpoint).toBe(challenge.resource.url);
    expect(BigInt(pointer.priceUsdCents) * 10_000n).toBe(BigInt(requirement.amount));
    expect(pointer.receiver).toBe(requirement.payTo);
    // The pointer's chain id is the CAIP-2 reference of the challenge's network.
    expect(`eip155:${pointer.chainId}`).toBe(requirement.network);
    expect(POINTER_CHAIN_ID).toBe(TERMS.network.split(':')[1]);
  });

  it('is valid against its own strict schema, which rejects an extra member', () => {
    const pointer = paymentPointer('agent_image', BASE, TERMS);
    expect(paymentPointerSchema.safeParse(pointer).success).toBe(true);
    expect(paymentPointerSchema.safeParse({ ...pointer, extra: 1 }).success).toBe(false);
  });

  it('is explained in text with the dollar price, the endpoint and the discovery index', () => {
    const text = paymentInstructions('agent_video', paymentPointer('agent_video', BASE, TERMS));
    expect(text).toContain('$4.99');
    expect(text).toContain('POST https://api.test/agent/video');
    expect(text).toContain('https://api.test/.well-known/x402');
  });
});
