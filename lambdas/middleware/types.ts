import type { MiddlewareObj, Request } from '@middy/core';
import type { HttpEvent, HttpResult } from '../shared/http.js';
import type { AcceptedPayment, Offer } from '../payments/core/types.js';
import type { PaymentHeader } from '../payments/core/header.js';

/** Per-request state the middlewares share, each under its own key. */
export interface Internal extends Record<string, unknown> {
  /** Headers every response of this request carries (rate-limit headers, for one). */
  responseHeaders?: Record<string, string>;
  /** The payment header, read and classified once (see paymentHeaderOf). */
  paymentHeader?: PaymentHeader;
  /** What the request pays for (built once by the payment middleware). */
  offer?: Offer;
  payment?: AcceptedPayment;
  body?: unknown;
  idempotencyPk?: string;
  /** The surface reads x402 v1's `X-PAYMENT` too (the agent studio). */
  legacyV1?: boolean;
}

export type HttpRequest = Request<HttpEvent, HttpResult, Error, import('aws-lambda').Context, Internal>;
export type HttpMiddleware = MiddlewareObj<HttpEvent, HttpResult, Error, import('aws-lambda').Context, Internal>;

export function addResponseHeaders(request: HttpRequest, headers: Record<string, string>): void {
  request.internal.responseHeaders = { ...(request.internal.responseHeaders ?? {}), ...headers };
}

export type { SurfaceFrame } from '../surfaces/surface.js';
