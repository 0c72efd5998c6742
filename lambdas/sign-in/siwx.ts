/**
 * x402 `sign-in-with-x` (docs/decisions/0020; CAIP-122, EIP-4361 messages on EVM): a wallet proves it is the address that paid,
 * with no account. Used where that address is the whole credential: `GET /api/purchases` on each surface (the
 * address's history) and a job's cancel route (instead of its cancel token). Built on @x402/extensions' own
 * functions: the challenge is the package's declaration enriched by its server extension (fresh nonce, issuedAt,
 * expiry, domain and URI of this route), and a sign-in is read with `parseSIWxHeader`, checked with
 * `validateSIWxMessage` and `verifySIWxSignature`. Only the sign-in authorizer's function loads this module
 * (lambdas/http/sign-in-authorizer.ts); the routes read its answer (./context.ts).
 *
 * A sign-in is accepted when, in this order:
 * - the header parses (base64 JSON of the package's payload schema) and its nonce is 8–128 letters and digits (SIWE's
 *   alphabet; a longer one could not be a DynamoDB key);
 * - the message names this origin (domain = host, URI on this origin) and this route (the URI's path), was issued
 *   less than five minutes ago and has not expired;
 * - it is on the network this service is paid on;
 * - its signature recovers to its address (EOA, EIP-191; smart-contract wallets would need an RPC read, not offered);
 * - its nonce was never used before, on any instance (lambdas/store/sign-in-nonces.ts, a conditional put), checked
 *   last so a refused message burns nothing.
 * A request without a valid sign-in is answered 402 with the declaration and no `accepts` (an auth-only route: there is
 * nothing to pay), so the official client hook (`createSIWxClientHook` with @x402/fetch) signs in and retries by
 * itself. Paid 402s do not declare it: signing in grants no new work there, so the client hook would make a round trip
 * that cannot succeed, and the official client echoes every declared extension into PAYMENT-SIGNATURE, whose header
 * budget has no room for it (test/unit/payments/header-budget.test.ts). `/.well-known/x402` lists the routes that take it.
 */
import {
  createSIWxResourceServerExtension,
  declareSIWxExtension,
  parseSIWxHeader,
  SIGN_IN_WITH_X,
  validateSIWxMessage,
  verifySIWxSignature,
  type SIWxPayload,
} from '@x402/extensions/sign-in-with-x';
import type { SignInNonceStore } from '../store/sign-in-nonces.js';

/** How long a challenge may be signed and a signed message used (the package's own default maximum age). */
export const SIGN_IN_SECONDS = 300;
/** SIWE's nonce alphabet and minimum; the maximum keeps the nonce's key well inside DynamoDB's 2048 bytes. */
const NONCE = /^[A-Za-z0-9]{8,128}$/;

/** A route that takes a sign-in: its public URL (origin and path, no query) and what the wallet is asked to sign. */
export interface SignInRoute {
  url: string;
  /** CAIP-2 network of the sign-in (the network this service is paid on). */
  network: string;
  statement: string;
}

/** No payments are recorded through the package's storage: who paid for what is the jobs' and runs' own record. */
const NO_STORAGE = { hasPaid: () => false, recordPayment: () => undefined };

/** The package's `sign-in-with-x` declaration for a route, enriched as its server extension does for a 402. */
export async function signInDeclaration(route: SignInRoute): Promise<Record<string, unknown>> {
  const server = createSIWxResourceServerExtension({ origin: new URL(route.url).origin, storage: NO_STORAGE });
  const declared = declareSIWxExtension({ network: route.network, statement: route.statement, expirationSeconds: SIGN_IN_SECONDS })[SIGN_IN_WITH_X];
  const enriched = await server.enrichPaymentRequiredResponse!(declared, { resourceInfo: { url: route.url }, requirements: [] } as never);
  return enriched as Record<string, unknown>;
}

export type SignIn = { ok: true; address: `0x${string}` } | { ok: false; reason: string };

/** Checks a sign-in header against the route (see the module's comment for the order); uses its nonce if accepted. */
export async function checkSignIn(header: string, route: SignInRoute, nonces: SignInNonceStore, now: () => number = Date.now): Promise<SignIn> {
  let payload: SIWxPayload;
  try {
    payload = parseSIWxHeader(header.trim());
  } catch {
    return { ok: false, reason: 'invalid_siwx_header' };
  }
  if (!NONCE.test(payload.nonce)) return { ok: false, reason: 'invalid_siwx_nonce' };
  const expected = new URL(route.url);
  const valid = await validateSIWxMessage(payload, expected, { maxAge: SIGN_IN_SECONDS * 1000 });
  if (!valid.isValid) return { ok: false, reason: valid.invalidReason };
  if (new URL(payload.uri).pathname !== expected.pathname) return { ok: false, reason: 'invalid_siwx_uri_mismatch' };
  if (payload.chainId !== route.network) return { ok: false, reason: 'invalid_siwx_chain_id' };
  const verified = await verifySIWxSignature(payload);
  if (!verified.isValid) return { ok: false, reason: verified.invalidReason };
  const keepUntil = Math.floor(now() / 1000) + 2 * SIGN_IN_SECONDS;
  if (!(await nonces.use(payload.nonce, verified.payer.toLowerCase(), keepUntil))) return { ok: false, reason: 'invalid_siwx_nonce' };
  return { ok: true, address: verified.payer as `0x${string}` };
}
