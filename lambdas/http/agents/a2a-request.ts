/**
 * The agent studio's A2A SendMessage request, read twice: leniently before payment (which agent, whether it is a dry
 * run, the message id that keys duplicates), and strictly after it (the spec's "exactly one structured data part
 * holding the agent's input"). Our parameters ride in the vendor-namespaced metadata member `x-service`, of the
 * message or, failing that, of the request: `agent` (id or slug; the root interface's target) and `dryRun`.
 */
import * as z from '../../shared/zod.js';
import { ValidationError, type ValidationIssue } from '../../shared/errors.js';
import { toIssue } from '../../middleware/validation.js';
import { A2aError, AGENT_MEDIA_TYPES, isA2aContentType, mediaTypeUnsupported, requestMalformed, SERVICE_METADATA_KEY } from '../../shared/a2a.js';
import { isAp2Part } from './ap2.js';

export interface SendRequest {
  message?: {
    messageId?: unknown;
    contextId?: unknown;
    taskId?: unknown;
    referenceTaskIds?: unknown;
    role?: unknown;
    parts?: unknown;
    metadata?: unknown;
  };
  metadata?: unknown;
}

/** The body as JSON, or undefined when it is not a JSON object (the strict read says why). */
export function parseSendRequest(body: string): SendRequest | undefined {
  try {
    const value = JSON.parse(body) as unknown;
    return isObject(value) ? (value as SendRequest) : undefined;
  } catch {
    return undefined;
  }
}

/** A member of `x-service`, from the message's metadata first, then the request's. */
export function serviceParameter(request: SendRequest | undefined, name: 'agent' | 'dryRun'): unknown {
  for (const metadata of [request?.message?.metadata, request?.metadata]) {
    const service = isObject(metadata) ? metadata[SERVICE_METADATA_KEY] : undefined;
    if (isObject(service) && service[name] !== undefined) return service[name];
  }
  return undefined;
}

export function messageIdOf(request: SendRequest | undefined): string | undefined {
  const id = request?.message?.messageId;
  return typeof id === 'string' ? id : undefined;
}

export interface ValidSend {
  messageId: string;
  contextId?: string;
  input: Record<string, unknown>;
}

/**
 * The strict read: a JSON body of content type application/json or application/a2a+json, a message with a
 * messageId, role ROLE_USER and exactly one part, a data part whose object the agent's input schema accepts.
 */
export function validSend(contentType: string | undefined, request: SendRequest | undefined, inputSchema: z.ZodMiniType): ValidSend {
  if (!isA2aContentType(contentType)) {
    throw new A2aError('CONTENT_TYPE_NOT_SUPPORTED', `Content-Type '${contentType ?? ''}' is not supported; send application/json or application/a2a+json`);
  }
  if (!request) throw requestMalformed('The body must be a SendMessageRequest JSON object');
  const message = request.message;
  if (!isObject(message)) throw requestMalformed('SendMessageRequest.message is required', [{ field: 'message', description: 'required' }]);
  const problems: ValidationIssue[] = [];
  if (typeof message.messageId !== 'string' || message.messageId === '') problems.push(issue(['message', 'messageId'], 'a non-empty string is required'));
  if (message.role !== 'ROLE_USER') problems.push(issue(['message', 'role'], 'must be ROLE_USER'));
  if (message.contextId !== undefined && typeof message.contextId !== 'string') problems.push(issue(['message', 'contextId'], 'must be a string'));
  if (message.taskId !== undefined && message.taskId !== '' && typeof message.taskId !== 'string') problems.push(issue(['message', 'taskId'], 'must be a string'));
  if (message.referenceTaskIds !== undefined && !(Array.isArray(message.referenceTaskIds) && message.referenceTaskIds.every((id) => typeof id === 'string'))) {
    problems.push(issue(['message', 'referenceTaskIds'], 'must be an array of strings'));
  }
  if (problems.length > 0) throw new ValidationError(problems);
  const parts = Array.isArray(message.parts) ? (message.parts as unknown[]) : [];
  // AP2's extra data parts (mandates, risk data) ride beside the input part and are not it (./ap2.ts).
  const inputs = parts.flatMap((part, index) => (isAp2Part(part) ? [] : [index]));
  // A part in a media type the agent does not take is ContentTypeNotSupported (§3.1.1), before its shape is read.
  for (const index of inputs) {
    const mediaType = mediaTypeOf(parts[index]);
    if (mediaType !== undefined && !AGENT_MEDIA_TYPES.includes(mediaType)) throw mediaTypeUnsupported(mediaType, AGENT_MEDIA_TYPES);
  }
  const at = inputs.length === 1 ? inputs[0] : 0;
  const data = inputs.length === 1 && isObject(parts[at]) ? (parts[at] as Record<string, unknown>).data : undefined;
  if (inputs.length !== 1 || !isObject(data)) {
    problems.push(issue(['message', 'parts'], 'exactly one part is required: a data part whose object is the agent input'));
  }
  if (problems.length > 0) throw new ValidationError(problems);
  const parsed = z.safeParse(inputSchema, data, { reportInput: true });
  if (!parsed.success) {
    throw new ValidationError(parsed.error.issues.map((i) => ({ ...toIssue(i), loc: ['message', 'parts', at, 'data', ...toIssue(i).loc.slice(1)] })));
  }
  return {
    messageId: message.messageId as string,
    ...(typeof message.contextId === 'string' && message.contextId !== '' ? { contextId: message.contextId } : {}),
    input: parsed.data as Record<string, unknown>,
  };
}

/**
 * A part's media type: its `mediaType` (without parameters), else the one its content implies: text/plain for text,
 * application/json for data; a file (raw or url) without one is application/octet-stream. Undefined for a value that
 * is no part at all (the shape check says why).
 */
function mediaTypeOf(part: unknown): string | undefined {
  if (!isObject(part)) return undefined;
  if (typeof part.mediaType === 'string' && part.mediaType.trim() !== '') return part.mediaType.split(';')[0].trim().toLowerCase();
  if ('text' in part) return 'text/plain';
  if ('data' in part) return 'application/json';
  if ('raw' in part || 'url' in part) return 'application/octet-stream';
  return undefined;
}

function issue(loc: (string | number)[], msg: string): ValidationIssue {
  return { loc, msg, type: 'value_error' };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
