/**
 * THE route table. CDK creates one API route per entry (one HTTP API per surface) and one function per surface, entry
 * and role (lib/function-map.ts; docs/functions.md lists them); the local gateway of each surface serves the same entries by importing the same handler exports; the OpenAPI document
 * lists the generation routes. A path is spelled only here, except a product's paid and poll paths, which are the
 * catalog's (lambdas/products/products.ts: the products are data a paid function reads without this table), and the
 * paths in paths.ts (the run routes, the A2A interfaces, the agent studio's OpenAPI), which the run and A2A send
 * functions read without this table;
 * everything else (documents, payment terms) names a route by id. Entry paths are relative to the project root (entry files export `handler`).
 * It lives in lambdas/ because functions read it (paths for documents and offers); lib/ imports it, never the reverse.
 */
import { PRODUCTS, type Product } from '../products/products.js';
import { A2A_BASES, AGENTS_OPENAPI_PATH, a2aSendPath, RUN_PATHS, type RunRouteId } from './paths.js';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';
export type SurfaceId = 'generation' | 'agents';

export interface RouteDef {
  /** Stable id: its API route's construct ids, and the name of a function that serves this route alone. */
  id: string;
  method: HttpMethod;
  /** API Gateway style path, parameters in braces; `{proxy+}` not used. */
  path: string;
  surface: SurfaceId;
  entry: string;
  operationId?: string;
  /** One line for API documents (agent studio). */
  summary?: string;
  /** Paid routes are x402-protected POSTs. */
  paid?: boolean;
  /**
   * What its function may touch and which settings it gets: a role of lib/roles.ts ROLES, where each role's tables,
   * indexes, secrets, state machines and bucket are listed (docs/functions.md prints them). Default: `paid` for paid
   * routes, else `read`.
   */
  access?: 'paid' | 'run' | 'read' | 'run-read' | 'cancel' | 'poll' | 'workspace' | 'topup' | 'credit' | 'merchant-key' | 'offer-signer' | 'purchases' | 'none';
  /**
   * Takes a sign-in-with-x from the paying wallet: the sign-in authorizer runs before it (SIGN_IN_AUTHORIZER) and the
   * route reads its answer (lambdas/sign-in/context.ts); the x402 indexes list these routes.
   */
  signIn?: true;
  /** Lambda timeout in seconds (defaults to 10). */
  timeoutSeconds?: number;
  memoryMb?: number;
  /**
   * The products whose state machine this route's function starts (a `paid` route's own product; the MCP server's
   * token-paid tool buys music): the `paid` role's StartExecution grant is on exactly these machines.
   */
  starts?: readonly string[];
  /**
   * Why this route needs a function of its own although another route of its surface has the same entry and role.
   * Without it the routes of a surface that share an entry and a role share one function (lib/function-map.ts):
   * CloudFormation takes 500 resources per stack (docs/decisions/0012).
   */
  ownFunction?: string;
}

// The two MCP endpoints; each one's GET (405: stateless, no stream) is served by its POST's function.
// Its token-paid tool buys music only (lambdas/protocols/mcp/tools.ts TOKEN_MUSIC_TOOL; its x402 tools answer a payment
// pointer and start nothing).
const MCP: RouteDef = { id: 'Mcp', method: 'POST', path: '/api/mcp', surface: 'generation', entry: 'lambdas/http/mcp.ts', timeoutSeconds: 30, access: 'paid', starts: [PRODUCTS.create_music.id] };
const AGENTS_MCP: RouteDef = {
  id: 'AgentsMcp',
  method: 'POST',
  path: '/api/mcp',
  surface: 'agents',
  entry: 'lambdas/http/agents/mcp.ts',
  operationId: 'postAgentsMcp',
  summary: 'MCP (Streamable HTTP, stateless): one tool per eligible agent; priced calls billed from workspace credit (optional bearer)',
  access: 'credit',
  timeoutSeconds: 30,
  memoryMb: 1024,
};

/** The generation surface's OpenAPI document (each offer's `docs` names it, without reading the route table). */
export const OPENAPI_PATH = '/openapi.json';

/**
 * The cancel route listed first, as the documents (OpenAPI, discovery) have listed them since cancels were added: their
 * order, hence their bytes and ETags, stay.
 */
const FIRST_CANCEL = 'CancelVideo';

/**
 * Each product's paid POST and free poll, in catalog order, then their cancel routes (docs/decisions/0017), which share
 * one function (one entry and role: lib/function-map.ts), FIRST_CANCEL's first. Everything is the product's: paths, route ids (an entry is
 * named after its route id), operationIds.
 */
