/**
 * x402 offer-receipt (lambdas/payments/offer-receipt.ts, lambdas/middleware/offer-receipt.ts), checked with the
 * package's verifiers: one offer per x402 v2 entry; a receipt only for a settled payment, naming the network by CAIP-2;
 * and signing never decides a payment (a signer that fails leaves the 402 without offers and the paid answer without
 * its receipt, never an error).
 */
import { describe, expect, it } from 'vitest';
import { OFFER_RECEIPT, verifyOfferSignatureEIP712, verifyReceiptSignatureEIP712, type EIP712SignedOffer } from '@x402/extensions/offer-receipt';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { signedOffers, withReceipt } from '../../../lambdas/payments/offer-receipt.js';
import { offerReceipts } from '../../../lambdas/middleware/offer-receipt.js';
import { frame } from '../../../lambdas/middleware/http-frame.js';
import { PaymentRequiredError } from '../../../lambdas/shared/errors.js';
import { encodeBase64Json } from '../../../lambdas/shared/http.js';
import { GENERATION } from '../../../lambdas/surfaces/surface.js';
import type { HttpMiddleware } from '../../../lambdas/middleware/types.js';
import type { Offer } from '../../../lambdas/payments/core/types.js';
import type { PaymentChallenge } from '../../../lambdas/payments/types.js';
import { bodyOf, chain, httpEvent } from '../../support/events.js';

