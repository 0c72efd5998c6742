/**
 * THE table of what each function role may do: the tables and the item actions on each, the indexes it queries, the
 * secrets it reads, the state machines it starts, stops or asks about, and the bucket. lib/role-binder.ts turns an
 * entry into the function's grants AND the environment variables that name what it was granted (a secret's name, the
 * webhook machine's ARN...), in one call; test/infra/function-roles.test.ts holds every synthesised policy equal to its
 * entry, no more, no less; docs/functions.md prints it (bin/generate-function-map.ts).
 *
 * Every route function has a route role (lib/function-map.ts). The sweeper, the sign-in authorizer and the workflow
 * tasks have a role of their own here too. The render functions (lambdas/workflow/render-functions.ts) alone keep their
 * own grants (lib/paycall-stack.ts workflows): each gets its provider's key, settings and AWS statements
 * (lib/render-providers.ts), which no table row can name in advance; RENDER_GRANTS says what they share.
 *
 * Item actions are those of each store module (lib/grants.ts STORE_ACTIONS), or the subset a role uses; no role
 * gets Scan or a wildcard index.
 */
import { BUYER_JOBS_INDEX, OPEN_JOBS_INDEX, OPEN_REFUNDS_INDEX, OPEN_WEBHOOKS_INDEX } from '../lambdas/store/jobs.js';
import { BUYER_RUNS_INDEX, OPEN_RUNS_INDEX } from '../lambdas/store/runs.js';
import { LEDGER_BY_TIME_INDEX, OPEN_TOPUPS_INDEX } from '../lambdas/store/credits.js';
import { STORE_ACTIONS, type ItemAction } from './grants.js';
import type { RouteRole } from './function-map.js';
import type { Tables } from './storage.js';

export type TableName = keyof Tables;

/**
 * The operator's secrets a role may read. `cancellingVendorKeys`: the API key (and settings) of every render provider
 * whose queue takes cancellations, whichever product it is sold with now. `preconfRpcUrl`: the preconfirmation
 * endpoint (ADR 0021), its URL or its secret. `rpcUrl`: the RPC URL's secret, when the URL is kept in one.
 */
export type SecretName = 'settlerKey' | 'tokenSellerKey' | 'refundKey' | 'serviceKey' | 'offerSigningKey' | 'ap2MerchantKey' | 'rpcUrl' | 'preconfRpcUrl' | 'cancellingVendorKeys';

export interface RoleGrants {
  /** What a function of this role does, in one line. */
  summary: string;
  /** Item actions on each table itself, and Query on exactly these indexes. */
  tables?: Partial<Record<TableName, { actions: readonly ItemAction[]; indexes?: readonly string[] }>>;
  secrets?: readonly SecretName[];
  /** StartExecution: `own` = the machines of the products its routes start (RouteDef.starts), `all` = every product's. */
  start?: 'own' | 'all';
  /** StopExecution / DescribeExecution of any product's executions. */
  stop?: 'all';
  describe?: 'all';
  /** StartExecution of the webhook delivery machine, and its ARN (it ends jobs: docs/decisions/0018). */
  webhooks?: true;
  /** The asset bucket's objects (read: also ListBucket, so a missing key is a 404). */
  bucket?: { read?: true; write?: true };
  /** InvokeModel on the configured reasoning model (lib/agent-reasoning.ts), and its settings, when configured. */
  reasoning?: true;
  /** The AP2 issuers whose mandates it trusts (a setting, no grant; an empty key set when none is configured). */
  ap2Issuers?: true;
}

/**
 * The roles of the functions that serve no route, each named by its function's id: the sweeper (SWEEPER), the sign-in
 * authorizer (SIGN_IN_AUTHORIZER) and each workflow task (WORKFLOW_TASKS); test/infra/function-roles.test.ts holds
 * the names equal.
 */
export type OtherRole = 'JobSweeper' | 'SignInAuthorizer' | 'StoreAsset' | 'MarkCompleted' | 'MarkFailed' | 'RefundPayment' | 'DeliverWebhook';
export type FunctionRole = RouteRole | OtherRole;

