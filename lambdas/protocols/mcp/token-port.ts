/**
 * Agent-payment tokens (`pay+jwt`, `kya-pay+jwt`) on the MCP surface: `create_music_with_token` goes through the
 * same path as a token in PAYMENT-SIGNATURE on POST /create-music — verify against the issuer's key set, lock
 * the token id, charge it, queue the job — and answers the accepted body (songId, pollUrl) as the tool result.
 * A refusal is a tool error with the reason; nothing is charged or queued.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PRODUCTS, type MusicRequest, type ProductId } from '../../products/catalog.js';
import { tokenBackend } from '../../payments/backend.js';
import { acceptPaidJob, PaymentRefused } from '../../jobs/accept.js';
import { acceptDeps } from '../../jobs/deps.js';
import { urlsFor } from '../../http/urls.js';
import { logger } from '../../shared/logger.js';

export type PayWithToken = (token: string, product: ProductId, request: MusicRequest, baseUrl: string) => Promise<CallToolResult>;

export const TOKENS_NOT_ACCEPTED = 'Agent-payment tokens are not accepted here';

const refusal = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** Said when something other than the token failed before any charge (the issuer's key set, storage). */
export const NOT_TAKEN = 'The job could not be taken right now; nothing was charged. Retry shortly.';

export const payWithToken: PayWithToken = async (token, product, request, baseUrl) => {
  const tokens = tokenBackend();
  if (!tokens) return refusal(TOKENS_NOT_ACCEPTED);
  try {
    const verified = await tokens.verifier.verify(token.trim(), { amount: PRODUCTS[product].amount, product });
    if (!verified.ok) return refusal(verified.reason);
    const result = await acceptPaidJob(acceptDeps(), {
      product,
      request: request as Record<string, unknown>,
      payment: verified.payment,
      urls: urlsFor(baseUrl),
      blocking: false,
      blockingWaitMs: 0,
    });
    const body = JSON.parse(result.body ?? '{}') as Record<string, unknown>;
    return {
      structuredContent: body,
      content: [{ type: 'text', text: `Queued. Poll ${String(body.pollUrl)} or call get_music_with_token with songId ${String(body.songId)}.` }],
    };
  } catch (error) {
    if (error instanceof PaymentRefused) return refusal(error.message);
    // acceptPaidJob never throws once money moved, so this failure came before any charge. The SDK would put the
    // raw message (a storage or network detail) in the tool result: log it, answer plainly.
    logger.error('mcp token payment not taken', { product, error: error instanceof Error ? error.message : String(error) });
    return refusal(NOT_TAKEN);
  }
};
