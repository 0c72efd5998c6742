/**
 * The sign-in authorizer (docs/decisions/0020): API Gateway's Lambda authorizer (HTTP API, payload 2.0, simple responses, no
 * caching) in front of every route that takes a sign-in-with-x — a job's cancel routes and `GET /api/purchases` on
 * each surface (lib/surface-api.ts; the embedded gateway runs it the same way). It is the one function that loads
 * @x402/extensions' sign-in code (lambdas/sign-in/siwx.ts), so the routes stay small.
 *
 * It never refuses the request itself: a cancel route also takes its cancel token, and a route's refusal is a 402 with
 * the declaration to sign, which an authorizer cannot answer. It hands the route its outcome
 * (lambdas/sign-in/context.ts): `accepted` with the address; `none` or `refused` (with the reason) with a fresh
 * declaration for this origin and route; `unavailable` when the nonce store did not answer (the route answers 503).
 * The route's public URL is the surface's base URL (the API's `surface` stage variable names the surface) and the
 * request's path.
 */
import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { checkAtColdStart, httpConfig, signInConfig, storeConfig } from '../shared/config.js';
import { baseUrl, header, type HttpEvent } from '../shared/http.js';
import { logger } from '../shared/logger.js';
import { traced } from '../shared/tracing.js';
import { BASE_URL_ENV } from '../surfaces/base-urls.js';
import { SIGN_IN_HEADER, SURFACE_STAGE_VARIABLE, type SignInContext } from '../sign-in/context.js';
import { checkSignIn, signInDeclaration, type SignInRoute } from '../sign-in/siwx.js';
import { SignInNonceStore } from '../store/sign-in-nonces.js';

checkAtColdStart(storeConfig, httpConfig, signInConfig);

const nonces = new SignInNonceStore();
const STATEMENT = 'Sign in with the wallet that paid.';

type Answer = APIGatewaySimpleAuthorizerWithContextResult<SignInContext>;

export async function authorize(event: APIGatewayRequestAuthorizerEventV2, store: SignInNonceStore = nonces): Promise<Answer> {
  const surface = event.stageVariables?.[SURFACE_STAGE_VARIABLE] as keyof typeof BASE_URL_ENV | undefined;
  if (!surface || !(surface in BASE_URL_ENV)) throw new Error(`the API's ${SURFACE_STAGE_VARIABLE} stage variable names no surface`);
  // The event has the route event's headers and request context: the same base URL rule (shared/http.ts).
  const base = baseUrl(event as unknown as HttpEvent, { baseUrlEnv: BASE_URL_ENV[surface] });
  const route: SignInRoute = { url: `${base}${event.rawPath}`, network: signInConfig().X402_NETWORK, statement: STATEMENT };
  const sent = header(event as unknown as HttpEvent, SIGN_IN_HEADER)?.trim();
  if (sent) {
    try {
      const outcome = await checkSignIn(sent, route, store);
      if (outcome.ok) return { isAuthorized: true, context: { signIn: 'accepted', address: outcome.address } };
      return { isAuthorized: true, context: { signIn: 'refused', reason: outcome.reason, url: route.url, declaration: JSON.stringify(await signInDeclaration(route)) } };
    } catch (error) {
      // The nonce store did not answer: the route says 503 (retry), never "refused" for what it could not check.
      logger.error('sign-in not checked: the nonce store failed', { error: (error as Error).message });
      return { isAuthorized: true, context: { signIn: 'unavailable' } };
    }
  }
  return { isAuthorized: true, context: { signIn: 'none', url: route.url, declaration: JSON.stringify(await signInDeclaration(route)) } };
}

export const handler = traced((event: APIGatewayRequestAuthorizerEventV2) => authorize(event));
