/**
 * API Gateway HTTP API (payload 2.0) ⇄ web `Request`/`Response`, so the MCP SDK's web-standard transport runs
 * unchanged inside a Lambda (and behind the local gateway, which builds the same events).
 */
import { baseUrl, rawBody, type HttpEvent, type HttpResult } from '../../shared/http.js';

/** Hop-by-hop or recomputed headers: the body handed to `Request` is already complete and decoded. */
const DROPPED_REQUEST_HEADERS = new Set(['content-length', 'connection', 'transfer-encoding', 'keep-alive', 'upgrade']);

export function toWebRequest(event: HttpEvent): Request {
  const method = event.requestContext.http.method.toUpperCase();
  const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
  const url = `${baseUrl(event)}${event.rawPath}${query}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value === undefined || DROPPED_REQUEST_HEADERS.has(name.toLowerCase())) continue;
    headers.set(name, value);
  }
  // Payload 2.0 moves cookies out of the headers; put them back so the request is what the client sent.
  if (event.cookies?.length) headers.set('cookie', event.cookies.join('; '));
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, { method, headers, body: hasBody ? rawBody(event) : undefined });
}

export async function toHttpResult(response: Response): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  const result: HttpResult = { statusCode: response.status, headers, body: await response.text() };
  if (cookies.length) result.cookies = cookies;
  return result;
}
