/**
 * GET /openapi.json on the agent studio: OpenAPI 3.1, info.version 0.3.0, one operation per API route (one with an
 * operationId: every route of the agent surface but the browser playground) in the route table, each with the answers
 * its handler gives (spec: "Agent-studio surface" and "Errors → Agent-studio surface"):
 *  - documents (catalog, feed, index, cards, terms, template, this document): 200 JSON, Error bodies;
 *  - run operations carry each agent's run request and result schemas (the generated ones: lambdas/agents/published.ts);
 *    concrete run routes are `runPublishedAgent_<slug with _>`;
 *  - A2A 1.0 HTTP+JSON (lambdas/http/agents/a2a-send.ts, a2a-operations.ts): `A2A-Version` required, every answer a
 *    free-form `application/a2a+json` object (errors are google.rpc.Status);
 *  - workspaces, top-up and MCP (workspaces.ts, topup.ts, mcp.ts): the workspace key is an http bearer security scheme
 *    (optional on MCP), an invalid one a 401.
 */
import { surfaceRoutes, AGENT_STUDIO } from '../surfaces/surface.js';
import type { RouteDef } from '../surfaces/routes.js';
import { A2A_CONTENT_TYPE, A2A_PROTOCOL_VERSION, AP2_EXTENSION_URI, VERSION_HEADER } from '../shared/a2a.js';
import { DEFAULT_TOPUP_TIER, TOPUP_TIERS } from '../credits/offers.js';
import { AGENT_LISTINGS, publishedAgents, type AgentListing } from './listing.js';
import { runRequestJsonSchema, resultJsonSchema } from './published.js';
import { usdcNumber } from './money.js';
import { purchasesOperation, SIGN_IN_SCHEME } from '../purchases/document.js';

const ERROR = { $ref: '#/components/schemas/Error' };
const JSON_RPC_ERROR = { $ref: '#/components/schemas/JsonRpcError' };
/** The security scheme of the workspace key (an http bearer). */
const WORKSPACE_KEY = 'WorkspaceKey';

function errors(...codes: number[]) {
  return Object.fromEntries(codes.map((code) => [String(code), errorResponse(ERROR_TEXT[code])]));
}

function errorResponse(description: string, headers?: Record<string, unknown>) {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema: ERROR } } };
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request: the body does not validate, or the agent could not read an input member (`field`)',
  404: 'Unknown or unpublished agent',
  409: 'A request with this X-Idempotency-Key (or payment identifier) is still in flight (idempotency_in_progress), or the payment identifier was already used for another request or price (payment_identifier_conflict)',
  429: 'Unpaid calls over the probe rate limit (Retry-After)',
  500: 'Internal error; nothing was charged',
  503: 'A dependency is unavailable, or a payment is not yet confirmed (settlement_pending); nothing else was charged',
};

const header = (description: string) => ({ description, schema: { type: 'string' } });
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 0 } } };
const WWW_AUTHENTICATE = { 'WWW-Authenticate': header('`Bearer`, or `Bearer error="invalid_token"` when a key was sent but names no workspace') };
const PAYMENT_REQUIRED = { 'PAYMENT-REQUIRED': header('The x402 v2 payment challenge, base64-encoded JSON') };
const PAYMENT_RESPONSE = { 'PAYMENT-RESPONSE': header('The settlement receipt, base64-encoded JSON (X-PAYMENT-RESPONSE when paid with the legacy X-PAYMENT)') };

function paymentParameters() {
  return [
    {
      name: 'PAYMENT-SIGNATURE',
      in: 'header',
      required: false,
      description: 'Base64 x402 v2 payment payload; omit it on the first call to obtain the 402 challenge',
      schema: { type: 'string' },
    },
    { name: 'X-PAYMENT', in: 'header', required: false, deprecated: true, description: 'x402 v1 payment payload (legacy, accepted during migration)', schema: { type: 'string' } },
  ];
}

function paymentRequired(description: string, contentType = 'application/json') {
  return { description, headers: PAYMENT_REQUIRED, content: { [contentType]: { schema: { type: 'object', description: 'x402 v2 payment challenge (`x402Version`, `accepts`, `error`)' } } } };
}

