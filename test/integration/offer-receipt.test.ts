/**
 * The x402 `offer-receipt` extension against the embedded service (docs/decisions/0019), checked with the
 * package's own verifiers only (`verifyOfferSignatureEIP712`, `verifyReceiptSignatureEIP712`,
 * `verifyReceiptMatchesOffer`, `extractOffersFromPaymentRequired`, `extractReceiptFromResponse`): every 402 on both
 * surfaces carries an offer signed for its x402 v2 entry by the key `/.well-known/x402` publishes (never the pay-to
 * wallet); every paid answer carries a receipt signed by the same key, naming the payer, the CAIP-2 network and the
 * transaction that moved the money; a replayed answer carries the same receipt; a refused payment gets offers, never
 * a receipt.
 */
import { describe, expect, it } from 'vitest';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import {
  decodeSignedOffers,
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  findAcceptsObjectFromSignedOffer,
  OFFER_RECEIPT,
  verifyOfferSignatureEIP712,
  verifyReceiptMatchesOffer,
  verifyReceiptSignatureEIP712,
  type EIP712SignedOffer,
  type EIP712SignedReceipt,
} from '@x402/extensions/offer-receipt';
import { wrapFetchWithPayment as wrapFetchV1, decodeXPaymentResponse } from 'x402-fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { fetchFrom, freshBuyer, payingFetch, runtime, transfersFrom } from '../support/buyer.js';
import { challengeOf, signedHeader } from '../support/sign.js';

let sent = 0;
const nextIp = () => `127.0.25.${(sent++ % 250) + 1}`;
const JSON_TYPE = { 'Content-Type': 'application/json' };
const BANK_REC = 'bank-rec-discrepancy-finder-bw0tt';
const RUN_BODY = JSON.stringify({ input: { bankStatement: 'Date,Description,Amount\n11/02/2026,Deposit,100.00', bookEntries: 'Date,Memo,Debit,Credit\n2026-11-02,Deposit,100.00,' } });

/** The signer each surface's x402 index publishes. */
async function publishedSigner(base: string): Promise<string> {
  const index = await (await fetchFrom(nextIp())(`${base}/.well-known/x402`)).json();
  expect(index.offerReceipt).toMatchObject({ format: 'eip712', signer: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) });
  return index.offerReceipt.signer;
}

/** A 402's offers, verified by the package: signed by `signer`, each matching its accepts entry. */
async function verifiedOffers(response: Response, signer: string) {
  expect(response.status).toBe(402);
  const challenge = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
  const offers = extractOffersFromPaymentRequired(challenge);
  expect(offers).toHaveLength(1);
  for (const offer of offers) {
    const { signer: recovered, payload } = await verifyOfferSignatureEIP712(offer as EIP712SignedOffer);
    expect(recovered.toLowerCase()).toBe(signer.toLowerCase());
    expect(recovered.toLowerCase()).not.toBe(runtime().payTo.toLowerCase());
    const entry = findAcceptsObjectFromSignedOffer(offer, challenge.accepts)!;
    expect(entry).toBeDefined();
    expect(payload).toMatchObject({ resourceUrl: challenge.resource!.url, scheme: entry.scheme, network: entry.network, asset: entry.asset, payTo: entry.payTo, amount: entry.amount });
    expect(payload.validUntil).toBeGreaterThan(Date.now() / 1000);
  }
  // The body carries the same offers.
  expect((await response.json()).extensions[OFFER_RECEIPT]).toEqual(challenge.extensions![OFFER_RECEIPT]);
  return decodeSignedOffers(offers);
}

/** A paid answer's receipt, verified by the package against the offer and the chain's transfer. */
async function verifiedReceipt(response: Response, signer: string, payer: string, offer: ReturnType<typeof decodeSignedOffers>[number], header = 'payment-response') {
  const settlement = header === 'payment-response' ? decodePaymentResponseHeader(response.headers.get(header)!) : (decodeXPaymentResponse(response.headers.get(header)!) as any);
  const receipt = (header === 'payment-response' ? extractReceiptFromResponse(response) : settlement.extensions?.[OFFER_RECEIPT]?.info?.receipt) as EIP712SignedReceipt;
  expect(receipt).toBeDefined();
  const { signer: recovered, payload } = await verifyReceiptSignatureEIP712(receipt);
  expect(recovered.toLowerCase()).toBe(signer.toLowerCase());
  expect(payload).toMatchObject({ payer, network: 'eip155:8453', resourceUrl: offer.resourceUrl, transaction: settlement.transaction });
  expect(verifyReceiptMatchesOffer(receipt, offer, [payer])).toBe(true);
  return receipt;
}

