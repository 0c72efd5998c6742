/** API Gateway HTTP API (payload v2) helpers shared by every HTTP entry. */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { httpConfig } from './config.js';

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
 * the generation surface), or from the request (API Gateway sets the forwarded headers).
 */
export function baseUrl(event: HttpEvent, surface: { baseUrlEnv: string } = { baseUrlEnv: 'PUBLIC_BASE_URL' }): string {
  const configured = httpConfig().publicBaseUrls[surface.baseUrlEnv];
  if (configured) return configured;
  const proto = header(event, 'x-forwarded-proto') ?? 'https';
  const host = header(event, 'host') ?? event.requestContext.domainName;
  return `${proto}://${host}`;
}

/** `?async=false` is the only way to block; only the literal `true` selects async, anything else counts as false. */
export function wantsBlocking(event: HttpEvent, body: { asyncMode?: boolean }): boolean {
  const raw = event.queryStringParameters?.async;
  if (raw === undefined) return false;
  if (raw === 'true') return false;
  // Any other value counts as false; asyncMode: true can still switch async back on, never off.
  return body.asyncMode !== true;
}

export function clientId(event: HttpEvent): string {
  return event.requestContext.http.sourceIp || 'unknown';
}

/** A header value carrying JSON (PAYMENT-REQUIRED, PAYMENT-RESPONSE): base64 of its UTF-8 text. */
export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}