const PAYMENT_TABLES = {
  payments: { actions: STORE_ACTIONS.payments },
  idempotency: { actions: STORE_ACTIONS.idempotency },
  rateLimit: { actions: STORE_ACTIONS.rateLimit },
  settlerLeases: { actions: STORE_ACTIONS.settlerLeases },
} as const;

/** Every task reads its job and moves it by conditional updates (never creates one). */
const TASK_JOBS = { jobs: { actions: ['GetItem', 'UpdateItem'] } } as const;

export const ROUTE_ROLES: Record<RouteRole, RoleGrants> = {
  paid: {
    summary: 'An x402 purchase of a job: reserves it, settles the payment (or charges an agent-payment token), starts its product\'s machine; its 202 carries the cancel token, its 402s signed offers',
    tables: { jobs: { actions: STORE_ACTIONS.jobs }, ...PAYMENT_TABLES },
    secrets: ['settlerKey', 'tokenSellerKey', 'rpcUrl', 'serviceKey', 'offerSigningKey', 'preconfRpcUrl'],
    start: 'own',
  },
  run: {
    summary: 'A paid agent run (x402 or an AP2 mandate): records the run, settles, signs checkouts and receipts; no jobs, no executions',
    tables: { runs: { actions: STORE_ACTIONS.runs }, ...PAYMENT_TABLES },
    secrets: ['settlerKey', 'rpcUrl', 'offerSigningKey', 'ap2MerchantKey'],
    reasoning: true,
    ap2Issuers: true,
  },
  poll: {
    summary: 'Reads a job; a reserved one is reconciled first (lambdas/workflow/poll-reconcile.ts): claimed, its receipt recorded or the job voided, its execution started',
    tables: { jobs: { actions: ['GetItem', 'UpdateItem'] }, payments: { actions: ['GetItem', 'UpdateItem', 'DeleteItem'] } },
    secrets: ['rpcUrl'],
    start: 'all',
  },
  cancel: {
    summary: "Cancels a queued job: fails it, stops its execution (any product's), checks the token, starts its webhook, cancels it at a provider whose queue takes cancellations",
    tables: { jobs: { actions: ['GetItem', 'UpdateItem'] } },
    secrets: ['serviceKey', 'cancellingVendorKeys'],
    stop: 'all',
    webhooks: true,
    bucket: { read: true },
  },
  read: { summary: 'Reads a job (the song page)', tables: { jobs: { actions: ['GetItem'] } } },
  purchases: { summary: "The signed-in wallet's jobs (their ByBuyer index)", tables: { jobs: { actions: [], indexes: [BUYER_JOBS_INDEX] } } },
  'run-read': {
    summary: 'Reads a run; finishes a paid run the sweeper found paid from its kept input, then drops the input; lists a wallet\'s runs',
    tables: { runs: { actions: ['GetItem', 'UpdateItem', 'DeleteItem'], indexes: [BUYER_RUNS_INDEX] } },
  },
  workspace: {
    summary: 'Creates a workspace, finds one by its key hash, reads its ledger newest first',
    tables: { workspaces: { actions: ['PutItem', 'GetItem'] }, creditLedger: { actions: [], indexes: [LEDGER_BY_TIME_INDEX] }, rateLimit: { actions: STORE_ACTIONS.rateLimit } },
  },
  topup: {
    summary: 'A top-up: an x402 purchase whose item is a ledger entry (reserved, credited or voided) and a balance increment',
    tables: { workspaces: { actions: ['GetItem', 'UpdateItem'] }, creditLedger: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] }, ...PAYMENT_TABLES },
    secrets: ['settlerKey', 'rpcUrl', 'offerSigningKey'],
  },
  credit: {
    summary: "A credit-billed call (MCP): the bearer's workspace, one transaction of its debit entry, balance and finished run",
    tables: { workspaces: { actions: ['GetItem', 'UpdateItem'] }, creditLedger: { actions: ['PutItem', 'GetItem'] }, runs: { actions: ['PutItem'] } },
    reasoning: true,
  },
  'offer-signer': { summary: "Publishes the offer-signing key's address (the x402 indexes)", secrets: ['offerSigningKey'] },
  'merchant-key': { summary: "Publishes the AP2 merchant's public key set", secrets: ['ap2MerchantKey'] },
  none: { summary: 'Answers from code and configuration alone (documents, A2A operations that hold no state)' },
};