function runResultSchema(agent?: AgentListing) {
  return {
    type: 'object',
    required: ['runId', 'status', 'totalCostUsdc', 'outputs', 'result', 'settled'],
    properties: {
      runId: { type: 'string' },
      status: { type: 'string', enum: ['done'] },
      totalCostUsdc: { type: 'number' },
      outputs: { type: 'object' },
      result: agent ? resultJsonSchema(agent) : { type: 'object' },
      settled: { type: 'boolean' },
      dryRun: { type: 'boolean' },
    },
  };
}

function runOperation(route: RouteDef, agent?: AgentListing) {
  return {
    operationId: route.operationId,
    summary: agent ? `Run ${agent.name}` : 'Run a published agent by slug or legacy id',
    description: agent
      ? `${agent.description} Price: ${agent.price === 0n ? 'free' : `${usdcNumber(agent.price)} USDC per successful paid call (x402)`}.`
      : 'Runs any published agent. Relay-backed services answer the resource-run envelope.',
    ...(agent ? {} : { parameters: [agentParameter()] }),
    requestBody: {
      required: !!agent,
      content: { 'application/json': { schema: agent ? runRequestJsonSchema(agent) : { type: 'object', properties: { input: { type: 'object' }, dryRun: { type: 'boolean' }, ap2: { type: 'object' } } } } },
    },
    responses: {
      '200': { description: 'The run result (settled: true after x402 settlement)', content: { 'application/json': { schema: runResultSchema(agent) } } },
      '402': { description: 'Payment required: x402 v2 terms in the body and base64 in PAYMENT-REQUIRED', content: { 'application/json': { schema: { type: 'object' } } } },
      ...errors(400, 404, 409, 429, 500, 503),
    },
  };
}

function agentParameter() {
  return { name: 'agent', in: 'path', required: true, description: 'Agent slug or legacy id', schema: { type: 'string', minLength: 1 } };
}

function pathParameter(name: string, description: string) {
  return { name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1 } };
}

function getOperation(route: RouteDef) {
  return {
    operationId: route.operationId,
    summary: route.summary ?? route.id,
    ...(route.path.includes('{agent}') ? { parameters: [agentParameter()] } : {}),
    responses: {
      '200': { description: route.summary ?? 'The document', content: { 'application/json': { schema: { type: 'object' } } } },
      ...errors(...(route.path.includes('{agent}') ? [404, 500] : [500])),
    },
  };
}

// ---- A2A 1.0 over HTTP+JSON (per agent `/api/agents/{agent}/a2a/…`, root `/api/a2a/…`) ----

/** A free-form A2A object: every A2A answer, errors included (google.rpc.Status `{error: {code, status, message, details}}`). */
function a2aResponse(description: string, headers?: Record<string, unknown>) {
  return { description, ...(headers ? { headers } : {}), content: { [A2A_CONTENT_TYPE]: { schema: { type: 'object' } } } };
}

function a2aVersionParameter() {
  return {
    name: VERSION_HEADER,
    in: 'header',
    required: true,
    description: `A2A protocol version; must be ${A2A_PROTOCOL_VERSION} (anything else: 400 VersionNotSupported)`,
    schema: { type: 'string', example: A2A_PROTOCOL_VERSION },
  };
}