describe('offer-receipt on the generation surface', () => {
  it('a 402 carries a signed offer; the paid 202 a receipt for its transfer; a replay the same receipt', async () => {
    const { baseUrl, payTo } = runtime();
    const signer = await publishedSigner(baseUrl);
    const url = `${baseUrl}/agent/image`;
    const body = JSON.stringify({ prompt: 'a signed offer, a signed receipt' });
    const [offer] = await verifiedOffers(await fetchFrom(nextIp())(url, { method: 'POST', headers: JSON_TYPE, body }), signer);

    const buyer = await freshBuyer();
    const key = `offer-receipt-${Date.now()}`;
    const paid = await payingFetch(buyer.privateKey, nextIp())(url, { method: 'POST', headers: { ...JSON_TYPE, 'X-Idempotency-Key': key }, body });
    expect(paid.status).toBe(202);
    const receipt = await verifiedReceipt(paid, signer, buyer.address, offer);
    const [transfer] = await transfersFrom(buyer.address);
    expect(transfer).toEqual({ to: payTo, value: 150_000n });

    // The payer's retry is the stored answer, its receipt included (not a second one).
    const replay = await fetchFrom(nextIp())(url, { method: 'POST', headers: { ...JSON_TYPE, 'X-Idempotency-Key': key, 'PAYMENT-SIGNATURE': await signedHeader(buyer.privateKey, await challengeOf(fetchFrom(nextIp()), url)) }, body });
    expect(replay.status).toBe(202);
    expect(extractReceiptFromResponse(replay)).toEqual(receipt);
  });

  it('a payment refused at verification gets the 402 with offers and no receipt', async () => {
    const { baseUrl } = runtime();
    const signer = await publishedSigner(baseUrl);
    const broke = privateKeyToAccount('0x' + '7'.repeat(64) as `0x${string}`);
    const header = await signedHeader(('0x' + '7'.repeat(64)) as `0x${string}`, await challengeOf(fetchFrom(nextIp()), `${baseUrl}/agent/image`));
    const refused = await fetchFrom(nextIp())(`${baseUrl}/agent/image`, { method: 'POST', headers: { ...JSON_TYPE, 'PAYMENT-SIGNATURE': header }, body: '{"prompt":"unfunded"}' });
    expect(refused.headers.get('payment-response')).toBeNull();
    await verifiedOffers(refused, signer);
    expect(await transfersFrom(broke.address)).toEqual([]);
  });
});

describe('offer-receipt on the agent studio', () => {
  it('a run: offer in the 402, receipt in PAYMENT-RESPONSE, both by the key the agent index publishes', async () => {
    const { agentsUrl } = runtime();
    const signer = await publishedSigner(agentsUrl);
    expect(signer).toBe(await publishedSigner(runtime().baseUrl));
    const url = `${agentsUrl}/api/agents/${BANK_REC}/run`;
    const [offer] = await verifiedOffers(await fetchFrom(nextIp())(url, { method: 'POST', headers: JSON_TYPE, body: RUN_BODY }), signer);
    const buyer = await freshBuyer();
    const paid = await payingFetch(buyer.privateKey, nextIp())(url, { method: 'POST', headers: JSON_TYPE, body: RUN_BODY });
    expect(paid.status).toBe(200);
    await verifiedReceipt(paid, signer, buyer.address, offer);
  });

  it('an x402 v1 run (x402-fetch 1.x): the receipt rides in X-PAYMENT-RESPONSE, naming the network by CAIP-2', async () => {
    const { agentsUrl } = runtime();
    const signer = await publishedSigner(agentsUrl);
    const url = `${agentsUrl}/api/agents/${BANK_REC}/run`;
    const [offer] = await verifiedOffers(await fetchFrom(nextIp())(url, { method: 'POST', headers: JSON_TYPE, body: RUN_BODY }), signer);
    const buyer = await freshBuyer();
    const pay = wrapFetchV1(fetchFrom(nextIp()) as typeof fetch, privateKeyToAccount(buyer.privateKey) as never);
    const paid = await pay(url, { method: 'POST', headers: JSON_TYPE, body: RUN_BODY });
    expect(paid.status).toBe(200);
    await verifiedReceipt(paid, signer, buyer.address, offer, 'x-payment-response');
  });

  it('a top-up: offer in the 402, receipt with the credited transfer', async () => {
    const { agentsUrl } = runtime();
    const signer = await publishedSigner(agentsUrl);
    const f = fetchFrom(nextIp());
    const key = (await (await f(`${agentsUrl}/api/workspaces`, { method: 'POST' })).json()).workspaceKey;
    const headers = { Authorization: `Bearer ${key}` };
    const [offer] = await verifiedOffers(await f(`${agentsUrl}/api/gateway/topup`, { method: 'POST', headers }), signer);
    const buyer = await freshBuyer();
    const paid = await payingFetch(buyer.privateKey, nextIp())(`${agentsUrl}/api/gateway/topup`, { method: 'POST', headers });
    expect(paid.status).toBe(200);
    const receipt = await verifiedReceipt(paid, signer, buyer.address, offer);
    expect(receipt.payload.transaction).toBe((await paid.json()).transaction);
  });
});
