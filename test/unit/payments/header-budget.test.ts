/**
 * Every paid route's payment, as the official client builds it, fits through API Gateway. An HTTP API refuses a
 * request whose request line and header values pass 10240 bytes, and @x402/core's x402Client echoes every extension
 * of the 402 into the payment payload it base64-encodes into PAYMENT-SIGNATURE: a 402 that declares too much makes a
 * deployed route unpayable by the clients buyers use, while the local gateway, on a short loopback host, still passes.
 * So the payload is built here from each route's 402 (as PAYMENT-REQUIRED carries it) on a long custom domain and
 * held, with the request line and a generous allowance for the other headers, inside the limit.
 */
import { describe, expect, it } from 'vitest';
import { x402Client } from '@x402/core/client';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { headerChallenge, paymentChallenge } from '../../../lambdas/payments/core/challenge.js';
import { productOffer } from '../../../lambdas/jobs/offers.js';
import { PRODUCT_IDS } from '../../../lambdas/products/products.js';
import { AGENTS } from '../../../lambdas/agents/registry.js';
import { agentOffer } from '../../../lambdas/agents/offers.js';
import { TOPUP_TIERS, topUpOffer, type TopUpTier } from '../../../lambdas/credits/offers.js';
import type { Offer } from '../../../lambdas/payments/core/types.js';
import { signedOffers } from '../../../lambdas/payments/offer-receipt.js';
import { OFFER_RECEIPT } from '@x402/extensions/offer-receipt';

/** API Gateway (HTTP API) quotas: request line and header values, together. */
const GATEWAY_LIMIT = 10_240;
/** A long custom domain (the runbook's custom domains), 100 characters. */
const HOST = `${'paid-generation-and-agents.'.repeat(3)}example-company.com`.padStart(100, 'a');
const BASE = `https://${HOST}`;
/**
 * The other headers a paying client sends, by value: X-Idempotency-Key at its 200-character maximum,
 * Service-API-Version, Content-Type, Content-Length, Accept, Accept-Encoding, User-Agent, a trace header: 1024
 * bytes is more than any of the clients we test sends.
 */
const OTHER_HEADERS = 200 + 1024;
/** Room the request line may need beyond the offer's own path (a query, A2A's longer `message:send` path). */
const PATH_SLACK = 64;

const terms = { network: 'eip155:8453', usdcAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const, payTo: '0x2222222222222222222222222222222222222222' as const };
// Spend controls off: a buyer topping up $20 or buying a $4.99 video raises the client's $1 default cap.
const offerSigner = privateKeyToAccount(generatePrivateKey());
const client = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));
client.setSpendControls(false as never);

const offers: [string, Offer][] = [
  ...PRODUCT_IDS.map((id): [string, Offer] => [id, productOffer(id, BASE)]),
  ...AGENTS.filter((agent) => agent.price > 0n).map((agent): [string, Offer] => [agent.slug, agentOffer(agent, BASE)]),
  ...(Object.keys(TOPUP_TIERS) as unknown as TopUpTier[]).map((tier): [string, Offer] => [`topup ${tier}`, topUpOffer(Number(tier) as TopUpTier, BASE)]),
];

describe('the payment the official client builds from each 402 fits API Gateway', () => {
  it('covers every product, every priced agent and every top-up tier', () => {
    expect(offers.length).toBeGreaterThan(PRODUCT_IDS.length + 3);
  });

  it.each(offers)('%s', async (_name, offer) => {
    const challenge = headerChallenge(paymentChallenge(offer, terms, 'PAYMENT-SIGNATURE header is required'));
    // As it leaves the chain: with its signed offers (lambdas/middleware/offer-receipt.ts).
    challenge.extensions[OFFER_RECEIPT] = await signedOffers(challenge, async () => offerSigner);
    const signature = encodePaymentSignatureHeader(await client.createPaymentPayload(challenge as never));
    const requestLine = `${offer.method} ${new URL(offer.resource).pathname} HTTP/1.1`.length + PATH_SLACK;
    const total = signature.length + requestLine + HOST.length + OTHER_HEADERS;
    expect(challenge.extensions[OFFER_RECEIPT]).toBeDefined();
    expect(total, `PAYMENT-SIGNATURE is ${signature.length} bytes`).toBeLessThanOrEqual(GATEWAY_LIMIT);
  });
});
