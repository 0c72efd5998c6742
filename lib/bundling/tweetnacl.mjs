/*
 * What the buyer-path functions bundle in place of `tweetnacl` (lib/bundling/aliases.ts); the sign-in authorizer is
 * the one that reaches it. Like `@noble/curves/ed25519` (./ed25519.mjs), only @x402/extensions' Solana sign-in check
 * uses it, which no function reaches. Verifying with it here throws: a bundle fails closed.
 * test/unit/bundling/vendor-aliases.test.ts calls through it.
 */
function notBundled() {
  throw new Error('tweetnacl is not bundled: no function verifies a Solana sign-in (lib/bundling/aliases.ts)');
}
export default { sign: { detached: { verify: notBundled } } };
