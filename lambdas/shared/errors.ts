/**
 * One error class per concept; lambdas/middleware/http-errors.ts maps them to the spec's bodies in one place.
 */
import type { PaymentChallenge } from '../payments/types.js';

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class UnsupportedApiVersionError extends Error {
  override name = 'UnsupportedApiVersionError';
  constructor(readonly requested: string) {
    super(`Service-API-Version '${requested}' is not supported; the supported version is 1`);
  }
}

export class ValidationError extends Error {
  override name = 'ValidationError';
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
  }
}

export class PaymentRequiredError extends Error {
  override name = 'PaymentRequiredError';
  constructor(
    readonly challenge: PaymentChallenge,
    readonly extraHeaders: Record<string, string> = {},
  ) {
    super(challenge.error);
  }
}

export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
  constructor(readonly retryAfterSeconds: number) {
    super('Too many unpaid requests; retry later');
  }
}

export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

/** A request replayed under an idempotency key: answer with the stored response. */
export class IdempotentReplay extends Error {
  override name = 'IdempotentReplay';
  constructor(readonly response: StoredResponse) {
    super('idempotent replay');
  }
}

/** Same key, still being processed by another request after the wait budget. */
export class IdempotencyInProgressError extends Error {
  override name = 'IdempotencyInProgressError';
  constructor() {
    super('A request with this X-Idempotency-Key is still being processed; retry shortly');
  }
}

/** A storage, chain or orchestration dependency failed before any money moved. */
export class DependencyError extends Error {
  override name = 'DependencyError';
}

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}