const account = privateKeyToAccount(generatePrivateKey());
const signer = async () => account;
const broken = async (): Promise<never> => {
  throw new Error('Secrets Manager: AccessDenied');
};
const RESOURCE = 'https://api.test/agent/image';
const ENTRY = { scheme: 'exact', network: 'eip155:8453', amount: '150000', maxAmountRequired: '150000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: `0x${'22'.repeat(20)}`, maxTimeoutSeconds: 300, resource: RESOURCE } as unknown as PaymentChallenge['accepts'][number];
const challenge = (): PaymentChallenge => ({ x402Version: 2, error: 'PAYMENT-SIGNATURE header is required', resource: { url: RESOURCE }, accepts: [ENTRY, { ...ENTRY, network: 'base' }], extensions: {} });
const SETTLED = { success: true, payer: `0x${'33'.repeat(20)}`, transaction: `0x${'ab'.repeat(32)}`, network: 'eip155:8453' };

describe('signedOffers', () => {
  it('signs a route\'s offers once a second: the same terms in the same second are the same signed offers; another second, resource or price signs anew', async () => {
    const counting = privateKeyToAccount(generatePrivateKey());
    let signatures = 0;
    const sign = counting.signTypedData.bind(counting);
    const spied = { ...counting, signTypedData: (params: Parameters<typeof sign>[0]) => (signatures++, sign(params)) } as typeof counting;
    const spiedSigner = async () => spied;
    const base = Date.UTC(2026, 10, 27, 12, 0, 0);
    const now = Date.now;
    try {
      Date.now = () => base + 100;
      const first = await signedOffers(challenge(), spiedSigner);
      Date.now = () => base + 900;
      expect(await signedOffers(challenge(), spiedSigner)).toBe(first);
      expect(signatures).toBe(1);
      Date.now = () => base + 1_000;
      const next = (await signedOffers(challenge(), spiedSigner)) as { info: { offers: EIP712SignedOffer[] } };
      expect(signatures).toBe(2);
      expect(next.info.offers[0].payload.validUntil).toBe((first as typeof next).info.offers[0].payload.validUntil + 1);
      const dearer = challenge();
      dearer.accepts[0] = { ...ENTRY, amount: '150001' } as never;
      await signedOffers(dearer, spiedSigner);
      const elsewhere = challenge();
      elsewhere.resource = { url: `${RESOURCE}x` };
      await signedOffers(elsewhere, spiedSigner);
      expect(signatures).toBe(4);
    } finally {
      Date.now = now;
    }
  });


  it('signs one offer per x402 v2 entry (not the legacy `base` one), at its index, valid for maxTimeoutSeconds', async () => {
    const member = (await signedOffers(challenge(), signer)) as { info: { offers: EIP712SignedOffer[] }; schema: unknown };
    expect(member.info.offers).toHaveLength(1);
    const [offer] = member.info.offers;
    expect(offer.acceptIndex).toBe(0);
    const { signer: recovered, payload } = await verifyOfferSignatureEIP712(offer);
    expect(recovered).toBe(account.address);
    expect(payload).toMatchObject({ resourceUrl: RESOURCE, network: 'eip155:8453', amount: '150000', payTo: ENTRY.payTo });
    expect(payload.validUntil - Date.now() / 1000).toBeGreaterThan(290);
    expect(member.schema).toEqual(expect.objectContaining({ type: 'object' }));
  });
});

describe('withReceipt', () => {
  it('signs a settled payment, naming the network by CAIP-2 even when the response names it `base` (x402 v1)', async () => {
    const out = await withReceipt({ ...SETTLED, network: 'base' }, RESOURCE, 'eip155:8453', signer);
    const { receipt } = (out.extensions![OFFER_RECEIPT] as { info: { receipt: never } }).info;
    const { signer: recovered, payload } = await verifyReceiptSignatureEIP712(receipt);
    expect(recovered).toBe(account.address);
    expect(payload).toMatchObject({ network: 'eip155:8453', payer: SETTLED.payer, transaction: SETTLED.transaction, resourceUrl: RESOURCE });
    expect(out.network).toBe('base');
  });

  it.each([
    ['not settled', { ...SETTLED, success: false }],
    ['without a transaction', { ...SETTLED, transaction: undefined }],
    ['without a payer', { ...SETTLED, payer: undefined }],
  ])('leaves a response %s as it is: no receipt', async (_case, response) => {
    expect(await withReceipt(response, RESOURCE, 'eip155:8453', signer)).toEqual(response);
  });
});

describe('the middleware: signing never decides a payment', () => {
  const refuse: HttpMiddleware = { name: 'refuse', before: () => Promise.reject(new PaymentRequiredError(challenge() as never)) };
  const withOffer: HttpMiddleware = { name: 'offer', before: (request) => void (request.internal.offer = { resource: RESOURCE } as Offer) };
  const paidAnswer = () => ({ statusCode: 202, headers: { 'Content-Type': 'application/json', 'PAYMENT-RESPONSE': encodeBase64Json(SETTLED) }, body: '{"jobId":"j"}' });
  const settlementOf = (result: { headers?: Record<string, unknown> }) => JSON.parse(Buffer.from(String(result.headers!['PAYMENT-RESPONSE']), 'base64').toString('utf8'));

  it('a 402 leaving the chain carries the offers; with a signer that fails, the same 402 without them', async () => {
    const signed = await chain([...frame(GENERATION), offerReceipts({ network: () => 'eip155:8453', signer }), refuse]).invoke(httpEvent({}));
    expect(signed.statusCode).toBe(402);
    expect(bodyOf(signed).extensions[OFFER_RECEIPT].info.offers).toHaveLength(1);
    const unsigned = await chain([...frame(GENERATION), offerReceipts({ network: () => 'eip155:8453', signer: broken }), refuse]).invoke(httpEvent({}));
    expect(unsigned.statusCode).toBe(402);
    expect(bodyOf(unsigned).extensions).toEqual({});
  });

  it('a paid answer carries the receipt in PAYMENT-RESPONSE; with a signer that fails, the same answer without it', async () => {
    const signed = await chain([...frame(GENERATION), offerReceipts({ network: () => 'eip155:8453', signer }), withOffer], paidAnswer).invoke(httpEvent({}));
    expect(signed.statusCode).toBe(202);
    expect(settlementOf(signed).extensions[OFFER_RECEIPT].info.receipt.payload.transaction).toBe(SETTLED.transaction);
    const unsigned = await chain([...frame(GENERATION), offerReceipts({ network: () => 'eip155:8453', signer: broken }), withOffer], paidAnswer).invoke(httpEvent({}));
    expect(unsigned.statusCode).toBe(202);
    expect(settlementOf(unsigned)).toEqual(SETTLED);
  });
});
