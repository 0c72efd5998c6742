/**
 * Origin validation of the MCP endpoint (MCP Streamable HTTP transport, "Security Warning"): a browser page on
 * another site, possibly after DNS rebinding, must not drive the server. Browsers always send `Origin` on a
 * cross-origin POST, so a present Origin must be ours; server-to-server clients send none and are allowed.
 */

/** Extra allowed origins, comma-separated (for example a first-party web console on another host). */
export const ALLOWED_ORIGINS_ENV = 'MCP_ALLOWED_ORIGINS';

let configured: string[] | undefined;
export function configuredOrigins(): string[] {
  configured ??= parseOrigins(process.env[ALLOWED_ORIGINS_ENV]);
  return configured;
}

export function parseOrigins(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((entry) => normalize(entry.trim()))
    .filter((origin): origin is string => origin !== undefined);
}

/** Who the service is, as far as an Origin check may trust it. */
export interface ServiceOrigin {
  /** The configured public base URL (PUBLIC_BASE_URL); unset when the base URL is taken from the request. */
  publicBaseUrl?: string;
  /** The base URL this request reached (the API's own domain, never a request header: lambdas/shared/http.ts). */
  requestBase: string;
}

/**
 * Allowed: no Origin; the configured public origin; a loopback origin when the request itself reached a loopback
 * host (a page on this machine talking to a service on this machine); or a configured origin. Anything else,
 * including the opaque `null` origin, is refused. The Host-derived base URL is never trusted as "our origin": in a
 * DNS-rebinding attack the page's Origin and the Host header both name the attacker's domain.
 */
export function isAllowedOrigin(origin: string | undefined, service: ServiceOrigin, allowed: string[] = configuredOrigins()): boolean {
  if (origin === undefined) return true;
  const candidate = normalize(origin);
  if (candidate === undefined) return false;
  if (service.publicBaseUrl !== undefined && candidate === normalize(service.publicBaseUrl)) return true;
  if (isLoopback(new URL(candidate).hostname) && isLoopback(new URL(service.requestBase).hostname)) return true;
  return allowed.includes(candidate);
}

function normalize(value: string): string | undefined {
  if (value === '' || value === 'null') return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