/** The path parameters of an A2A route, in path order. */
function a2aPathParameters(route: RouteDef) {
  const described: Record<string, string> = { taskId: 'Task id (opaque; no tasks are kept)', configId: 'Push notification config id' };
  return [...route.path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map(([, name]) => (name === 'agent' ? agentParameter() : pathParameter(name, described[name] ?? name)));
}

const SEND_MESSAGE_REQUEST = {
  type: 'object',
  required: ['message'],
  description:
    'A2A SendMessageRequest: a ROLE_USER message with exactly one data part holding the agent input. At the root interface ' +
    'the agent is named by `message.metadata["x-service"].agent` (slug or id); `x-service.dryRun: true` previews without settling.',
  properties: {
    message: {
      type: 'object',
      required: ['messageId', 'role', 'parts'],
      properties: {
        messageId: { type: 'string', minLength: 1, description: 'Also the duplicate key (per agent and payer)' },
        contextId: { type: 'string' },
        role: { type: 'string', enum: ['ROLE_USER'] },
        parts: { type: 'array', minItems: 1, items: { type: 'object' } },
        metadata: { type: 'object' },
      },
    },
    configuration: { type: 'object' },
    metadata: { type: 'object' },
  },
};

function a2aSendOperation(route: RouteDef) {
  const atRoot = !route.path.includes('{agent}');
  const content = { schema: SEND_MESSAGE_REQUEST };
  return {
    operationId: route.operationId,
    summary: atRoot ? 'A2A SendMessage at the root interface (agent named in the message metadata)' : 'A2A SendMessage to one agent',
    description:
      'Runs the agent as its run route does and answers a direct ROLE_AGENT message whose data part is the result. A priced live ' +
      'call without payment answers the run route\'s 402 challenge; retry with PAYMENT-SIGNATURE.',
    parameters: [
      ...a2aPathParameters(route),
      a2aVersionParameter(),
      { name: 'A2A-Extensions', in: 'header', required: false, description: `Activated extensions; \`${AP2_EXTENSION_URI}\` negotiates AP2 v0.2 merchant authorization`, schema: { type: 'string' } },
      { name: 'X-A2A-Extensions', in: 'header', required: false, deprecated: true, description: 'Deprecated spelling of A2A-Extensions', schema: { type: 'string' } },
      ...paymentParameters(),
    ],
    requestBody: { required: true, content: { [A2A_CONTENT_TYPE]: content, 'application/json': content } },
    responses: {
      '200': a2aResponse('`{message}`: a direct ROLE_AGENT message; the run facts ride in `metadata["x-service"]`', PAYMENT_RESPONSE),
      '402': paymentRequired('Payment required: the run route\'s x402 v2 challenge in the body and base64 in PAYMENT-REQUIRED', A2A_CONTENT_TYPE),
      '400': a2aResponse('VersionNotSupported, or INVALID_PARAMS (the request or the agent input does not validate; AP2 authorization refused)'),
      '404': a2aResponse('Unknown or unpublished agent; TaskNotFound when the message names a task (message.taskId or referenceTaskIds): none are kept, nothing is charged'),
      '415': a2aResponse('ContentTypeNotSupported: the request Content-Type, or a message part in a media type the agent does not take'),
      '409': a2aResponse('A send with this messageId is still in flight'),
      '429': a2aResponse('Unpaid calls over the probe rate limit', RETRY_AFTER),
      '500': a2aResponse('Internal error; nothing was charged'),
      '503': a2aResponse('A dependency is unavailable, or a payment is not yet confirmed; nothing else was charged', RETRY_AFTER),
    },
  };
}

/** The A2A operations this interface does not offer, or answers without state (lambdas/http/agents/a2a-operations.ts). */
const A2A_OPERATIONS: Record<string, { summary: string; answers: Record<string, string> }> = {
  Stream: { summary: 'A2A SendStreamingMessage (not offered)', answers: { '400': 'UnsupportedOperation: streaming is false; use message:send' } },
  SubscribePost: { summary: 'A2A SubscribeToTask (not offered)', answers: { '400': 'UnsupportedOperation: streaming is false' } },
  SubscribeGet: { summary: 'A2A SubscribeToTask over GET (not offered)', answers: { '400': 'UnsupportedOperation: streaming is false' } },
  ExtendedCard: { summary: 'A2A GetExtendedAgentCard (not offered)', answers: { '400': 'UnsupportedOperation: there is no extended agent card' } },
  ListTasks: { summary: 'A2A ListTasks: always empty (no tasks are kept)', answers: { '200': '`{tasks: [], nextPageToken: "", pageSize, totalSize: 0}`' } },
  GetTask: { summary: 'A2A GetTask: no tasks are kept', answers: { '404': 'TaskNotFound' } },
  CancelTask: { summary: 'A2A CancelTask: no tasks are kept', answers: { '404': 'TaskNotFound' } },
  CreatePushConfig: { summary: 'A2A CreateTaskPushNotificationConfig (not offered)', answers: { '400': 'PushNotificationNotSupported' } },
  ListPushConfigs: { summary: 'A2A ListTaskPushNotificationConfigs (not offered)', answers: { '400': 'PushNotificationNotSupported' } },
  GetPushConfig: { summary: 'A2A GetTaskPushNotificationConfig (not offered)', answers: { '400': 'PushNotificationNotSupported' } },
  DeletePushConfig: { summary: 'A2A DeleteTaskPushNotificationConfig (not offered)', answers: { '400': 'PushNotificationNotSupported' } },
};

function a2aOperation(route: RouteDef) {
  const name = route.id.replace(/^(AgentA2a|A2a)/, '');
  const known = A2A_OPERATIONS[name];
  if (!known) throw new Error(`agent OpenAPI: no A2A operation ${route.id}`);
  const perAgent = route.path.includes('{agent}');
  const answers: Record<string, string> = {
    '400': ['VersionNotSupported (A2A-Version is not 1.0)', known.answers['400']].filter(Boolean).join('; or '),
    ...(perAgent || known.answers['404'] ? { '404': [known.answers['404'], perAgent ? 'unknown or unpublished agent' : undefined].filter(Boolean).join('; or ') } : {}),
    '500': 'Internal error',
  };
  if (known.answers['200']) answers['200'] = known.answers['200'];
  const pageSize = { name: 'pageSize', in: 'query', required: false, description: 'Page size (1 to 100; out of range is brought into range)', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } };
  return {
    operationId: route.operationId,
    summary: known.summary,
    parameters: [...a2aPathParameters(route), a2aVersionParameter(), ...(name === 'ListTasks' ? [pageSize] : [])],
    ...(route.method === 'POST' ? { requestBody: { required: false, content: { [A2A_CONTENT_TYPE]: { schema: { type: 'object' } }, 'application/json': { schema: { type: 'object' } } } } } : {}),
    responses: Object.fromEntries(Object.entries(answers).sort(([a], [b]) => a.localeCompare(b)).map(([status, text]) => [status, a2aResponse(text)])),
  };
}

