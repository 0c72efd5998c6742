/**
 * API Gateway (HTTP API, payload 2.0) events for the in-process handler benchmarks: each from its own source address
 * in a block of its own (the probe rate limit counts per client address, across both surfaces).
 */
import { randomUUID } from 'node:crypto';

export interface EventSpec {
  method: 'GET' | 'POST';
  path: string;
  /** The route template the event came in on (defaults to `path`). */
  route?: string;
  body?: string;
  headers?: Record<string, string>;
  pathParameters?: Record<string, string>;
}

export function eventMaker(host: string, block: number) {
  let counter = 0;
  return ({ method, path, route = path, body, headers = {}, pathParameters }: EventSpec) => {
    counter++;
    const sourceIp = `10.${block}.${(counter >> 8) & 255}.${counter & 255}`;
    return {
      version: '2.0',
      routeKey: `${method} ${route}`,
      rawPath: path,
      rawQueryString: '',
      headers: { host, 'x-forwarded-proto': 'http', 'content-type': 'application/json', ...headers },
      pathParameters,
      body,
      isBase64Encoded: false,
      requestContext: { domainName: host, http: { method, path, sourceIp, protocol: 'HTTP/1.1', userAgent: 'bench' }, requestId: randomUUID(), stage: '$default' },
    };
  };
}
