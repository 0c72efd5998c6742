/*
 * What the buyer-path functions bundle in place of `@noble/curves/ed25519` (lib/bundling/aliases.ts); the sign-in
 * authorizer is the one that reaches it. @x402/extensions' sign-in-with-x module imports it at the top to check
 * Solana sign-ins, which this service never takes (it declares only its EVM network, and lambdas/sign-in/siwx.ts
 * refuses any other chain before verifying a signature). Checking one here throws, which the package turns into a
 * refused signature: a bundle fails closed. test/unit/bundling/vendor-aliases.test.ts calls through it.
 */
function notBundled() {
  throw new Error('ed25519 is not bundled: no function verifies a Solana sign-in (lib/bundling/aliases.ts)');
}
export const ed25519 = { ExtendedPoint: { fromHex: notBundled } };