// ---- Workspaces and prepaid credit (docs/decisions/0013) ----

const bearer = [{ [WORKSPACE_KEY]: [] }];
const unauthorized = (what: string) => errorResponse(`${what}: the Authorization bearer is missing, malformed or names no workspace (invalid_token)`, WWW_AUTHENTICATE);

function workspaceOperation(route: RouteDef) {
  const ok = (description: string, schema: Record<string, unknown>) => ({ description, content: { 'application/json': { schema } } });
  const common = { operationId: route.operationId, summary: route.summary ?? route.id };
  const unavailable = errorResponse('A dependency is unavailable', RETRY_AFTER);
  const internal = errorResponse('Internal error');
  switch (route.id) {
    case 'CreateWorkspace':
      return {
        ...common,
        description: 'Free. The key (a UUID) is shown this once; only its hash is kept. Rate-limited per client address.',
        responses: {
          '201': ok('The new workspace (no credit yet)', { type: 'object', required: ['workspaceKey'], properties: { workspaceKey: { type: 'string', format: 'uuid' } } }),
          '429': errorResponse('Too many workspaces created from this address in the window (rate_limited)', RETRY_AFTER),
          '500': internal,
          '503': unavailable,
        },
      };
    case 'GatewayBalance':
      return {
        ...common,
        security: bearer,
        responses: {
          '200': ok("The workspace's credit, in USDC", { type: 'object', required: ['credits'], properties: { credits: { type: 'number' } } }),
          '401': unauthorized('Not a workspace key'),
          '500': internal,
          '503': unavailable,
        },
      };
    case 'GatewayLedger':
      return {
        ...common,
        security: bearer,
        parameters: [
          { name: 'limit', in: 'query', required: false, description: 'Entries per page', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
          { name: 'cursor', in: 'query', required: false, description: 'The `nextCursor` of the previous page', schema: { type: 'string' } },
        ],
        responses: {
          '200': ok('One page of the ledger, newest first', {
            type: 'object',
            required: ['entries', 'nextCursor'],
            properties: {
              entries: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['entryId', 'type', 'credits', 'status', 'at'],
                  properties: {
                    entryId: { type: 'string' },
                    type: { type: 'string', description: '`topup`, `debit` or `credit-back`' },
                    credits: { type: 'number', description: 'Signed USDC (a debit is negative)' },
                    status: { type: 'string', enum: ['credited', 'pending', 'applied'] },
                    at: { type: 'string' },
                    transaction: { type: 'string' },
                    payer: { type: 'string' },
                    tier: { type: 'integer' },
                    runId: { type: 'string' },
                    agent: { type: 'string' },
                    reason: { type: 'string' },
                  },
                },
              },
              nextCursor: { type: ['string', 'null'] },
            },
          }),
          '400': errorResponse('`limit` or `cursor` is invalid (invalid_request)'),
          '401': unauthorized('Not a workspace key'),
          '500': internal,
          '503': unavailable,
        },
      };
    default:
      throw new Error(`agent OpenAPI: no workspace operation ${route.id}`);
  }
}

