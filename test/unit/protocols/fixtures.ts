/** Shared fixtures of the protocol unit tests: payment terms, and API Gateway v2 events as the gateway builds them. */
import type { PaymentTerms } from '../../../lambdas/jobs/offers.js';
import type { HttpEvent } from '../../../lambdas/shared/http.js';

export const TERMS: PaymentTerms = {
  network: 'eip155:8453',
  usdcAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  payTo: '0x00000000000000000000000000000000000000aa',
};

/** Requests arrive at https://api.test (x-forwarded-proto + host, as API Gateway forwards them). */
export const BASE = 'https://api.test';

export function httpEvent(options: {
  method?: string;
  path?: string;
  query?: string;
  headers?: Record<string, string>;
  body?: string;
  base64?: boolean;
  cookies?: string[];
}): HttpEvent {
  const method = options.method ?? 'POST';
  const path = options.path ?? '/api/mcp';
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: options.query ?? '',
    cookies: options.cookies,
    headers: { host: 'api.test', 'x-forwarded-proto': 'https', ...options.headers },
    body: options.body,
    isBase64Encoded: options.base64 ?? false,
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'api.test',
      domainPrefix: 'api',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'test' },
      requestId: 'r1',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: '',
      timeEpoch: 0,
    },
  };
}

/** A JSON-RPC POST to the MCP endpoint with the headers the Streamable HTTP transport requires. */
export function mcpPost(message: unknown, headers: Record<string, string> = {}): HttpEvent {
  return httpEvent({
    body: JSON.stringify(message),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  });
}
