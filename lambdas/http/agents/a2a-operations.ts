/**
 * Every A2A 1.0 HTTP+JSON operation of the agent studio's interfaces (per agent and root) other than message:send,
 * one function for all (lambdas/surfaces/routes.ts `a2aOperations`): the interface answers direct messages, keeps
 * no tasks and offers neither streaming, push notifications nor an extended card, so each operation has one answer
 * (spec §3.3.4 and "A2A tasks"):
 *  - message:stream, tasks/{id}:subscribe (POST and GET), extendedAgentCard → 400 UnsupportedOperation;
 *  - GET tasks → 200 `{tasks: [], nextPageToken: "", pageSize, totalSize: 0}`;
 *  - GET tasks/{id}, POST tasks/{id}:cancel → 404 TaskNotFound;
 *  - every push-config operation → 400 PushNotificationNotSupported.
 * `A2A-Version: 1.0` is required first (400 VersionNotSupported), then a per-agent path's agent must be published (404).
 * The operation is told by the path against the route table's templates, not by the route key: API Gateway routes
 * `tasks/{taskId}:cancel` as `tasks/{taskId}`.
 */
import middy from '@middy/core';
import { documentFrame } from '../../middleware/document-frame.js';
import { a2aVersion } from '../../middleware/a2a-version.js';
import { json, type HttpEvent, type HttpResult } from '../../shared/http.js';
import { NotFoundError } from '../../shared/errors.js';
import { AGENTS_A2A } from '../../surfaces/surface.js';
import { matchPath } from '../../surfaces/paths.js';
import { ROUTES, type RouteDef } from '../../surfaces/routes.js';
import { findAgent } from '../../agents/listing.js';
import { A2A_CONTENT_TYPE, extendedCardUnsupported, pushUnsupported, statusBody, streamingUnsupported, taskNotFound } from '../../shared/a2a.js';

const ENTRY = 'lambdas/http/agents/a2a-operations.ts';
/** Templates with a literal beside a parameter (`{taskId}:cancel`) first: `{taskId}` alone would match them too. */
const OPERATIONS = ROUTES.filter((route) => route.entry === ENTRY).sort((a, b) => Number(/\}[^/]/.test(b.path)) - Number(/\}[^/]/.test(a.path)));

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;

type Answer = (params: Record<string, string>, event: HttpEvent) => HttpResult;

/** Each operation by its route id without the interface prefix (`AgentA2a` / `A2a`). */
const ANSWERS: Record<string, Answer> = {
  Stream: () => {
    throw streamingUnsupported();
  },
  SubscribePost: () => {
    throw streamingUnsupported();
  },
  SubscribeGet: () => {
    throw streamingUnsupported();
  },
  ExtendedCard: () => {
    throw extendedCardUnsupported();
  },
  ListTasks: (_params, event) => a2aJson(200, { tasks: [], nextPageToken: '', pageSize: pageSizeOf(event), totalSize: 0 }),
  GetTask: (params) => {
    throw taskNotFound(params.taskId);
  },
  CancelTask: (params) => {
    throw taskNotFound(params.taskId);
  },
  CreatePushConfig: () => {
    throw pushUnsupported();
  },
  ListPushConfigs: () => {
    throw pushUnsupported();
  },
  GetPushConfig: () => {
    throw pushUnsupported();
  },
  DeletePushConfig: () => {
    throw pushUnsupported();
  },
};

export const handler = middy<HttpEvent, HttpResult>()
  .use(documentFrame(AGENTS_A2A))
  .use(a2aVersion())
  .handler(async (event) => {
    const method = event.requestContext.http.method.toUpperCase();
    const found = operationOf(method, event.rawPath);
    if (!found) return a2aJson(404, statusBody(404, 'NOT_FOUND', `No A2A operation ${method} ${event.rawPath}`));
    const { route, params } = found;
    if (params.agent !== undefined && !findAgent(params.agent)) throw new NotFoundError(`No published agent '${params.agent}'`);
    return ANSWERS[route.id.replace(/^(AgentA2a|A2a)/, '')](params, event);
  });

function operationOf(method: string, path: string): { route: RouteDef; params: Record<string, string> } | undefined {
  for (const route of OPERATIONS) {
    if (route.method !== method) continue;
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  return undefined;
}

/** A2A's pageSize is 1 to 100, 50 when absent; an out-of-range or unreadable one is brought into range. */
function pageSizeOf(event: HttpEvent): number {
  const asked = Number.parseInt(event.queryStringParameters?.pageSize ?? '', 10);
  if (!Number.isFinite(asked)) return DEFAULT_PAGE_SIZE;
  return Math.min(MAX_PAGE_SIZE, Math.max(1, asked));
}

function a2aJson(status: number, body: unknown): HttpResult {
  return json(status, body, { 'Content-Type': A2A_CONTENT_TYPE });
}