function productRoutes(products: Readonly<Record<string, Product<string>>>): RouteDef[] {
  const catalog = Object.values(products);
  const cancels = catalog.map((p) => cancelRoute(p.routes.poll.replace(/^Get/, 'Cancel'), `${p.pollPath}/cancel`, `${p.id}_cancel`));
  return [
    ...catalog.flatMap((p): RouteDef[] => [
      { id: p.routes.pay, method: 'POST', path: p.path, surface: 'generation', entry: entryOf(p.routes.pay), operationId: p.id, paid: true, starts: [p.id], timeoutSeconds: 30, memoryMb: 512 },
      { id: p.routes.poll, method: 'GET', path: p.pollPath, surface: 'generation', entry: entryOf(p.routes.poll), operationId: p.pollOperationId, access: 'poll' },
    ]),
    ...cancels.filter((r) => r.id === FIRST_CANCEL),
    ...cancels.filter((r) => r.id !== FIRST_CANCEL),
  ];
}

/** `lambdas/http/create-music.ts` for CreateMusic: a route's own entry is named after its id. */
function entryOf(id: string, dir = 'lambdas/http'): string {
  return `${dir}/${id.replace(/\B(?=[A-Z])/g, '-').toLowerCase()}.ts`;
}

/**
 * The whole table, the generation products' routes taken from `products`: ROUTES is the real catalog's, and the stack
 * builds its APIs from the catalog it is given (lib/paycall-stack.ts PaycallStackProps.products).
 */