function topUpOperation(route: RouteDef) {
  const tiers = Object.keys(TOPUP_TIERS).map(Number);
  return {
    operationId: route.operationId,
    summary: route.summary ?? route.id,
    description: 'Order: bearer (401) before the tier (400) before the payment (402): a client needs a key to see the terms.',
    security: bearer,
    parameters: [
      { name: 'tier', in: 'query', required: false, description: 'USDC of credit to buy', schema: { type: 'integer', enum: tiers, default: DEFAULT_TOPUP_TIER } },
      ...paymentParameters(),
      {
        name: 'X-Idempotency-Key',
        in: 'header',
        required: false,
        description: 'Up to 200 characters, per workspace and payer (or the payment identifier in the payload): a retried top-up answers the first 200 and credits once',
        schema: { type: 'string', maxLength: 200 },
      },
    ],
    responses: {
      '200': {
        description: 'Credited',
        headers: PAYMENT_RESPONSE,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['creditsAdded', 'transaction', 'payer'],
              properties: { creditsAdded: { type: 'number' }, transaction: { type: 'string' }, payer: { type: 'string' } },
            },
          },
        },
      },
      '402': paymentRequired("Payment required: the tier's x402 v2 terms in the body and base64 in PAYMENT-REQUIRED"),
      '400': errorResponse('`tier` is not one of 1, 5, 20 (invalid_request)'),
      '401': unauthorized('Not a workspace key'),
      '409': errorResponse(ERROR_TEXT[409]),
      '429': errorResponse('Unpaid calls over the probe rate limit (rate_limited)', RETRY_AFTER),
      '500': errorResponse('Internal error; nothing was charged'),
      '503': errorResponse('A dependency is unavailable, or the payment is not yet confirmed (settlement_pending)', RETRY_AFTER),
    },
  };
}

// ---- MCP (Streamable HTTP, stateless; docs/decisions/0015) ----

/** The MCP transport's own refusals (Origin, a message it cannot read, Accept, Content-Type) are JSON-RPC error objects. */
const rpcRefusal = (description: string, headers?: Record<string, unknown>) => ({ description, ...(headers ? { headers } : {}), content: { 'application/json': { schema: JSON_RPC_ERROR } } });
const errorOrRpc = (description: string) => ({ description, content: { 'application/json': { schema: { anyOf: [ERROR, JSON_RPC_ERROR] } } } });

