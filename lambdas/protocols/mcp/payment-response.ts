/**
 * The settlement response of a token-paid MCP tool, with its signed x402 receipt (docs/decisions/0019).
 *
 * Where it goes: the x402 MCP transport (coinbase/x402 `specs/transports-v2/mcp.md`, "Settlement Response Delivery";
 * `@x402/mcp`'s `x402/payment-response` key) carries the settlement response — the object HTTP carries in
 * PAYMENT-RESPONSE — in the tool result's `_meta["x402/payment-response"]`, and the receipt is that response's
 * `extensions["offer-receipt"]`, as on HTTP. It is given only for a settled payment (the token charged and the job
 * queued); a refused token gets a tool error and no settlement response.
 *
 * What a token payment's receipt names (signed by `withReceipt`, the package's issuer and extension):
 * - `resourceUrl`: the product's paid HTTP endpoint (POST /create-music): what the token paid for, and what the
 *   endpoint's signed offers and the HTTP route's receipts name;
 * - `payer`: the token's subject (the buyer at the issuer), as the job and the ledger record it; not an address;
 * - `network`: `token`, as the settlement response says: the issuer charged the token and no chain moved money, so
 *   the receipt does not name Base. Hence it does not match the endpoint's x402 offer (`verifyReceiptMatchesOffer`
 *   compares networks), which is the truth: the token did not pay that offer's Base entry;
 * - `transaction`: the issuer's charge id (or `charge:<token id>`), not an on-chain hash (the network says so), kept
 *   rather than left out (`includeTxHash: false`) because it is the one reference the charge can be traced by.
 */
import { offerSigner, withReceipt, type SettlementResponse } from '../../payments/offer-receipt.js';
import type { PaymentReceipt } from '../../payments/types.js';
import { logger } from '../../shared/logger.js';

/** The x402 MCP transport's `_meta` key of the settlement response (server to client). */
export const PAYMENT_RESPONSE_META = 'x402/payment-response';

export interface SettlementMetaOptions {
  /** For the log line when signing fails. */
  jobId: string;
  signer?: typeof offerSigner;
}

/**
 * The tool result's `_meta` for a settled payment: its settlement response with the signed receipt. A receipt that
 * cannot be signed is logged and the response goes without it: the job is paid and queued, the call succeeds.
 */
export async function settlementMeta(settled: PaymentReceipt, resourceUrl: string, options: SettlementMetaOptions): Promise<Record<string, SettlementResponse>> {
  let response: SettlementResponse = { ...settled };
  try {
    // The settlement's own network (`token`), not the seller's chain: see above.
    response = await withReceipt(response, resourceUrl, settled.network, options.signer);
  } catch (cause) {
    logger.error('receipt not signed: the tool result goes out without it', { jobId: options.jobId, error: (cause as Error).message });
  }
  return { [PAYMENT_RESPONSE_META]: response };
}