export const routeTable = (products: Readonly<Record<string, Product<string>>>): RouteDef[] => [
  ...productRoutes(products),
  {
    // The browser share page a song's `shareUrl` points at; not an API operation (no operationId, not in OpenAPI).
    id: 'SongPage',
    method: 'GET',
    path: '/song/{songId}',
    surface: 'generation',
    entry: 'lambdas/http/song-page.ts',
  },
  // Discovery documents, all generated from the catalog (lambdas/products/catalog.ts).
  // The x402 index publishes the offer-signing key's address (lambdas/payments/offer-receipt.ts).
  ...doc('DiscoveryX402', '/.well-known/x402', 'lambdas/http/discovery-x402.ts', 'offer-signer'),
  ...doc('DiscoveryX402Json', '/.well-known/x402.json', 'lambdas/http/discovery-x402.ts', 'offer-signer'),
  ...doc('OpenApi', OPENAPI_PATH, 'lambdas/http/openapi.ts'),
  ...doc('Catalog', '/api/v1/catalog', 'lambdas/http/catalog.ts'),
  ...doc('Product', '/api/v1/products/{id}', 'lambdas/http/product.ts'),
  ...doc('AgenticCommerce', '/.well-known/agentic-commerce.json', 'lambdas/http/agentic-commerce.ts'),
  // Entries that serve two routes (one function each, ADR 0012): the legacy card path, the full llms text.
  ...doc('AgentCard', '/.well-known/agent-card.json', 'lambdas/http/agent-card.ts'),
  ...doc('AgentCardLegacy', '/.well-known/agent.json', 'lambdas/http/agent-card.ts'),
  ...doc('AiPlugin', '/.well-known/ai-plugin.json', 'lambdas/http/ai-plugin.ts'),
  ...doc('LlmsTxt', '/llms.txt', 'lambdas/http/llms-txt.ts'),
  ...doc('LlmsFullTxt', '/llms-full.txt', 'lambdas/http/llms-txt.ts'),
  // The browser playground: a form from each product's input schema, paid from a wallet (not an API operation).
  ...doc('Playground', '/playground', 'lambdas/http/playground.ts'),
  // MCP (Streamable HTTP, stateless) and the agent card's A2A JSON-RPC interface.
  // MCP's token-paid music tool creates and pays for jobs like a paid route.
  MCP,
  { ...MCP, id: 'McpGet', method: 'GET' },
  { id: 'A2a', method: 'POST', path: '/a2a', surface: 'generation', entry: 'lambdas/http/a2a.ts', access: 'none' },
  // The signed-in wallet's jobs (sign-in-with-x, docs/decisions/0020); the agent studio has its runs' own.
  { id: 'Purchases', method: 'GET', path: '/api/purchases', surface: 'generation', entry: 'lambdas/http/purchases.ts', operationId: 'list_purchases', summary: "The signed-in wallet's jobs, newest first (sign-in-with-x)", access: 'purchases', signIn: true },

  // The agent studio (lambdas/agents/registry.ts is its catalog). Documents are generated from the registry.
  ...agentDoc('AgentsCatalog', '/api/catalog', 'getCatalog', 'Catalog of currently published agents'),
  ...agentDoc('AgentsServices', '/api/services', 'getServices', 'Curated business service feed: schemas, examples, pricing, human review'),
  // Its own entry: it alone reads the offer-signing key (to publish its address), so the other documents carry no signer.
  { id: 'AgentsX402', method: 'GET', path: '/.well-known/x402', surface: 'agents', entry: 'lambdas/http/agents/x402-index.ts', operationId: 'getX402Index', summary: 'x402 discovery index of the priced published agents', access: 'offer-signer' },
  ...agentDoc('AgentsCard', '/.well-known/agent-card.json', 'getRootCard', 'Root capability card'),
  ...agentDoc('AgentCardOf', '/api/agents/{agent}/.well-known/agent-card.json', 'getAgentCard', 'Capability, provider and pricing of one agent'),
  ...agentDoc('AgentX402Of', '/api/agents/{agent}/.well-known/x402', 'getAgentX402', 'Current x402 terms of one agent'),
  ...agentDoc('AgentTemplate', '/api/agents/{agent}/template', 'getAgentTemplate', 'Portable template bundle (flow, run client, README) as a JSON attachment'),
  ...agentDoc('AgentsOpenApi', AGENTS_OPENAPI_PATH, 'getOpenApi', 'This document'),
  { id: 'AgentsPlayground', method: 'GET', path: '/playground', surface: 'agents', entry: 'lambdas/http/agents/playground.ts', access: 'none' },
  agentRun('RunAgent', 'runAgent'),
  // The concrete agents' fixed run routes (their slugs; the registry names each agent's route id).
  agentRun('RunVendorRisk', 'runPublishedAgent_vendor_risk_read_q0jjq'),
  agentRun('RunBankRec', 'runPublishedAgent_bank_rec_discrepancy_finder_bw0tt'),
  agentRun('RunExpensePolicy', 'runPublishedAgent_expense_policy_check_l8o5i'),
  agentRun('RunPoMatch', 'runPublishedAgent_po_match_gate_mkgu0'),
  // A run by its id (a capability, like a poll id): a run whose paying answer was lost is fetched here (docs/decisions/0017).
  { id: 'GetRun', method: 'GET', path: '/api/runs/{runId}', surface: 'agents', entry: 'lambdas/http/agents/runs.ts', operationId: 'getRun', summary: 'A run by its id: 202 while its payment is pending, its answer once it ended', access: 'run-read' },
  // The signed-in wallet's paid runs (sign-in-with-x, docs/decisions/0020): the runs entry's function, which already reads
  // the runs (ADR 0012: the stack is near CloudFormation's 500 resources).
  { id: 'AgentsPurchases', method: 'GET', path: '/api/purchases', surface: 'agents', entry: 'lambdas/http/agents/runs.ts', operationId: 'listAgentPurchases', summary: "The signed-in wallet's paid runs, newest first (sign-in-with-x)", access: 'run-read', signIn: true },

  // A2A 1.0 over HTTP+JSON, per agent (`/api/agents/{agent}/a2a`) and at the root (`/api/a2a`, the agent named in the
  // message metadata). The card GETs are the agents' cards (the documents entry); message:send runs the agent as
  // the run route does; every other operation is answered by one function that holds no state (no tasks are kept).
  { id: 'AgentA2aCard', method: 'GET', path: A2A_BASES.agent, surface: 'agents', entry: 'lambdas/http/agents/documents.ts', operationId: 'getAgentA2aCard', summary: 'A2A 1.0 AgentCard of one agent', access: 'none' },
  { id: 'A2aCard', method: 'GET', path: A2A_BASES.root, surface: 'agents', entry: 'lambdas/http/agents/documents.ts', operationId: 'getRootA2aCard', summary: 'Aggregate A2A 1.0 AgentCard (root HTTP+JSON interface)', access: 'none' },
  // Where an A2A client given the root interface URL (`…/api/a2a`) looks for its card: `.well-known/agent-card.json`
  // resolved against that URL. The same card.
  { id: 'A2aCardBeside', method: 'GET', path: '/api/.well-known/agent-card.json', surface: 'agents', entry: 'lambdas/http/agents/documents.ts', operationId: 'getRootA2aCardBeside', summary: 'Aggregate A2A 1.0 AgentCard, where A2A clients given /api/a2a look for it', access: 'none' },
  a2aSend('AgentA2aSend', A2A_BASES.agent, 'sendAgentA2aMessage'),
  a2aSend('A2aSend', A2A_BASES.root, 'sendRootA2aMessage'),
  ...a2aOperations('AgentA2a', A2A_BASES.agent, 'Agent'),
  ...a2aOperations('A2a', A2A_BASES.root, 'Root'),

  // Workspaces and prepaid credit (docs/decisions/0013): the three free routes share one entry, hence one function (ADR 0012).
  workspaceRoute('CreateWorkspace', 'POST', '/api/workspaces', 'Create a workspace: its key, shown once', 'createWorkspace'),
  workspaceRoute('GatewayBalance', 'GET', '/api/gateway/balance', "The workspace's credit (bearer)", 'getWorkspaceBalance'),
  workspaceRoute('GatewayLedger', 'GET', '/api/gateway/ledger', "The workspace's credit ledger, newest first (bearer)", 'listWorkspaceLedger'),
  { id: 'GatewayTopUp', method: 'POST', path: '/api/gateway/topup', surface: 'agents', entry: 'lambdas/http/agents/topup.ts', operationId: 'topUpWorkspace', summary: 'Top up workspace credit by 1, 5 or 20 USDC (bearer + x402)', access: 'topup', timeoutSeconds: 30, memoryMb: 512 },

  // AP2 (docs/decisions/0014): the merchant's public key set, which verifies our checkout JWTs and receipts.
  { id: 'AgentsJwks', method: 'GET', path: '/.well-known/jwks.json', surface: 'agents', entry: 'lambdas/http/agents/jwks.ts', operationId: 'getMerchantJwks', summary: 'AP2 merchant public key set (ES256): verifies our checkout JWTs and checkout receipts', access: 'merchant-key' },

  // MCP on the agent studio (docs/decisions/0015): one tool per eligible agent, priced calls billed from workspace credit.
  AGENTS_MCP,
  { ...AGENTS_MCP, id: 'AgentsMcpGet', method: 'GET', operationId: 'getAgentsMcp', summary: undefined },
];