function mcpOperation(route: RouteDef) {
  const unauthorizedMcp = unauthorized('An Authorization header was sent but is not a workspace key (absent: no workspace; free tools and listing need none)');
  if (route.method === 'GET') {
    return {
      operationId: route.operationId,
      summary: 'MCP server-to-client stream (not offered: the endpoint is stateless)',
      responses: {
        '401': unauthorizedMcp,
        '403': rpcRefusal('Forbidden: the Origin is not allowed'),
        '405': rpcRefusal('Method not allowed: POST JSON-RPC messages', { Allow: header('`POST`') }),
        '500': errorResponse('Internal error'),
      },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary ?? route.id,
    description:
      'One JSON-RPC message per POST (initialize, tools/list, tools/call, notifications). Send `Accept: application/json, ' +
      'text/event-stream` and `Content-Type: application/json`. Priced tools bill the workspace the bearer names; free tools need no key.',
    security: [{}, ...bearer],
    parameters: [{ name: 'MCP-Protocol-Version', in: 'header', required: false, description: 'Negotiated MCP protocol version', schema: { type: 'string' } }],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['jsonrpc'],
            properties: { jsonrpc: { type: 'string', enum: ['2.0'] }, id: { type: ['string', 'integer'] }, method: { type: 'string' }, params: { type: 'object' } },
          },
        },
      },
    },
    responses: {
      '200': {
        description: 'The JSON-RPC response: a result, or a tool error (`result.isError: true`), or a JSON-RPC error',
        content: {
          'application/json': {
            schema: { type: 'object', required: ['jsonrpc'], properties: { jsonrpc: { type: 'string', enum: ['2.0'] }, id: { type: ['string', 'integer', 'null'] }, result: { type: 'object' }, error: { type: 'object' } } },
          },
        },
      },
      '202': { description: 'A notification (or response) acknowledged; no body' },
      '400': errorOrRpc('The message cannot be read (JSON-RPC parse error or invalid request, unsupported MCP-Protocol-Version)'),
      '401': unauthorizedMcp,
      '403': errorOrRpc('Forbidden: the Origin is not allowed'),
      '406': rpcRefusal('Not acceptable: Accept must name application/json and text/event-stream'),
      '415': rpcRefusal('Unsupported media type: Content-Type must be application/json'),
      '429': errorResponse('Rate limited (rate_limited)', RETRY_AFTER),
      '500': errorResponse('Internal error'),
    },
  };
}

const JWK_SET = {
  type: 'object',
  required: ['keys'],
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kty', 'crv', 'x', 'y', 'kid', 'alg', 'use'],
        properties: { kty: { const: 'EC' }, crv: { const: 'P-256' }, x: { type: 'string' }, y: { type: 'string' }, kid: { type: 'string' }, alg: { const: 'ES256' }, use: { const: 'sig' } },
      },
    },
  },
};

function jwksOperation(route: RouteDef) {
  return {
    operationId: route.operationId,
    summary: route.summary,
    responses: {
      '200': { description: 'The merchant public key set (RFC 7517); a checkout JWT or receipt names its key by `kid`', content: { 'application/json': { schema: JWK_SET } } },
      '500': errorResponse('Internal error'),
      '503': errorResponse('No merchant key is configured (unavailable)', RETRY_AFTER),
    },
  };
}

/**
 * The operation of one API route, by the entry that serves it (its handler decides its answers). A concrete agent's
 * fixed run route has an entry of its own (run-<family>.ts: its bundle carries one engine) that answers as run.ts does.
 */
