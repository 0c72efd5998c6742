/** API Gateway HTTP API (payload v2) helpers shared by every HTTP entry. */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { edgeConfig, httpConfig } from './config.js';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };
export type { Context };

export function header(event: HttpEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

/** The token of an `Authorization: Bearer <token>` value (the scheme in any case), or undefined for anything else. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer[ ]+(\S+)[ ]*$/i.exec((authorization ?? '').trim())?.[1];
}

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

export function rawBody(event: HttpEvent): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/**
 * Absolute base URL of the surface that serves the request: pinned by the surface's variable (PUBLIC_BASE_URL for
 * the generation surface), else the API's own domain as the deployment knows it, `requestContext.domainName` (the
 * execute-api host or the custom domain the request came to; the embedded gateway puts its own listen address there).
 * Never a request header: `Host` and `X-Forwarded-Proto` are the client's to write, and the sign-in check takes this
 * origin as the one a wallet's signature must name, so a header would let another site's sign-in pass here.
 * API Gateway serves HTTPS only; a loopback domain is the embedded gateway, which serves plain HTTP.
 */
export function baseUrl(event: HttpEvent, surface: { baseUrlEnv: string } = { baseUrlEnv: 'PUBLIC_BASE_URL' }): string {
  const configured = httpConfig().publicBaseUrls[surface.baseUrlEnv];
  if (configured) return configured;
  const domain = event.requestContext.domainName;
  return `${isLoopbackHost(domain) ? 'http' : 'https'}://${domain}`;
}

/** A host (with or without a port) on the loopback interface: localhost, 127.0.0.0/8 or [::1]. */
function isLoopbackHost(host: string): boolean {
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** `?async=false` is the only way to block; only the literal `true` selects async, anything else counts as false. */
export function wantsBlocking(event: HttpEvent, body: { asyncMode?: boolean }): boolean {
  const raw = event.queryStringParameters?.async;
  if (raw === undefined) return false;
  if (raw === 'true') return false;
  // Any other value counts as false; asyncMode: true can still switch async back on, never off.
  return body.asyncMode !== true;
}

/** The origin header CloudFront adds (lib/edge.ts): the stack's edge token, which a viewer cannot know or set. */
export const EDGE_TOKEN_HEADER = 'x-paycall-edge';
/** The viewer's address, written by the edge's viewer-request function over anything the viewer sent. */
export const VIEWER_ADDRESS_HEADER = 'x-paycall-viewer-address';

/**
 * Who a request counts against (the probe quota, workspace creation): the connection's address, except behind the
 * CloudFront edge, where that is CloudFront's own and the viewer's comes in VIEWER_ADDRESS_HEADER. That header is
 * believed only when the request carries the edge token, so a caller reaching the execute-api URL directly (or any
 * request when the edge is off, no token configured) cannot choose the address it is counted under.
 */
export function clientId(event: HttpEvent, edgeToken: string | undefined = edgeConfig().EDGE_ORIGIN_TOKEN): string {
  const viaEdge = edgeToken !== undefined && header(event, EDGE_TOKEN_HEADER) === edgeToken;
  const viewer = viaEdge ? header(event, VIEWER_ADDRESS_HEADER)?.trim() : undefined;
  return viewer || event.requestContext.http.sourceIp || 'unknown';
}

/** A header value carrying JSON (PAYMENT-REQUIRED, PAYMENT-RESPONSE): base64 of its UTF-8 text. */
export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

/**
 * How long API Gateway (HTTP API) waits for an integration, counted from the request's arrival: a hard limit, past
 * which it answers 503 whatever the function goes on doing. A cold start's init is spent inside it.
 */
export const API_GATEWAY_INTEGRATION_TIMEOUT_MS = 30_000;

/** Time kept back from the answer's last moment to record it (idempotency) and send it. */
export const ANSWER_MARGIN_MS = 3_000;

/**
 * Epoch ms by which a paid answer must be on its way: the earlier of the function's time-out and API Gateway's
 * limit from the request's arrival (`requestContext.timeEpoch`), less the margin. The function's remaining time
 * alone outlasts API Gateway's wait when a cold start ran first, and the buyer who paid would meet a 503. A missing
 * or zero `timeEpoch` counts as unknown (the function's time alone); undefined when neither is known (in-process).
 */
export function answerDeadline(
  event: { requestContext?: { timeEpoch?: number } } | undefined,
  context: Partial<Pick<Context, 'getRemainingTimeInMillis'>>,
  now = Date.now(),
): number | undefined {
  const remaining = context.getRemainingTimeInMillis?.();
  const arrived = event?.requestContext?.timeEpoch;
  const ends = [
    ...(remaining === undefined ? [] : [now + remaining]),
    ...(typeof arrived === 'number' && Number.isFinite(arrived) && arrived > 0 ? [arrived + API_GATEWAY_INTEGRATION_TIMEOUT_MS] : []),
  ];
  return ends.length === 0 ? undefined : Math.min(...ends) - ANSWER_MARGIN_MS;
}
