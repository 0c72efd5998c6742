/**
 * Error presenters: each turns the typed errors of lambdas/shared/errors.ts into one surface's bodies, matching by
 * class. The generation surface's shapes are the spec's (Errors, "Error bodies"): `detail`/`code`, the 422
 * `detail[]`, the song 404 `{error}`, and the 402 challenge.
 */
import {
  AgentInputError,
  DependencyError,
  IdempotencyInProgressError,
  IdempotentReplay,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  SettlementPendingError,
  UnsupportedApiVersionError,
  ValidationError,
} from '../shared/errors.js';
import { encodeBase64Json, json, type HttpResult } from '../shared/http.js';
import { logger } from '../shared/logger.js';
import { headerChallenge, v1BodyChallenge } from '../payments/core/challenge.js';
import type { PaymentChallenge } from '../payments/types.js';

export function generationErrors(error: unknown, request?: { event: { rawPath?: string } }): HttpResult {
  if (error instanceof IdempotentReplay) {
    return { ...error.response, headers: { ...error.response.headers } };
  }
  if (error instanceof UnsupportedApiVersionError) {
    return json(400, { detail: error.message, code: 'unsupported_api_version' });
  }
  if (error instanceof PaymentRequiredError) {
    return json(402, error.challenge, { 'PAYMENT-REQUIRED': encodeBase64Json(error.challenge), ...error.extraHeaders });
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
  // A storage, chain, facilitator or issuer failure before money moved: retryable, and nothing was charged.
  if (error instanceof DependencyError) {
    logger.error('dependency failure', { error: describe(error), path: request?.event.rawPath });
    return json(503, { detail: 'A dependency is unavailable; nothing was charged. Retry with backoff.', code: 'unavailable' }, { 'Retry-After': '2' });
  }
  logger.error('unhandled error', { error: describe(error), path: request?.event.rawPath });
  return json(500, { detail: 'Internal server error; nothing was charged. Retry with backoff.', code: 'internal_error' });
}

/**
 * The agent studio's Error body (its fields are not in the spec): the generation surface's `detail` + `code`, with
 * 400 (not 422) for a body that does not validate, `issues` listing each problem, and `field` naming the input member
 * an engine could not read. Other errors are presented as on the generation surface.
 */
export function agentErrors(error: unknown, request?: { event: { rawPath?: string } }): HttpResult {
  if (error instanceof PaymentRequiredError) {
    // x402 v2 clients read the challenge from PAYMENT-REQUIRED and a strict one rejects it whole over one entry
    // that is not CAIP-2; x402 v1 clients (x402-fetch 1.x) read the body and parse every `accepts` entry with the
    // v1 schema, throwing on a CAIP-2 network. So the header carries only the v2 entries, and the body the same
    // challenge with only the entries a v1 client can read (network by its v1 name, every v2 field kept).
    // README, "x402 v1" under the agent studio.
    const challenge = error.challenge as PaymentChallenge;
    return json(402, v1BodyChallenge(challenge), { 'PAYMENT-REQUIRED': encodeBase64Json(headerChallenge(challenge)), ...error.extraHeaders });
  }
  if (error instanceof ValidationError) {
    return json(400, { detail: error.message, code: 'invalid_request', issues: error.issues });
  }
  if (error instanceof AgentInputError) {
    return json(400, { detail: error.message, code: 'invalid_input', field: error.field });
  }
  if (error instanceof NotFoundError) {
    return json(404, { detail: error.message, code: 'not_found' });
  }
  if (error instanceof SettlementPendingError) {
    return json(503, { detail: error.message, code: 'settlement_pending', runId: error.runId }, { 'Retry-After': '30' });
  }
  return generationErrors(error, request);
}

function describe(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, cause: error.cause instanceof Error ? error.cause.message : undefined };
  }
  return { value: String(error) };
}
