/**
 * Agent-payment tokens (`pay+jwt`, `kya-pay+jwt`) on the MCP surface: `create_music_with_token` is the MCP adapter
 * of the same payment core and purchase as a token in PAYMENT-SIGNATURE on POST /create-music — the core decides
 * on the product's offer, the purchase locks, charges and queues — and it presents the result as a tool result
 * (the accepted body: songId, pollUrl) whose `_meta["x402/payment-response"]` is the settlement response with its
 * signed x402 receipt (./payment-response.ts). A refusal is a tool error with the reason and no receipt; nothing is
 * charged or queued.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { MusicRequest, ProductId } from '../../products/catalog.js';
import { productOffer } from '../../jobs/offers.js';
import { paymentCore } from '../../payments/backend.js';
import { purchaseJob } from '../../jobs/purchase.js';
import { purchaseDeps } from '../../jobs/deps.js';
import { acceptedBody } from '../../jobs/views.js';
import { urlsFor } from '../../jobs/urls.js';
import { logger } from '../../shared/logger.js';
import { settlementMeta } from './payment-response.js';

export type PayWithToken = (token: string, product: ProductId, request: MusicRequest, baseUrl: string) => Promise<CallToolResult>;

export { REASON_TOKENS_NOT_ACCEPTED as TOKENS_NOT_ACCEPTED } from '../../payments/core/challenge.js';

const refusal = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** Said when something other than the token failed before any charge (the issuer's key set, storage). */
export const NOT_TAKEN = 'The job could not be taken right now; nothing was charged. Retry shortly.';

export const payWithToken: PayWithToken = async (token, product, request, baseUrl) => {
  try {
    const offer = productOffer(product, baseUrl);
    const decision = await paymentCore().decide(offer, { kind: 'token', token: token.trim() });
    if (decision.type !== 'verified') return refusal(decision.type === 'invalid' ? decision.reason : decision.challenge.error);
    // A tool result carries no job secrets (no cancel token, no webhook secret), so a `webhook` here is dropped: its
    // deliveries could not be verified. MCP clients poll (get_music_with_token).
    const { webhook: _dropped, ...jobRequest } = request as Record<string, unknown>;
    const result = await purchaseJob(purchaseDeps(), {
      product,
      request: jobRequest,
      payment: decision.payment,
      blockingWaitMs: 0,
    });
    if (result.type === 'refused') return refusal(result.reason);
    if (result.type === 'unavailable') return refusal(NOT_TAKEN);
    const body = acceptedBody(result.job, urlsFor(baseUrl));
    // A receipt only for a settled payment (a token's charge is never accepted unsettled, but the type allows it).
    const meta = result.receipt ? await settlementMeta(result.receipt, offer.resource, { jobId: result.job.jobId }) : undefined;
    return {
      ...(meta ? { _meta: meta } : {}),
      structuredContent: body,
      content: [{ type: 'text', text: `Queued. Poll ${String(body.pollUrl)} or call get_music_with_token with songId ${String(body.songId)}.` }],
    };
  } catch (error) {
    // purchaseJob never throws once money moved, so this failure came before any charge. The SDK would put the
    // raw message (a storage or network detail) in the tool result: log it, answer plainly.
    logger.error('mcp token payment not taken', { product, error: error instanceof Error ? error.message : String(error) });
    return refusal(NOT_TAKEN);
  }
};
