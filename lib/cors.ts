/**
 * The CORS policy of both HTTP APIs, defined once: CDK turns it into each HttpApi's `corsPreflight`
 * (lib/surface-api.ts) and the embedded gateway answers with it as API Gateway does (lib/local/gateway.ts).
 *
 * Any origin, no credentials: payment is the authentication and no cookie is ever read, so a page on another site
 * gains nothing it could not do from a server. What a browser buyer needs is to send the payment and protocol
 * headers and to read the challenge, the receipt and the waits. The MCP endpoints still refuse a foreign `Origin`
 * themselves (lambdas/protocols/mcp/origin.ts): CORS lets such a page read that 403, not get past it.
 *
 * It stays free of aws-cdk-lib, so the embedded runtime loads it without the CDK.
 */
import type { HttpMethod } from '../lambdas/surfaces/routes.js';

export interface CorsPolicy {
  /** Any origin; a list of origins would have to be matched against each request's Origin (not needed here). */
  allowOrigins: ['*'];
  allowMethods: HttpMethod[];
  /** Request headers a page may set beyond the CORS-safelisted ones. */
  allowHeaders: string[];
  /** Response headers a page may read beyond the CORS-safelisted ones. */
  exposeHeaders: string[];
  maxAgeSeconds: number;
}

export const CORS_POLICY: CorsPolicy = {
  allowOrigins: ['*'],
  allowMethods: ['GET', 'POST', 'DELETE'],
  allowHeaders: [
    // x402 (v2 and the legacy v1 header), idempotent retries, the generation surface's version pin, workspace keys.
    'PAYMENT-SIGNATURE',
    'X-PAYMENT',
    'X-Idempotency-Key',
    'Service-API-Version',
    'Authorization',
    'Content-Type',
    // x402 sign-in-with-x (the purchases lists, a job's cancel by its paying wallet).
    'SIGN-IN-WITH-X',
    // What browser A2A and MCP clients send (A2A's version and extensions; MCP's Streamable HTTP headers).
    'A2A-Version',
    'A2A-Extensions',
    'X-A2A-Extensions',
    'MCP-Protocol-Version',
    'Mcp-Session-Id',
    'Accept',
  ],
  exposeHeaders: [
    'PAYMENT-REQUIRED',
    'PAYMENT-RESPONSE',
    'X-PAYMENT-RESPONSE',
    // The support reference of a 402 whose payment header could not be read.
    'PAYMENT-REFERENCE',
    'Location',
    'Retry-After',
    // lambdas/middleware/rate-limit.ts
    'RateLimit',
    'RateLimit-Policy',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'Service-API-Version',
    // The extensions an A2A answer activated (AP2), and a workspace key's 401 challenge.
    'A2A-Extensions',
    'WWW-Authenticate',
  ],
  // Chromium caches a preflight for at most two hours.
  maxAgeSeconds: 7200,
};

type Headers = Record<string, string | string[] | undefined>;

/**
 * A CORS preflight, as API Gateway recognises one: `OPTIONS` with an `Origin` and an
 * `Access-Control-Request-Method`. Any other OPTIONS request is routed like any other method.
 */
export function isPreflight(method: string, headers: Headers): boolean {
  return method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined;
}

/** The headers of the answer to a preflight (204, whatever the path: API Gateway answers it before routing). */
export function preflightHeaders(policy: CorsPolicy = CORS_POLICY): Record<string, string> {
  return {
    'access-control-allow-origin': policy.allowOrigins[0],
    'access-control-allow-methods': policy.allowMethods.join(','),
    'access-control-allow-headers': policy.allowHeaders.join(','),
    'access-control-max-age': String(policy.maxAgeSeconds),
  };
}

/** The headers added to every answer to a request that carries an `Origin` (none without one). */
export function responseHeaders(headers: Headers, policy: CorsPolicy = CORS_POLICY): Record<string, string> {
  if (headers.origin === undefined) return {};
  return { 'access-control-allow-origin': policy.allowOrigins[0], 'access-control-expose-headers': policy.exposeHeaders.join(',') };
}
