/**
 * What a route that takes a sign-in-with-x reads: the outcome of the stack's sign-in authorizer
 * (lambdas/http/sign-in-authorizer.ts), which API Gateway runs before the route (lib/surface-api.ts; the embedded
 * gateway likewise) and hands over in `requestContext.authorizer.lambda`. The route functions never load
 * @x402/extensions' sign-in code (its SIWE parser alone is ~200 KiB): only the authorizer's function does.
 *
 * The authorizer always lets the request through (the route decides: a cancel route also takes its cancel token), so
 * its answer is one of: `accepted` (the address), `refused` (the reason), `none` (no sign-in sent) or `unavailable`
 * (the nonce store did not answer); with each refusal, the route's declaration to sign (fresh nonce, this origin and
 * route), which the route's 402 carries. Values are strings, as an authorizer's simple response carries them.
 */
import { DependencyError, PaymentRequiredError } from '../shared/errors.js';
import type { HttpEvent } from '../shared/http.js';
import { X402_VERSION, type PaymentChallenge } from '../payments/types.js';

/** The request header a sign-in comes in (the extension's name; headers are case-insensitive). */
export const SIGN_IN_HEADER = 'SIGN-IN-WITH-X';
/** The extension's key in a 402's `extensions` (@x402/extensions' SIGN_IN_WITH_X; a unit test holds them equal). */
export const SIGN_IN_EXTENSION = 'sign-in-with-x';
/** The stage variable naming the surface an API serves: the one authorizer function serves both APIs. */
export const SURFACE_STAGE_VARIABLE = 'surface';

/** The authorizer's answer, as `requestContext.authorizer.lambda`. */
export type SignInContext =
  | { signIn: 'accepted'; address: string }
  | { signIn: 'none' | 'refused'; reason?: string; url: string; declaration: string }
  | { signIn: 'unavailable' };

/** What the route says of itself in its 402 (the authorizer names the URL and makes the declaration). */
export interface SignInAsk {
  description: string;
  /** The 402's `error` when no sign-in was sent. */
  missing: string;
}

/**
 * The signed-in address of this request, or the 402 that asks for a sign-in (none sent, or one refused: its reason,
 * a fresh declaration beside it). A route reached without the authorizer's answer is a deployment error: it throws.
 */
export function signedIn(event: HttpEvent, ask: SignInAsk, extraHeaders: Record<string, string> = {}): `0x${string}` {
  const context = signInContextOf(event);
  if (context.signIn === 'accepted') return context.address as `0x${string}`;
  if (context.signIn === 'unavailable') throw new DependencyError('the sign-in authorizer could not reach its nonce store');
  const error = context.signIn === 'none' ? ask.missing : `Sign-in refused: ${context.reason ?? 'invalid_siwx'}`;
  throw new PaymentRequiredError(signInChallenge(context.url, ask.description, error, JSON.parse(context.declaration) as Record<string, unknown>), extraHeaders);
}

/** The 402 of a route that takes a sign-in: nothing to pay (no `accepts`), the declaration to sign. */
export function signInChallenge(url: string, description: string, error: string, declaration: Record<string, unknown>): PaymentChallenge {
  return {
    x402Version: X402_VERSION,
    error,
    resource: { url, description, mimeType: 'application/json' },
    accepts: [],
    extensions: { [SIGN_IN_EXTENSION]: declaration },
  };
}

export function signInContextOf(event: HttpEvent): SignInContext {
  const context = (event.requestContext as { authorizer?: { lambda?: Partial<SignInContext> } }).authorizer?.lambda;
  if (!context || typeof context.signIn !== 'string') {
    throw new Error('no sign-in authorizer answer on a route that takes a sign-in (lib/surface-api.ts attaches it)');
  }
  return context as SignInContext;
}
