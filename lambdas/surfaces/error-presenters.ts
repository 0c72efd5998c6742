/**
 * Error presenters: each turns the typed errors of lambdas/shared/errors.ts into one surface's bodies, matching by
 * class. The generation surface's shapes are the spec's (Errors, "Error bodies"): `detail`/`code`, the 422
 * `detail[]`, the song 404 `{error}`, and the 402 challenge.
 */
import {
  AgentInputError,
  Ap2AuthorizationError,
  DependencyError,
  IdempotencyConflictError,
  IdempotencyInProgressError,
  IdempotentReplay,
  InvalidWorkspaceKeyError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  SettlementPendingError,
  TopUpPendingError,
  UnsupportedApiVersionError,
  ValidationError,
} from '../shared/errors.js';
import { encodeBase64Json, json, type HttpResult } from '../shared/http.js';
import { logger } from '../shared/logger.js';
import { A2A_CONTENT_TYPE, A2A_ERROR_DOMAIN, AP2_EXTENSION_URI, A2aError, BAD_REQUEST_TYPE, a2aErrorBody, errorInfo, statusBody } from '../shared/a2a.js';

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
  if (error instanceof IdempotencyConflictError) {
    return json(409, { detail: error.message, code: 'payment_identifier_conflict' });
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
    // docs/spec-choices.md, "x402 v1" under the agent studio.
    // The payment middleware splits it (lambdas/middleware/payment.ts paymentRequired).
    const { header, body } = error.byReader ?? { header: error.challenge, body: error.challenge };
    return json(402, body, { 'PAYMENT-REQUIRED': encodeBase64Json(header), ...error.extraHeaders });
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
    return json(503, { detail: error.message, code: 'settlement_pending', runId: error.runId, runUrl: error.runUrl }, { 'Retry-After': '30' });
  }
  if (error instanceof InvalidWorkspaceKeyError) {
    const challenge = error.sent ? `Bearer error="invalid_token", error_description="${error.message}"` : 'Bearer';
    return json(401, { detail: error.message, code: 'invalid_token' }, { 'WWW-Authenticate': challenge });
  }
  if (error instanceof TopUpPendingError) {
    return json(503, { detail: error.message, code: 'settlement_pending', entryId: error.entryId }, { 'Retry-After': '30' });
  }
  if (error instanceof Ap2AuthorizationError) {
    return json(400, { detail: error.message, code: error.code, ap2: error.ap2 });
  }
  return generationErrors(error, request);
}

const STRUCT_TYPE = 'type.googleapis.com/google.protobuf.Struct';

/** The ErrorInfo domain of the agent studio's own error reasons (the Error body's `code`, upper-cased). */
export const AGENT_STUDIO_ERROR_DOMAIN = 'agent-studio.paycall';

const STATUS_NAMES: Record<number, string> = { 400: 'INVALID_ARGUMENT', 404: 'NOT_FOUND', 409: 'ABORTED', 429: 'RESOURCE_EXHAUSTED', 503: 'UNAVAILABLE' };

/**
 * The A2A routes' presenter: every answer in `application/a2a+json`. A2A errors are the spec's google.rpc.Status.
 * Every other error is answered with the run route's status and headers (one mapping, agentErrors) as a Status
 * whose ErrorInfo carries the Error body's `code` (in our domain; `field` and `runId` as metadata); a body that does
 * not validate and input the agent cannot read are A2A's INVALID_PARAMS, with a google.rpc.BadRequest listing each
 * problem. The 402 is the run route's, byte for byte (x402 clients read it, not A2A ones), and a replayed answer is
 * the stored one.
 */
export function a2aErrors(error: unknown, request?: { event: { rawPath?: string } }): HttpResult {
  const typed = (result: HttpResult): HttpResult => ({ ...result, headers: { ...result.headers, 'Content-Type': A2A_CONTENT_TYPE } });
  if (error instanceof IdempotentReplay) return generationErrors(error, request);
  if (error instanceof A2aError) return typed(json(error.httpStatus, a2aErrorBody(error)));
  const answer = agentErrors(error, request);
  if (error instanceof PaymentRequiredError) return typed(answer);
  const body = JSON.parse(answer.body as string) as { detail: unknown; code: string; field?: string; runId?: string; runUrl?: string; issues?: { loc: (string | number)[]; msg: string; type: string }[] };
  const message = typeof body.detail === 'string' ? body.detail : 'The request is invalid';
  const metadata: Record<string, string> = {};
  if (body.field !== undefined) metadata.field = body.field;
  if (body.runId !== undefined) metadata.runId = body.runId;
  if (body.runUrl !== undefined) metadata.runUrl = body.runUrl;
  const { statusCode } = answer;
  let details: Record<string, unknown>[];
  if (error instanceof ValidationError || error instanceof AgentInputError) {
    const violations =
      error instanceof ValidationError
        ? error.issues.map((issue) => ({ field: fieldPath(issue.loc), description: issue.msg, reason: issue.type }))
        : [{ field: `message.parts[0].data.${error.field}`, description: message, reason: 'invalid_input' }];
    details = [errorInfo('INVALID_PARAMS', A2A_ERROR_DOMAIN, metadata), { '@type': BAD_REQUEST_TYPE, fieldViolations: violations }];
  } else if (error instanceof Ap2AuthorizationError) {
    // The AP2 error code and the signed error receipt as ErrorInfo metadata (strings); the whole member, with a
    // checkout when one is offered, as a Struct keyed by the extension URI.
    metadata.ap2Error = error.ap2.error;
    if (error.ap2.checkoutReceipt) metadata.checkoutReceipt = error.ap2.checkoutReceipt;
    details = [errorInfo(body.code.toUpperCase(), AGENT_STUDIO_ERROR_DOMAIN, metadata), { '@type': STRUCT_TYPE, value: { [AP2_EXTENSION_URI]: error.ap2 } }];
  } else {
    details = statusCode >= 500 && statusCode !== 503 ? [] : [errorInfo(body.code.toUpperCase(), AGENT_STUDIO_ERROR_DOMAIN, metadata)];
  }
  const status = STATUS_NAMES[statusCode] ?? (statusCode >= 500 ? 'INTERNAL' : 'UNKNOWN');
  return typed(json(statusCode, statusBody(statusCode, status, message, details), stripContentType(answer.headers)));
}

/** `['message', 'parts', 0, 'data', 'x']` → `message.parts[0].data.x` (google.rpc.BadRequest field paths). */
function fieldPath(loc: (string | number)[]): string {
  return loc.reduce<string>((path, part) => (typeof part === 'number' ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function stripContentType(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
}

function describe(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, cause: error.cause instanceof Error ? error.cause.message : undefined };
  }
  return { value: String(error) };
}
