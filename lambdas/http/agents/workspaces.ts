/**
 * The workspace routes of the agent studio (one function, docs/decisions/0012 and 0013), told apart by path:
 * - `POST /api/workspaces` → 201 `{ workspaceKey }`: a new workspace with no credit; the key (a random UUID) is shown
 *   this once and only its SHA-256 is stored. Free, rate-limited per client address (WORKSPACE_LIMIT a window).
 * - `GET /api/gateway/balance` (bearer) → 200 `{ credits }` (USDC as a number).
 * - `GET /api/gateway/ledger?limit=&cursor=` (bearer) → 200 `{ entries, nextCursor }`, newest first.
 * A missing, malformed or unknown bearer is a 401 with `WWW-Authenticate: Bearer …` (the presenter's).
 */
import middy from '@middy/core';
import { frame } from '../../middleware/http-frame.js';
import { probeRateLimit } from '../../middleware/rate-limit.js';
import type { HttpMiddleware } from '../../middleware/types.js';
import { RateWindowStore } from '../../store/rate-limit.js';
import { CreditStore, type LedgerEntry } from '../../store/credits.js';
import { hashWorkspaceKey, newWorkspaceKey } from '../../credits/keys.js';
import { checkAtColdStart, storeConfig } from '../../shared/config.js';
import { NotFoundError } from '../../shared/errors.js';
import { pageCursor, pageLimit, readPageCursor } from '../../shared/paging.js';
import { json, type HttpEvent, type HttpResult } from '../../shared/http.js';
import { usdcNumber } from '../../shared/money.js';
import { AGENT_STUDIO } from '../../surfaces/surface.js';
import { routePath } from '../../surfaces/routes.js';
import { workspaceBearer, workspaceOf } from './workspace-auth.js';
import { randomUUID } from 'node:crypto';

/** Workspaces one client address may create per window (free, so bounded). */
export const WORKSPACE_LIMIT = { limit: 10, windowSeconds: 3600, policy: 'workspaces' } as const;

let store: CreditStore | undefined;
const credits = () => (store ??= new CreditStore());

type Operation = 'create' | 'balance' | 'ledger';
function operationOf(event: HttpEvent): Operation | undefined {
  const path = event.rawPath;
  const method = event.requestContext.http.method;
  if (method === 'POST' && path === routePath('CreateWorkspace')) return 'create';
  if (method === 'GET' && path === routePath('GatewayBalance')) return 'balance';
  if (method === 'GET' && path === routePath('GatewayLedger')) return 'ledger';
  return undefined;
}

/**
 * Creating a workspace takes no payment, so every request counts against its limit: a payment header (even one that
 * reads as an x402 payload or a token, which the probe limiter would only peek at) is ignored.
 */
const takesNoPayment: HttpMiddleware = { name: 'takesNoPayment', before: (request) => void (request.internal.paymentHeader = { kind: 'none' }) };

/** Runs `inner` only for the operations named. */
function only(operations: Operation[], inner: HttpMiddleware): HttpMiddleware {
  return {
    name: inner.name,
    before: async (request) => {
      if (operations.includes(operationOf(request.event)!)) await inner.before!(request);
    },
  };
}

export function workspacesEntry() {
  checkAtColdStart(storeConfig);
  return middy<HttpEvent, HttpResult>()
    .use(frame(AGENT_STUDIO))
    .use(only(['create'], takesNoPayment))
    .use(only(['create'], probeRateLimit({ counter: new RateWindowStore(), ...WORKSPACE_LIMIT })))
    .use(only(['balance', 'ledger'], workspaceBearer(credits)))
    .handler(async (event, context) => {
      switch (operationOf(event)) {
        case 'create':
          return create();
        case 'balance':
          return json(200, { credits: usdcNumber(workspaceOf(context).balance) }, { 'Cache-Control': 'no-store' });
        case 'ledger':
          return json(200, await ledgerPage(workspaceOf(context).workspaceId, event.queryStringParameters ?? {}), { 'Cache-Control': 'no-store' });
        default:
          throw new NotFoundError('No such route');
      }
    });
}

async function create(): Promise<HttpResult> {
  const workspaceKey = newWorkspaceKey();
  await credits().createWorkspace(hashWorkspaceKey(workspaceKey), `ws_${randomUUID()}`);
  return json(201, { workspaceKey }, { 'Cache-Control': 'no-store' });
}

/** `limit` (1–100, default 20) and the opaque `cursor` a previous page returned (it must be this workspace's). */
export async function ledgerPage(workspaceId: string, query: Record<string, string | undefined>) {
  const limit = pageLimit(query);
  const after = query.cursor === undefined ? undefined : readPageCursor(query.cursor, ['at', 'entryKey', 'workspaceId'], { name: 'workspaceId', value: workspaceId }, 'this ledger');
  const page = await credits().listEntries(workspaceId, limit, after);
  return { entries: page.entries.map(entryView), nextCursor: pageCursor(page.next) };
}

/** One ledger entry as the ledger route shows it: signed credits, and what ties it to money (a transaction, a run). */
export function entryView(entry: LedgerEntry) {
  const credits = usdcNumber(entry.kind === 'debit' ? -entry.amount : entry.amount);
  return {
    entryId: entry.entryKey,
    type: entry.kind,
    credits,
    status: entry.kind === 'topup' ? (entry.status === 'credited' ? 'credited' : 'pending') : 'applied',
    at: entry.at,
    ...(entry.transaction ? { transaction: entry.transaction } : {}),
    ...(entry.payer ? { payer: entry.payer } : {}),
    ...(entry.tier !== undefined ? { tier: entry.tier } : {}),
    ...(entry.runId ? { runId: entry.runId } : {}),
    ...(entry.agent ? { agent: entry.agent } : {}),
    ...(entry.kind === 'credit-back' && entry.reason ? { reason: entry.reason } : {}),
  };
}

export const handler = workspacesEntry();