/**
 * Built in a call marked pure: the table's helpers (doc, agentRun, a2aOperations...) are calls, which a bundler must
 * otherwise keep for their possible side effects. Every function imports this module (through surface.ts and the
 * products), and one that reads no route (a poll) drops the table; the documents and the stack still read all of it.
 */
export const ROUTES: RouteDef[] = /* @__PURE__ */ routeTable(PRODUCTS);

function cancelRoute(id: string, path: string, operationId: string): RouteDef {
  return { id, method: 'POST', path, surface: 'generation', entry: 'lambdas/http/cancel-job.ts', operationId, summary: 'Cancel a queued job with its cancel token (bearer) or a sign-in from the paying wallet: failed "canceled", refunded', access: 'cancel', signIn: true };
}

function workspaceRoute(id: string, method: HttpMethod, path: string, summary: string, operationId: string): RouteDef {
  return { id, method, path, surface: 'agents', entry: 'lambdas/http/agents/workspaces.ts', operationId, summary, access: 'workspace' };
}

function a2aSend(id: string, base: string, operationId: string): RouteDef {
  return { id, method: 'POST', path: a2aSendPath(base), surface: 'agents', entry: 'lambdas/http/agents/a2a-send.ts', operationId, access: 'run', timeoutSeconds: 30, memoryMb: 1024 };
}

/**
 * The A2A operations this interface does not offer, under one interface URL (A2A 1.0 HTTP+JSON paths): streaming,
 * tasks, push configs and the extended card. `{taskId}:cancel` and `{taskId}:subscribe` share API Gateway's
 * `{taskId}` route with the task get (lib/surface-api.ts registers a shared route key once). Operation ids name the
 * interface (`Agent` or `Root`): `<verb><Agent|Root>A2a<noun>`.
 */
function a2aOperations(prefix: string, base: string, interfaceName: 'Agent' | 'Root'): RouteDef[] {
  const op = (name: string, method: HttpMethod, path: string, verb: string, noun: string): RouteDef => ({
    id: `${prefix}${name}`,
    method,
    path: `${base}${path}`,
    surface: 'agents',
    entry: 'lambdas/http/agents/a2a-operations.ts',
    operationId: `${verb}${interfaceName}A2a${noun}`,
    access: 'none',
  });
  return [
    op('Stream', 'POST', '/message:stream', 'stream', 'Message'),
    op('ExtendedCard', 'GET', '/extendedAgentCard', 'get', 'ExtendedCard'),
    op('ListTasks', 'GET', '/tasks', 'list', 'Tasks'),
    op('GetTask', 'GET', '/tasks/{taskId}', 'get', 'Task'),
    op('CancelTask', 'POST', '/tasks/{taskId}:cancel', 'cancel', 'Task'),
    op('SubscribePost', 'POST', '/tasks/{taskId}:subscribe', 'subscribe', 'Task'),
    op('SubscribeGet', 'GET', '/tasks/{taskId}:subscribe', 'subscribe', 'TaskByGet'),
    op('CreatePushConfig', 'POST', '/tasks/{taskId}/pushNotificationConfigs', 'create', 'PushConfig'),
    op('ListPushConfigs', 'GET', '/tasks/{taskId}/pushNotificationConfigs', 'list', 'PushConfigs'),
    op('GetPushConfig', 'GET', '/tasks/{taskId}/pushNotificationConfigs/{configId}', 'get', 'PushConfig'),
    op('DeletePushConfig', 'DELETE', '/tasks/{taskId}/pushNotificationConfigs/{configId}', 'delete', 'PushConfig'),
  ];
}

