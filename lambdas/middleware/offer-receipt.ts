/**
 * x402 `offer-receipt` on a paid route (lambdas/payments/offer-receipt.ts): a 402 leaving the chain gets its signed
 * offers (`extensions["offer-receipt"]`, in the body and in PAYMENT-REQUIRED), and a paid 2xx gets a signed receipt
 * inside its settlement response (PAYMENT-RESPONSE, or X-PAYMENT-RESPONSE for x402 v1). Used right after idempotency,
 * so a stored answer is stored with its receipt and a replay gives the same receipt again.
 */
import { OFFER_RECEIPT } from '@x402/extensions/offer-receipt';
import { PaymentRequiredError } from '../shared/errors.js';
import { encodeBase64Json } from '../shared/http.js';
import { logger } from '../shared/logger.js';
import { offerSigner, signedOffers, withReceipt, type SettlementResponse } from '../payments/offer-receipt.js';
import { LEGACY_RESPONSE_HEADER } from '../payments/core/header.js';
import { TOKEN_NETWORK } from '../payments/token/charge.js';
import type { PaymentChallenge } from '../payments/types.js';
import type { HttpMiddleware } from './types.js';

const RESPONSE_HEADERS = ['PAYMENT-RESPONSE', LEGACY_RESPONSE_HEADER];

export interface OfferReceiptOptions {
  /** The seller's network (CAIP-2), named in every receipt. */
  network: () => string;
  signer?: typeof offerSigner;
}

export function offerReceipts(options: OfferReceiptOptions): HttpMiddleware {
  const signer = options.signer ?? offerSigner;
  return {
    name: 'offerReceipts',
    onError: async (request) => {
      const error = request.error;
      if (!(error instanceof PaymentRequiredError)) return;
      const challenge = error.challenge as unknown as PaymentChallenge;
      try {
        const offers = await signedOffers(challenge, signer);
        if (!offers) return;
        // The header's and the body's challenges are views of this one (their extensions are the same object).
        for (const view of [challenge, error.byReader?.header, error.byReader?.body]) {
          if (view) (view as unknown as PaymentChallenge).extensions[OFFER_RECEIPT] = offers;
        }
      } catch (cause) {
        logger.error('offers not signed: the 402 goes out without them', { error: (cause as Error).message });
      }
    },
    after: async (request) => {
      const response = request.response;
      if (!response || response.statusCode < 200 || response.statusCode >= 300 || !response.headers) return;
      const resource = request.internal.offer?.resource;
      if (!resource) return;
      for (const name of RESPONSE_HEADERS) {
        const value = response.headers[name];
        if (typeof value !== 'string') continue;
        try {
          const settled = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as SettlementResponse;
          // A token payment moved no money on a chain: its receipt says `token`, as its settlement response does
          // (and as the MCP tool's receipt does, lambdas/protocols/mcp/payment-response.ts).
          const network = settled.network === TOKEN_NETWORK ? TOKEN_NETWORK : options.network();
          response.headers[name] = encodeBase64Json(await withReceipt(settled, resource, network, signer));
        } catch (cause) {
          // The paid answer stands without its receipt: never a 5xx after money moved.
          logger.error('receipt not signed: the paid answer goes out without it', { error: (cause as Error).message });
        }
      }
    },
  };
}
