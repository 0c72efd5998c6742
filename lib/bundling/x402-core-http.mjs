/*
 * What the functions bundle in place of `@x402/core/http` (lib/bundling/aliases.ts): @x402/extensions' offer-receipt
 * module imports its `decodePaymentResponseHeader` for a client helper (`extractReceiptFromResponse`) at the top, which
 * would bring the whole of @x402/core's HTTP module (about 60 KiB) into every paid function. The functions sign
 * offers and receipts; none reads a settlement response. Reading one here fails loudly.
 */
export function decodePaymentResponseHeader() {
  throw new Error('@x402/core/http is not bundled: no function decodes a settlement response (lib/bundling/aliases.ts)');
}
