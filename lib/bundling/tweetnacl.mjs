/*
 * What the functions bundle in place of `tweetnacl` (lib/bundling/aliases.ts): like `@noble/curves/ed25519`
 * (./ed25519.mjs), only @x402/extensions' Solana sign-in check uses it, which no function reaches. Verifying with it
 * here throws: a bundle fails closed.
 */
function notBundled() {
  throw new Error('tweetnacl is not bundled: no function verifies a Solana sign-in (lib/bundling/aliases.ts)');
}
export default { sign: { detached: { verify: notBundled } } };
