/**
 * The A2A 1.0 HTTP+JSON binding as the agent studio speaks it: the protocol version rule, the content types, and the
 * A2A errors with their google.rpc.Status bodies (`{error: {code, status, message, details: [ErrorInfo]}}`, spec
 * §11.6). A client types an error by the ErrorInfo's `reason` (domain `a2a-protocol.org`), never by the message text,
 * so every A2A error carries one; the status names and HTTP codes are the spec's mapping (§5.4).
 */
export const A2A_PROTOCOL_VERSION = '1.0';
export const A2A_CONTENT_TYPE = 'application/a2a+json';
export const A2A_ERROR_DOMAIN = 'a2a-protocol.org';
export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
export const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';
/** The header (or query parameter) that names the protocol version of a request. */
export const VERSION_HEADER = 'A2A-Version';
/** The vendor-namespaced metadata member (of a message or a request) that carries the agent studio's parameters. */
export const SERVICE_METADATA_KEY = 'x-service';
/** AP2's A2A extension URI (unchanged in v0.2's samples; protocol notes §3). */
export const AP2_EXTENSION_URI = 'https://github.com/google-agentic-commerce/ap2/v1';
/** The headers that activate extensions (§3.2.6), and the deprecated spelling AP2's samples still send. */
export const EXTENSIONS_HEADERS = ['A2A-Extensions', 'X-A2A-Extensions'] as const;
/**
 * The media types every published agent takes and answers (its card's input and output modes): one JSON object. A
 * message part in another is ContentTypeNotSupported.
 */
export const AGENT_MEDIA_TYPES: readonly string[] = ['application/json'];
/** What a request without a version speaks (§3.6.2). */
export const ABSENT_VERSION = '0.3';

export type A2aReason =
  | 'TASK_NOT_FOUND'
  | 'PUSH_NOTIFICATION_NOT_SUPPORTED'
  | 'UNSUPPORTED_OPERATION'
  | 'CONTENT_TYPE_NOT_SUPPORTED'
  | 'VERSION_NOT_SUPPORTED'
  | 'INVALID_PARAMS';

/**
 * The spec's HTTP status and google.rpc status name of each A2A error (§5.4). ContentTypeNotSupported is 415, as the
 * 1.0 mapping table and the official TCK have it; @a2a-js/sdk's server answers 400 there, but its client types the
 * error by the ErrorInfo reason, so either status reads as the same error.
 */
const MAPPING: Record<A2aReason, { code: number; status: string }> = {
  TASK_NOT_FOUND: { code: 404, status: 'NOT_FOUND' },
  PUSH_NOTIFICATION_NOT_SUPPORTED: { code: 400, status: 'FAILED_PRECONDITION' },
  UNSUPPORTED_OPERATION: { code: 400, status: 'FAILED_PRECONDITION' },
  CONTENT_TYPE_NOT_SUPPORTED: { code: 415, status: 'INVALID_ARGUMENT' },
  VERSION_NOT_SUPPORTED: { code: 400, status: 'FAILED_PRECONDITION' },
  INVALID_PARAMS: { code: 400, status: 'INVALID_ARGUMENT' },
};

export interface FieldViolation {
  field: string;
  description: string;
  reason?: string;
}

/** An A2A protocol error; the A2A presenter (lambdas/surfaces/error-presenters.ts) writes its Status body. */
export class A2aError extends Error {
  override name = 'A2aError';
  constructor(
    readonly reason: A2aReason,
    message: string,
    readonly metadata?: Record<string, string>,
    /** For INVALID_PARAMS: each problem (a google.rpc.BadRequest detail). */
    readonly violations?: FieldViolation[],
  ) {
    super(message);
  }

  get httpStatus(): number {
    return MAPPING[this.reason].code;
  }

  get status(): string {
    return MAPPING[this.reason].status;
  }
}

/**
 * The task a message names, by `taskId` or `referenceTaskIds` (strings only; another type is the strict read's
 * invalid parameter). Both A2A interfaces answer with direct messages and keep no tasks, so any task named is one they
 * do not have (§3.4.2: TaskNotFoundError).
 */
export function namedTask(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { taskId, referenceTaskIds } = message as { taskId?: unknown; referenceTaskIds?: unknown };
  if (typeof taskId === 'string' && taskId !== '') return taskId;
  const references = Array.isArray(referenceTaskIds) ? (referenceTaskIds as unknown[]) : [];
  return references.find((id): id is string => typeof id === 'string' && id !== '');
}

export const taskNotFound = (taskId: string) =>
  new A2aError('TASK_NOT_FOUND', `Task '${taskId}' not found: this agent answers with direct messages and keeps no tasks`, { taskId });
export const streamingUnsupported = () =>
  new A2aError('UNSUPPORTED_OPERATION', 'Streaming is not supported (capabilities.streaming is false); use message:send');
export const extendedCardUnsupported = () =>
  new A2aError('UNSUPPORTED_OPERATION', 'No extended agent card (capabilities.extendedAgentCard is false)');
export const pushUnsupported = () =>
  new A2aError('PUSH_NOTIFICATION_NOT_SUPPORTED', 'Push notifications are not supported (capabilities.pushNotifications is false)');
export const mediaTypeUnsupported = (mediaType: string, accepted: readonly string[]) =>
  new A2aError('CONTENT_TYPE_NOT_SUPPORTED', `A message part of media type '${mediaType}' is not supported; this agent takes ${accepted.join(', ')}`, {
    mediaType,
  });
export const requestMalformed = (message: string, violations?: FieldViolation[]) => new A2aError('INVALID_PARAMS', message, undefined, violations);

/** google.rpc.Status as the A2A HTTP+JSON binding sends it. */
export function statusBody(code: number, status: string, message: string, details: Record<string, unknown>[] = []) {
  return { error: { code, status, message, details } };
}

export function errorInfo(reason: string, domain: string, metadata?: Record<string, string>): Record<string, unknown> {
  return { '@type': ERROR_INFO_TYPE, reason, domain, ...(metadata && Object.keys(metadata).length > 0 ? { metadata } : {}) };
}

export function a2aErrorBody(error: A2aError) {
  const details = [errorInfo(error.reason, A2A_ERROR_DOMAIN, error.metadata)];
  if (error.violations?.length) details.push({ '@type': BAD_REQUEST_TYPE, fieldViolations: error.violations });
  return statusBody(error.httpStatus, error.status, error.message, details);
}

/**
 * The version a request asks for: the `A2A-Version` header, else the query parameter of that name, else 0.3 (§3.6).
 * Only major.minor counts (`1.0.1` is 1.0); anything but 1.0 is VersionNotSupported.
 */
export function checkVersion(headerValue: string | undefined, queryValue: string | undefined): void {
  const asked = (headerValue ?? queryValue ?? '').trim();
  const requested = asked === '' ? ABSENT_VERSION : asked;
  const majorMinor = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(requested);
  if (majorMinor && `${Number(majorMinor[1])}.${Number(majorMinor[2])}` === A2A_PROTOCOL_VERSION) return;
  throw new A2aError(
    'VERSION_NOT_SUPPORTED',
    `The requested A2A protocol version '${requested}' is not supported. Supported versions: ${A2A_PROTOCOL_VERSION}`,
    { requested, supported: A2A_PROTOCOL_VERSION },
  );
}

/** Request bodies may be `application/json` or `application/a2a+json` (parameters such as charset allowed). */
export function isA2aContentType(value: string | undefined): boolean {
  return value !== undefined && /^\s*application\/(a2a\+)?json\s*(;|$)/i.test(value);
}
