/**
 * The A2A 1.0 JSON-RPC interface the agent card advertises at `{base_url}/a2a`. A SendMessage naming a skill is
 * answered with a direct agent message (no task is created, so none is retained) whose data part is the same
 * payment pointer the MCP tool of that skill gives: the agent then pays the HTTP endpoint. Streaming and push
 * notifications are not offered; task lookups answer TaskNotFound because there are never tasks.
 */
import { randomUUID } from 'node:crypto';
import type { PaymentTerms } from '../../jobs/offers.js';
import { paymentInstructions, paymentPointer } from '../payment-pointer.js';
import { RPC, RpcError, rpcFailure, rpcResult, type JsonRpcId, type JsonRpcResponse } from './jsonrpc.js';
import { selectSkill } from './skills.js';
import { namedTask } from '../../shared/a2a.js';

export const A2A_VERSION = '1.0';

export interface A2aContext {
  baseUrl: string;
  /** Value of the `A2A-Version` request header. */
  version: string | undefined;
  terms?: PaymentTerms;
  newId?: () => string;
}

type Method = (params: Record<string, unknown>, ctx: A2aContext) => unknown;

const notSupported = (code: number, message: string): Method => () => {
  throw new RpcError(code, message);
};

const METHODS: Record<string, Method> = {
  SendMessage: sendMessage,
  SendStreamingMessage: notSupported(RPC.unsupportedOperation, 'Streaming is not supported (capabilities.streaming is false)'),
  SubscribeToTask: notSupported(RPC.unsupportedOperation, 'Streaming is not supported (capabilities.streaming is false)'),
  GetTask: (params) => taskNotFound(params),
  CancelTask: (params) => taskNotFound(params),
  ListTasks: () => ({ tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 }),
  CreateTaskPushNotificationConfig: pushNotSupported(),
  GetTaskPushNotificationConfig: pushNotSupported(),
  ListTaskPushNotificationConfigs: pushNotSupported(),
  DeleteTaskPushNotificationConfig: pushNotSupported(),
  GetExtendedAgentCard: notSupported(RPC.extendedCardNotConfigured, 'No extended agent card is configured'),
};

/** Answers one JSON-RPC request body; undefined for a notification (JSON-RPC never replies to those). */
export function answerA2a(body: string, ctx: A2aContext): JsonRpcResponse | undefined {
  let request: unknown;
  try {
    request = JSON.parse(body);
  } catch {
    return rpcFailure(null, new RpcError(RPC.parseError, 'Parse error: the body is not JSON'));
  }
  const envelope = readEnvelope(request);
  if ('error' in envelope) return rpcFailure(envelope.id, envelope.error);
  if (envelope.id === undefined) return undefined;
  try {
    if (ctx.version?.trim() !== A2A_VERSION) {
      // A missing header means 0.3 to an A2A server; this interface speaks 1.0 only.
      throw new RpcError(RPC.versionNotSupported, `A2A-Version '${ctx.version ?? '0.3'}' is not supported; send A2A-Version: ${A2A_VERSION}`, {
        supported: [A2A_VERSION],
      });
    }
    const method = Object.hasOwn(METHODS, envelope.method) ? METHODS[envelope.method] : undefined;
    if (!method) throw new RpcError(RPC.methodNotFound, `Method not found: ${envelope.method}`);
    return rpcResult(envelope.id, method(envelope.params, ctx));
  } catch (error) {
    if (error instanceof RpcError) return rpcFailure(envelope.id, error);
    throw error;
  }
}

function sendMessage(params: Record<string, unknown>, ctx: A2aContext): unknown {
  const message = params.message;
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new RpcError(RPC.invalidParams, 'SendMessage needs params.message');
  }
  // Continuing a task, or referring to one, names a task this interface never created: it keeps none (§3.4.2).
  const named = namedTask(message);
  if (named !== undefined) taskNotFound({ id: named });
  const skill = selectSkill(message, params.metadata);
  const pointer = paymentPointer(skill, ctx.baseUrl, ctx.terms);
  const newId = ctx.newId ?? randomUUID;
  const contextId = (message as { contextId?: unknown }).contextId;
  return {
    message: {
      messageId: newId(),
      contextId: typeof contextId === 'string' && contextId !== '' ? contextId : newId(),
      role: 'ROLE_AGENT',
      parts: [
        { data: pointer, mediaType: 'application/json' },
        { text: paymentInstructions(skill, pointer), mediaType: 'text/plain' },
      ],
      metadata: { skillId: skill },
    },
  };
}

function taskNotFound(params: Record<string, unknown>): never {
  const id = typeof params.id === 'string' ? params.id : '';
  throw new RpcError(RPC.taskNotFound, `Task '${id}' not found: this agent answers with direct messages and keeps no tasks`);
}

function pushNotSupported(): Method {
  return notSupported(RPC.pushNotificationNotSupported, 'Push notifications are not supported (capabilities.pushNotifications is false)');
}

type Envelope = { id: JsonRpcId | undefined; method: string; params: Record<string, unknown> } | { id: JsonRpcId; error: RpcError };

function readEnvelope(value: unknown): Envelope {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    // Batches are not part of the A2A binding.
    return { id: null, error: new RpcError(RPC.invalidRequest, 'Invalid Request: expected one JSON-RPC request object') };
  }
  const r = value as Record<string, unknown>;
  const idValid = r.id === undefined || r.id === null || typeof r.id === 'string' || typeof r.id === 'number';
  const id = idValid ? (r.id as JsonRpcId | undefined) : null;
  if (r.jsonrpc !== '2.0' || typeof r.method !== 'string' || !idValid) {
    return { id: id ?? null, error: new RpcError(RPC.invalidRequest, "Invalid Request: needs jsonrpc '2.0', a method and a string or number id") };
  }
  if (r.params !== undefined && (typeof r.params !== 'object' || r.params === null || Array.isArray(r.params))) {
    return { id: id ?? null, error: new RpcError(RPC.invalidParams, 'Invalid params: expected an object') };
  }
  return { id, method: r.method, params: (r.params ?? {}) as Record<string, unknown> };
}
