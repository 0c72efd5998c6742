/**
 * API Gateway (HTTP API, payload 2.0) events for the in-process handler benchmarks: each from its own source address
 * in a block of its own (the probe rate limit counts per client address, across both surfaces).
 */
import { randomUUID } from 'node:crypto';
import { x402Client } from '@x402/core/client';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm';
import { privateKeyToAccount } from 'viem/accounts';

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

/**
 * A fresh PAYMENT-SIGNATURE for `challenge` on each call, signed in turn by each of `buyers` (official x402 client,
 * ExactEvmScheme), so consecutive paid events never share an authorization.
 */
export function paymentSigner(buyers: { privateKey: string }[], challenge: PaymentRequired) {
  const clients = buyers.map((b) => new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(b.privateKey as `0x${string}`))));
  let which = 0;
  return async () => encodePaymentSignatureHeader(await clients[which++ % clients.length].createPaymentPayload(challenge));
}