/** GET /api/runs/{runId} (lambdas/http/agents/get-run.ts): the run by its id. */
function getRunOperation(route: RouteDef) {
  const ended = runResultSchema();
  return {
    operationId: route.operationId,
    summary: route.summary,
    description:
      'A run by its id, which is a capability (whoever holds it can read the run): the id a run answer, or a 503 settlement_pending, named. ' +
      "202 while the run's payment is not confirmed (its result withheld); 200 once the run ended: its answer (with its `transaction` when it was paid), " +
      'or `status: failed` with the `error` when nothing was charged.',
    parameters: [{ name: 'runId', in: 'path', required: true, schema: { type: 'string', pattern: '^run_[A-Za-z0-9-]{1,100}$' } }],
    responses: {
      '200': {
        description: 'The run ended: its answer (`result` null with a `note` for a paid run that never recorded one), or why it failed',
        content: {
          'application/json': {
            schema: {
              oneOf: [
                { ...ended, properties: { ...ended.properties, transaction: { type: 'string' }, note: { type: 'string' } } },
                {
                  type: 'object',
                  required: ['runId', 'status', 'error', 'settled', 'totalCostUsdc'],
                  properties: { runId: { type: 'string' }, status: { type: 'string', enum: ['failed'] }, error: { type: 'string' }, settled: { type: 'boolean', enum: [false] }, totalCostUsdc: { type: 'number', enum: [0] } },
                },
              ],
            },
          },
        },
      },
      '202': {
        description: "The run's payment is not confirmed yet; ask again after Retry-After",
        headers: RETRY_AFTER,
        content: { 'application/json': { schema: { type: 'object', required: ['runId', 'status', 'detail'], properties: { runId: { type: 'string' }, status: { type: 'string', enum: ['pending'] }, detail: { type: 'string' } } } } },
      },
      '404': errorResponse('No run has this id (not_found)'),
      '500': errorResponse('Internal error'),
      '503': errorResponse('A dependency is unavailable (unavailable)', RETRY_AFTER),
    },
  };
}

function operationOf(route: RouteDef) {
  switch (route.entry.replace(/\/run-[a-z-]+\.ts$/, '/run.ts')) {
    case 'lambdas/http/agents/documents.ts':
    case 'lambdas/http/agents/x402-index.ts':
      return getOperation(route);
    case 'lambdas/http/agents/run.ts':
      return runOperation(route, AGENT_LISTINGS.find((a) => a.route === route.id && a.deployment !== null));
    case 'lambdas/http/agents/a2a-send.ts':
      return a2aSendOperation(route);
    case 'lambdas/http/agents/a2a-operations.ts':
      return a2aOperation(route);
    case 'lambdas/http/agents/workspaces.ts':
      return workspaceOperation(route);
    case 'lambdas/http/agents/topup.ts':
      return topUpOperation(route);
    case 'lambdas/http/agents/mcp.ts':
      return mcpOperation(route);
    case 'lambdas/http/agents/jwks.ts':
      return jwksOperation(route);
    case 'lambdas/http/agents/runs.ts':
      if (route.id === 'GetRun') return getRunOperation(route);
      return purchasesOperation(route, 'The agent runs this wallet paid for (their result at each `url`)', {
        '400': errorResponse('A bad `limit` or `cursor` (invalid_request, its `issues`)'),
        '500': errorResponse('Internal error'),
        '503': errorResponse('A dependency is unavailable (unavailable)', RETRY_AFTER),
      });
    default:
      throw new Error(`agent OpenAPI: no operation for ${route.id} (${route.entry})`);
  }
}

export function agentsOpenApi(base: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  // API operations only: the browser playground page has no operationId.
  for (const route of surfaceRoutes(AGENT_STUDIO).filter((r) => r.operationId !== undefined)) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: AGENT_STUDIO.identity.name,
      version: AGENT_STUDIO.identity.version,
      description: `${AGENT_STUDIO.identity.summary} Published agents: ${publishedAgents().map((a) => a.slug).join(', ')}.`,
    },
    servers: [{ url: base }],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['detail', 'code'],
          properties: { detail: { type: 'string' }, code: { type: 'string' }, field: { type: 'string' }, issues: { type: 'array', items: { type: 'object' } }, runId: { type: 'string' }, runUrl: { type: 'string', description: 'settlement_pending: where the run is fetched once it settles (GET /api/runs/{runId})' } },
        },
        JsonRpcError: {
          type: 'object',
          required: ['jsonrpc', 'error'],
          properties: {
            jsonrpc: { type: 'string', enum: ['2.0'] },
            error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } },
            id: { type: ['string', 'integer', 'null'] },
          },
        },
      },
      securitySchemes: {
        [WORKSPACE_KEY]: { type: 'http', scheme: 'bearer', description: 'A workspace key (a UUID) from POST /api/workspaces' },
        SignInWithX: SIGN_IN_SCHEME,
      },
    },
  };
}
