/*
 * What the buyer-path functions bundle in place of `@x402/core/http` (lib/bundling/aliases.ts): @x402/extensions
 * imports two of its names at the top of modules the functions use, for client helpers no function calls —
 * offer-receipt's `extractReceiptFromResponse` (`decodePaymentResponseHeader`) and sign-in-with-x's
 * `wrapFetchWithSIWx` (`decodePaymentRequiredHeader`) — which would bring the whole of @x402/core's HTTP module
 * (about 60 KiB) into every paid function. The functions sign offers and receipts and check sign-ins; none reads a
 * settlement response or a 402 as a client does. Reading one here fails loudly. test/unit/bundling/vendor-aliases.test.ts
 * calls through it.
 */
function notBundled() {
  throw new Error('@x402/core/http is not bundled: no function reads x402 headers as a client (lib/bundling/aliases.ts)');
}
export const decodePaymentResponseHeader = notBundled;
export const decodePaymentRequiredHeader = notBundled;
