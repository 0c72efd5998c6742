/**
 * x402 `offer-receipt` over MCP's token-paid tool (docs/decisions/0019), driven by the official MCP SDK client against the
 * embedded service and checked with the package's own verifiers: a settled token payment (`create_music_with_token`
 * charged and queued) answers its settlement response in `_meta["x402/payment-response"]` (the x402 MCP transport)
 * with a receipt signed by the key `/.well-known/x402` publishes, naming the resource the endpoint's signed offer
 * names, the token's payer, network `token` and the issuer's charge; a refused token gets no settlement response.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import {
  decodeSignedOffers,
  extractOffersFromPaymentRequired,
  OFFER_RECEIPT,
  verifyOfferSignatureEIP712,
  verifyReceiptMatchesOffer,
  verifyReceiptSignatureEIP712,
  type EIP712SignedOffer,
  type EIP712SignedReceipt,
} from '@x402/extensions/offer-receipt';
import { fetchFrom, runtime } from '../support/buyer.js';

const IP = '127.0.0.237';
const f = fetchFrom(IP);
const PAYMENT_RESPONSE = 'x402/payment-response';

let client: Client;
beforeAll(async () => {
  client = new Client({ name: 'mcp-receipts', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${runtime().baseUrl}/api/mcp`), { fetch: f }));
});
afterAll(async () => {
  await client?.close();
});

/** The local token issuer's loopback tools (fund a buyer, mint a token, read a balance). */
const issuerPost = async (path: string, body: object): Promise<any> =>
  (await f(`${runtime().tokenIssuerUrl}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
const balanceOf = async (buyer: string) => ((await (await f(`${runtime().tokenIssuerUrl}/balance?buyer=${buyer}`)).json()) as { balanceBaseUnits: string }).balanceBaseUnits;

const createMusic = (token: string) => client.callTool({ name: 'create_music_with_token', arguments: { prompt: 'a receipt for a song', make_instrumental: true, token } });

/** The signed offer of POST /create-music's 402 (what the token tool pays for), verified by the package. */
async function musicOffer(signer: string) {
  const response = await f(`${runtime().baseUrl}/create-music`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  expect(response.status).toBe(402);
  const [offer] = extractOffersFromPaymentRequired(decodePaymentRequiredHeader(response.headers.get('payment-required')!));
  expect((await verifyOfferSignatureEIP712(offer as EIP712SignedOffer)).signer.toLowerCase()).toBe(signer.toLowerCase());
  return decodeSignedOffers([offer])[0];
}

describe('offer-receipt over MCP: a token-paid tool', () => {
  it('a settled token payment answers its settlement response with a receipt signed by the published key', async () => {
    const index = await (await f(`${runtime().baseUrl}/.well-known/x402`)).json();
    const signer: string = index.offerReceipt.signer;
    expect(signer).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const offer = await musicOffer(signer);

    const buyer = `mcp-receipt-${Date.now()}`;
    await issuerPost('/fund', { buyer, usd: '1' });
    const { token } = await issuerPost('/mint', { buyer, usd: '0.50' });
    const created = await createMusic(token);
    expect(created.isError).toBeFalsy();
    expect(await balanceOf(buyer)).toBe('500000');

    const settlement = created._meta?.[PAYMENT_RESPONSE] as { success: boolean; transaction: string; network: string; payer: string; extensions: Record<string, any> };
    expect(settlement).toMatchObject({ success: true, network: 'token', payer: buyer, transaction: expect.any(String) });
    const receipt = settlement.extensions[OFFER_RECEIPT].info.receipt as EIP712SignedReceipt;
    const { signer: recovered, payload } = await verifyReceiptSignatureEIP712(receipt);
    expect(recovered.toLowerCase()).toBe(signer.toLowerCase());
    expect(payload).toMatchObject({ resourceUrl: offer.resourceUrl, payer: buyer, network: 'token', transaction: settlement.transaction });
    expect(payload.resourceUrl).toBe(`${runtime().baseUrl}/create-music`);
    // The token paid the endpoint's price, not its offer's Base entry: the receipt does not claim that network.
    expect(verifyReceiptMatchesOffer(receipt, offer, [buyer])).toBe(false);
    expect(offer.network).toBe('eip155:8453');

    // The same token again is refused: a tool error, no settlement response, no second charge.
    const replay = await createMusic(token);
    expect(replay.isError).toBe(true);
    expect(replay._meta?.[PAYMENT_RESPONSE]).toBeUndefined();
    expect(await balanceOf(buyer)).toBe('500000');
  });

  it('a refused token (another seller, short of the price, invalid) gets no settlement response and no receipt', async () => {
    const buyer = `mcp-receipt-refused-${Date.now()}`;
    await issuerPost('/fund', { buyer, usd: '1' });
    const refused = [
      (await issuerPost('/mint', { buyer, usd: '0.50', sellerId: 'another-seller' })).token,
      (await issuerPost('/mint', { buyer, usd: '0.10' })).token,
      'eyJhbGciOiJIUzI1NiIsInR5cCI6InBheStqd3QifQ.e30.c2ln',
    ];
    for (const token of refused) {
      const result = await createMusic(token);
      expect(result.isError).toBe(true);
      expect(result._meta?.[PAYMENT_RESPONSE]).toBeUndefined();
    }
    expect(await balanceOf(buyer)).toBe('1000000');
  });
});