/** The functions that serve no route: the sweeper, the sign-in authorizer and the workflow tasks. */
export const OTHER_ROLES: Record<OtherRole, RoleGrants> = {
  JobSweeper: {
    summary: 'Every minute: restarts jobs whose execution never started, reconciles reserved jobs, open paid runs and unsettled top-ups, retries owed refunds and undelivered webhooks, fails jobs past their deadline',
    tables: {
      jobs: { actions: ['GetItem', 'UpdateItem'], indexes: [OPEN_JOBS_INDEX, OPEN_REFUNDS_INDEX, OPEN_WEBHOOKS_INDEX] },
      payments: { actions: STORE_ACTIONS.payments },
      settlerLeases: { actions: STORE_ACTIONS.settlerLeases },
      runs: { actions: ['GetItem', 'UpdateItem', 'DeleteItem'], indexes: [OPEN_RUNS_INDEX] },
      creditLedger: { actions: ['GetItem', 'UpdateItem', 'DeleteItem'], indexes: [OPEN_TOPUPS_INDEX] },
      workspaces: { actions: ['GetItem', 'UpdateItem'] },
    },
    secrets: ['refundKey', 'settlerKey', 'rpcUrl'],
    start: 'all',
    describe: 'all',
    webhooks: true,
  },
  SignInAuthorizer: {
    summary: 'Checks a sign-in-with-x and uses its nonce once (a conditional PutItem)',
    tables: { idempotency: { actions: ['PutItem'] } },
  },
  StoreAsset: { summary: 'Copies a render\'s outputs into place (a copy is a Get and a Put; nothing is deleted)', tables: TASK_JOBS, bucket: { read: true, write: true } },
  MarkCompleted: {
    summary: 'Completes a job, once a preconfirmed payment\'s transfer is in a sealed block; starts its webhook',
    tables: TASK_JOBS,
    secrets: ['rpcUrl'],
    webhooks: true,
  },
  MarkFailed: { summary: 'Fails a job; starts its webhook', tables: TASK_JOBS, webhooks: true },
  RefundPayment: {
    summary: "A failed paid job's money back to its payer, signed by the refund wallet and settled through the settler's keys",
    tables: { ...TASK_JOBS, settlerLeases: { actions: STORE_ACTIONS.settlerLeases } },
    secrets: ['refundKey', 'settlerKey', 'rpcUrl'],
  },
  DeliverWebhook: { summary: "One delivery attempt of a job's webhook, signed with the job's secret (from the service key)", tables: TASK_JOBS, secrets: ['serviceKey'] },
};

export const ROLES: Record<FunctionRole, RoleGrants> = { ...ROUTE_ROLES, ...OTHER_ROLES };

/** The role of a function that serves no route, by its id (the sweeper, the authorizer, a workflow task). */
export function otherRole(functionId: string): OtherRole {
  if (!(functionId in OTHER_ROLES)) throw new Error(`lib/roles.ts: function ${functionId} has no role in OTHER_ROLES`);
  return functionId as OtherRole;
}

/**
 * What every render function gets besides its provider's own grants (lib/paycall-stack.ts workflows): its job, and
 * the bucket where it writes outputs, manifests and vendor records, read back by the check.
 */
export const RENDER_GRANTS: RoleGrants = {
  summary: "Starts and checks a render at its provider; also the provider's key, settings and AWS statements (lib/render-providers.ts)",
  tables: TASK_JOBS,
  bucket: { read: true, write: true },
};