function agentDoc(id: string, path: string, operationId: string, summary: string): RouteDef[] {
  return [{ id, method: 'GET', path, surface: 'agents', entry: 'lambdas/http/agents/documents.ts', operationId, summary, access: 'none' }];
}

function agentRun(id: RunRouteId, operationId: string): RouteDef {
  // A concrete agent's fixed route (RunVendorRisk) has its own entry (run-vendor-risk.ts), built from its agent's
  // family alone so that its bundle carries one engine; the generic route's (run.ts) runs every agent.
  const entry = id === 'RunAgent' ? 'lambdas/http/agents/run.ts' : entryOf(id, 'lambdas/http/agents');
  return { id, method: 'POST', path: RUN_PATHS[id], surface: 'agents', entry, operationId, access: 'run', timeoutSeconds: 30, memoryMb: 1024 };
}

function doc(id: string, path: string, entry: string, access: RouteDef['access'] = 'none'): RouteDef[] {
  return [{ id, method: 'GET', path, surface: 'generation', entry, access }];
}

/** What a workflow function is built from: its entry (exporting `handler`), Lambda timeout and memory. */
export interface TaskFunctionDef {
  id: string;
  entry: string;
  timeoutSeconds: number;
  memoryMb: number;
}

/**
 * Step Functions task handlers, shared by the three product state machines. The state names in the machine
 * are the `stateName`s here; the local runner maps each Lambda task to the handler of the same entry.
 */
export interface WorkflowTaskDef extends TaskFunctionDef {
  stateName: string;
}

export const WORKFLOW_TASKS: WorkflowTaskDef[] = [
  { id: 'StoreAsset', stateName: 'Store asset', entry: 'lambdas/workflow/store-asset.ts', timeoutSeconds: 120, memoryMb: 1024 },
  { id: 'MarkCompleted', stateName: 'Mark completed', entry: 'lambdas/workflow/mark-completed.ts', timeoutSeconds: 10, memoryMb: 256 },
  { id: 'MarkFailed', stateName: 'Mark failed', entry: 'lambdas/workflow/mark-failed.ts', timeoutSeconds: 10, memoryMb: 256 },
  // A failed paid job's money back to its payer (lambdas/jobs/refund.ts); waits for the refund's receipt.
  { id: 'RefundPayment', stateName: 'Refund payment', entry: 'lambdas/workflow/refund-payment.ts', timeoutSeconds: 90, memoryMb: 512 },
  // A job's webhook, one attempt per invocation (lambdas/webhooks/deliver.ts), run by the webhook machine
  // (lib/webhook-workflow.ts), not the products': a POST of at most 10 s and two DynamoDB calls.
  { id: 'DeliverWebhook', stateName: 'Deliver webhook', entry: 'lambdas/workflow/deliver-webhook.ts', timeoutSeconds: 30, memoryMb: 256 },
];

/**
 * The sign-in authorizer (docs/decisions/0020, lambdas/http/sign-in-authorizer.ts): API Gateway's Lambda authorizer in front of
 * every `signIn` route of both APIs (lib/surface-api.ts), the one function that checks a sign-in-with-x.
 */
export const SIGN_IN_AUTHORIZER: TaskFunctionDef = { id: 'SignInAuthorizer', entry: 'lambdas/http/sign-in-authorizer.ts', timeoutSeconds: 10, memoryMb: 256 };

/** Scheduled sweeper: restarts durable jobs whose execution never started, fails jobs stuck past their deadline. */
export const SWEEPER = { id: 'JobSweeper', entry: 'lambdas/workflow/sweep.ts', timeoutSeconds: 60, memoryMb: 256, everyMinutes: 1 };

/** Path of a route by id: documents and payment terms point at routes, they do not spell paths twice. */
export function routePath(id: string): string {
  const route = ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`route ${id} is not in lambdas/surfaces/routes.ts`);
  return route.path;
}
