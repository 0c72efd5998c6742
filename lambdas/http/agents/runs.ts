/**
 * The agent studio's runs function (ADR 0012: routes share a function where one each would not fit the stack):
 * `GET /api/runs/{runId}` (lambdas/http/agents/get-run.ts) and `GET /api/purchases` (lambdas/http/agents/purchases.ts,
 * the signed-in wallet's paid runs), told apart by path.
 */
import type { Context } from 'aws-lambda';
import type { HttpEvent } from '../../shared/http.js';
import { routePath } from '../../surfaces/routes.js';
import { handler as getRun } from './get-run.js';
import { handler as purchases } from './purchases.js';

const PURCHASES = routePath('AgentsPurchases');

export const handler = (event: HttpEvent, context: Context) => (event.rawPath === PURCHASES ? purchases : getRun)(event, context);
