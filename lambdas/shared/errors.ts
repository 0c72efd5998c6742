/**
 * One error class per concept; each surface's error presenter (lambdas/surfaces/error-presenters.ts) maps them
 * to that surface's bodies in one place, matching by class.
 */

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class UnsupportedApiVersionError extends Error {
  override name = 'UnsupportedApiVersionError';
  constructor(
    readonly requested: string,
    readonly supported = '1',
  ) {
    super(`Service-API-Version '${requested}' is not supported; the supported version is ${supported}`);
  }
}

export class ValidationError extends Error {
  override name = 'ValidationError';
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
  }
}

/** A 402: the challenge object (x402 v2 PaymentRequired) goes in the body and, base64, in PAYMENT-REQUIRED. */
export class PaymentRequiredError extends Error {
  override name = 'PaymentRequiredError';
  constructor(
    readonly challenge: { error: string },
    readonly extraHeaders: Record<string, string> = {},
    /**
     * The challenge split by reader, for a surface that also sells to x402 v1 clients: `header` (PAYMENT-REQUIRED)
     * holds the v2 entries only, `body` the entries a v1 client can parse (docs/spec-choices.md, "x402 v1"). Absent: one challenge.
     */
    readonly byReader?: { header: { error: string }; body: { error: string } },
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
    super('A request with this idempotency key (X-Idempotency-Key or payment identifier) is still being processed; retry shortly');
  }
}

/**
 * A payment identifier (x402 `payment-identifier`) already bound to another request of the same payer on this route:
 * the extension's 409 Conflict. Nothing is processed and nothing charged.
 */
export class IdempotencyConflictError extends Error {
  override name = 'IdempotencyConflictError';
  constructor() {
    super('This payment identifier was already used for a different request or price; use a new id for a new request');
  }
}

/**
 * A storage, chain, facilitator or issuer dependency failed: "we could not check" or "we could not write", never
 * "you did not pay". Raised before any money moves, so it is answered 503 with Retry-After and nothing is charged.
 */
export class DependencyError extends Error {
  override name = 'DependencyError';
}

/** An agent engine could not read one of its input members (lambdas/agents/engines/port.ts): a 400 naming it. */
export class AgentInputError extends Error {
  override name = 'AgentInputError';
  constructor(
    /** The input member at fault, e.g. "bankStatement". */
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/**
 * A paid agent run whose transfer was broadcast without a receipt: its result is withheld until the chain decides,
 * then fetched from `runUrl` (GET /api/runs/{runId}).
 */
export class SettlementPendingError extends Error {
  override name = 'SettlementPendingError';
  constructor(
    readonly runId: string,
    reason: string,
    readonly runUrl: string,
  ) {
    super(`The payment of run ${runId} was sent but not yet confirmed (${reason}); its result is withheld until it settles. Fetch it from runUrl: 202 while pending, 200 with the result once settled.`);
  }
}

/**
 * AP2 merchant authorization (lambdas/payments/ap2) refused a priced live run before any money moved: mandates that
 * do not verify (`ap2_mandate_refused`, with the signed error receipt), or none where the agent requires them
 * (`ap2_mandate_required`, with a checkout to build them on). Answered 400; `ap2` is the body's member as is.
 */
export class Ap2AuthorizationError extends Error {
  override name = 'Ap2AuthorizationError';
  constructor(
    readonly code: 'ap2_mandate_refused' | 'ap2_mandate_required',
    message: string,
    readonly ap2: { error: string; checkoutReceipt?: string; checkout?: unknown },
  ) {
    super(message);
  }
}

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The request's workspace key is missing, malformed or unknown (spec Authentication 5): a 401 with
 * `WWW-Authenticate: Bearer` (RFC 6750: `error="invalid_token"` when a key was sent, none when none was).
 */
export class InvalidWorkspaceKeyError extends Error {
  override name = 'InvalidWorkspaceKeyError';
  constructor(readonly sent: boolean) {
    super(sent ? 'The bearer is not a valid workspace key' : 'A workspace key is required: Authorization: Bearer <workspaceKey>');
  }
}

/** A top-up whose transfer was broadcast without a receipt: pending until the chain decides (the sweeper credits it). */
export class TopUpPendingError extends Error {
  override name = 'TopUpPendingError';
  constructor(
    readonly entryId: string,
    reason: string,
  ) {
    super(`The top-up's payment was sent but not yet confirmed (${reason}); it is credited once it lands. The ledger lists it as pending.`);
  }
}
