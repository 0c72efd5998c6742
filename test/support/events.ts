/**
 * API Gateway HTTP API (payload v2) events and a Middy chain runner for the middleware unit tests: each test builds
 * a real `middy()` chain of the middlewares under test in front of a trivial handler and invokes it with an event.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { HttpEvent, HttpResult } from '../../lambdas/shared/http.js';
import type { HttpMiddleware, Internal } from '../../lambdas/middleware/types.js';
import { encodeBase64Json } from '../../lambdas/payments/types.js';

export interface EventOptions {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  isBase64Encoded?: boolean;
  sourceIp?: string;
  query?: Record<string, string>;
}

/** An HTTP API v2 event (header names lower-case, as API Gateway delivers them). */
export function httpEvent(options: EventOptions = {}): HttpEvent {
  const method = options.method ?? 'POST';
  const path = options.path ?? '/create-music';
  const query = options.query;
  const rawQueryString = query ? new URLSearchParams(query).toString() : '';
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString,
    headers: { host: 'api.test', 'x-forwarded-proto': 'https', ...(options.headers ?? {}) },
    queryStringParameters: query,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.test',
      domainPrefix: 'api',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: options.sourceIp ?? '203.0.113.7', userAgent: 'vitest' },
      requestId: 'req-1',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: '01/Jan/2026:00:00:00 +0000',
      timeEpoch: 1_767_225_600_000,
    },
    body: options.body,
    isBase64Encoded: options.isBase64Encoded ?? false,
  };
}

export const lambdaContext = {
  functionName: 'test',
  awsRequestId: 'aws-req-1',
  getRemainingTimeInMillis: () => 10_000,
} as unknown as Context;

export type TestHandler = (event: HttpEvent, context: Context) => Promise<HttpResult> | HttpResult;

export interface Chain {
  invoke(event: HttpEvent): Promise<HttpResult>;
  /** How many times the handler ran. */
  readonly calls: number;
  /** `request.internal` as the handler saw it, per handler call. */
  readonly internals: Internal[];
}

/** A 200 `{ ok: true }` JSON answer. */
export const okHandler: TestHandler = () => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '{"ok":true}' });

/**
 * A real Middy chain: the middlewares in order (outermost first), then a probe that records `request.internal` just
 * before the handler runs, then the handler.
 */
export function chain(middlewares: HttpMiddleware[], handler: TestHandler = okHandler): Chain {
  const internals: Internal[] = [];
  let calls = 0;
  const probe: HttpMiddleware = {
    name: 'probe',
    before: (request) => {
      internals.push(request.internal);
    },
  };
  const wrapped = middy<HttpEvent, HttpResult, Error, Context, Internal>()
    .use(middlewares)
    .use(probe)
    .handler(async (event: HttpEvent, context: Context) => {
      calls++;
      return handler(event, context);
    });
  return {
    invoke: (event) => wrapped(event, lambdaContext) as Promise<HttpResult>,
    get calls() {
      return calls;
    },
    internals,
  };
}

/** The header of a response, whatever the case of its name. */
export function headerOf(result: HttpResult, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(result.headers ?? {})) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

export function bodyOf(result: HttpResult): any {
  return JSON.parse(result.body ?? '');
}

/** The wire JSON of an x402 v2 payment payload (shape only: nothing verifies its signature here). */
export function x402Wire(nonceByte = 'ab'): Record<string, unknown> {
  return {
    x402Version: 2,
    resource: { url: 'https://api.test/create-music' },
    accepted: {
      scheme: 'exact',
      network: 'eip155:8453',
      asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      payTo: '0x1111111111111111111111111111111111111111',
      amount: '500000',
    },
    payload: {
      signature: `0x${'11'.repeat(65)}`,
      authorization: {
        from: `0x${'22'.repeat(20)}`,
        to: '0x1111111111111111111111111111111111111111',
        value: '500000',
        validAfter: '0',
        validBefore: '9999999999',
        nonce: `0x${nonceByte.repeat(32)}`,
      },
    },
  };
}

/** A PAYMENT-SIGNATURE value that reads as an x402 v2 payload. */
export function x402Header(nonceByte = 'ab'): string {
  return encodeBase64Json(x402Wire(nonceByte));
}

/** A PAYMENT-SIGNATURE value that reads as an agent-payment token (a compact JWT; not verified here). */
export const TOKEN_HEADER = 'eyJhbGciOiJFUzI1NiIsInR5cCI6InBheStqd3QifQ.eyJzdWIiOiJidXllciJ9.c2lnbmF0dXJl';

/** A PAYMENT-SIGNATURE value that reads as neither. */
export const JUNK_HEADER = 'this-is-not-a-payment';

/** A promise and the functions that settle it. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
