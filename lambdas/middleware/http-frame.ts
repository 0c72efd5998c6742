/**
 * The outer frame of every HTTP entry: the Service-API-Version check, the mapping of typed errors to the spec's
 * bodies (in one place), and the headers every response carries. Nothing else short-circuits a request:
 * middlewares throw typed errors and this frame answers, so the common headers are never skipped.
 */
import {
  IdempotencyInProgressError,
  IdempotentReplay,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  UnsupportedApiVersionError,
  ValidationError,
  DependencyError,
} from '../shared/errors.js';
import { header, json, type HttpResult } from '../shared/http.js';
import { encodeBase64Json } from '../payments/types.js';
import { logger } from '../shared/logger.js';
import type { HttpMiddleware, HttpRequest } from './types.js';

export const API_VERSION = '1';

export function apiVersion(): HttpMiddleware {
  const before = (request: HttpRequest) => {
    const requested = header(request.event, 'service-api-version');
    if (requested !== undefined && requested.trim() !== API_VERSION) {
      throw new UnsupportedApiVersionError(requested);
    }
  };
  const decorate = (request: HttpRequest) => {
    if (!request.response) return;
    request.response.headers = {
      ...(request.response.headers ?? {}),
      ...(request.internal.responseHeaders ?? {}),
      'Service-API-Version': API_VERSION,
    };
  };
  return { name: 'apiVersion', before, after: decorate, onError: decorate };
}

export function httpErrors(): HttpMiddleware {
  const onError = (request: HttpRequest) => {
    request.response = errorResponse(request.error, request);
  };
  return { name: 'httpErrors', onError };
}

export function errorResponse(error: unknown, request?: HttpRequest): HttpResult {
  if (error instanceof IdempotentReplay) {
    return { ...error.response, headers: { ...error.response.headers } };
  }
  if (error instanceof UnsupportedApiVersionError) {
    return json(400, { detail: error.message, code: 'unsupported_api_version' });
  }
  if (error instanceof PaymentRequiredError) {
    return json(402, error.challenge, {
      'PAYMENT-REQUIRED': encodeBase64Json(error.challenge),
      ...error.extraHeaders,
    });
  }
  if (error instanceof ValidationError) {
    return json(422, { detail: error.issues });
  }
  if (error instanceof RateLimitedError) {
    return json(429, { detail: error.message, code: 'rate_limited' }, { 'Retry-After': String(error.retryAfterSeconds) });
  }
  if (error instanceof NotFoundError) {
    return json(404, { error: error.message });
  }
  if (error instanceof IdempotencyInProgressError) {
    return json(409, { detail: error.message, code: 'idempotency_in_progress' }, { 'Retry-After': '2' });
  }
  // A storage, chain or facilitator failure before money moved: retryable, and nothing was charged.
  if (error instanceof DependencyError || (error instanceof Error && error.name === 'PaymentBackendError')) {
    logger.error('dependency failure', { error: describe(error), path: request?.event.rawPath });
    return json(503, { detail: 'A dependency is unavailable; nothing was charged. Retry with backoff.', code: 'unavailable' }, { 'Retry-After': '2' });
  }
  logger.error('unhandled error', { error: describe(error), path: request?.event.rawPath });
  return json(500, { detail: 'Internal server error; nothing was charged. Retry with backoff.', code: 'internal_error' });
}

function describe(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, cause: error.cause instanceof Error ? error.cause.message : undefined };
  }
  return { value: String(error) };
}
