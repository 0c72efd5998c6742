/** Who pays, read from the header before verification: the key a paid answer is replayed under. */
import { describe, expect, it } from 'vitest';
import { payingParty } from '../../../lambdas/payments/core/party.js';
import type { PaymentTerms } from '../../../lambdas/payments/core/challenge.js';
import { BASE_USDC, PAY_TO, newBuyer, requirementFor, signedPayment } from './fixtures.js';

const terms: PaymentTerms = { network: 'eip155:8453', usdcAddress: BASE_USDC, payTo: PAY_TO };

describe('payingParty', () => {
  it('is the address that signed an x402 authorization', async () => {
    const buyer = newBuyer();
    const payload = await signedPayment(buyer, requirementFor());
    expect(await payingParty({ kind: 'x402', payload }, terms)).toBe(`x402:${buyer.address.toLowerCase()}`);
  });

  it('claiming another payer in `from` does not make one that payer', async () => {
    const [buyer, victim] = [newBuyer(), newBuyer()];
    const payload = await signedPayment(buyer, requirementFor());
    const forged = { ...payload, payload: { ...payload.payload, authorization: { ...payload.payload.authorization, from: victim.address } } };
    expect(await payingParty({ kind: 'x402', payload: forged }, terms)).not.toBe(`x402:${victim.address.toLowerCase()}`);
  });

  it('is the token itself for an agent-payment token, and nobody for no or an unreadable payment', async () => {
    expect(await payingParty({ kind: 'token', token: 'a.b.c' }, terms)).toMatch(/^token:[0-9a-f]{32}$/);
    expect(await payingParty({ kind: 'token', token: 'a.b.d' }, terms)).not.toBe(await payingParty({ kind: 'token', token: 'a.b.c' }, terms));
    expect(await payingParty({ kind: 'none' }, terms)).toBeUndefined();
    expect(await payingParty({ kind: 'unreadable', length: 3 }, terms)).toBeUndefined();
  });
});
