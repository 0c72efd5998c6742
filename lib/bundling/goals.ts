/**
 * Every function the stack deploys, with its bundle's size goal (issues 11 and 22): a document or poll function (a
 * GET route, but for a protocol endpoint's GET) at most 150 KiB minified, any other at most 400 KiB, but for the MCP
 * servers (issue 22 allows them: the official MCP SDK). bench/bundles.ts measures against these goals and
 * test/unit/bundling/function-sizes.test.ts holds them.
 */
import { functionIdOf, ROUTES, SIGN_IN_AUTHORIZER, SWEEPER, WORKFLOW_TASKS, type RouteDef } from '../../lambdas/surfaces/routes.js';
import { RENDER_FUNCTIONS } from '../../lambdas/workflow/render-functions.js';

export const SMALL_KIB = 150;
export const OTHER_KIB = 400;

export interface FunctionBundle {
  id: string;
  entry: string;
  /** KiB, or null where no goal is set (the MCP servers). */
  goal: number | null;
  paid: boolean;
}

/**
 * A GET route that is not the GET side of a protocol endpoint (MCP's GET /api/mcp is the POST route's function), nor
 * a run's reader, which finishes a paid run from its kept input with the agent's engine (ADR 0017): that is a run's
 * work, not a document's.
 */
function isDocumentOrPoll(route: RouteDef): boolean {
  return route.method === 'GET' && route.access !== 'run-read' && !ROUTES.some((other) => other.method === 'POST' && other.entry === route.entry);
}

const isMcpServer = (route: RouteDef) => route.path === '/api/mcp';

/** One per function: routes that share one (their `fn`) share its bundle. */
export function functionBundles(): FunctionBundle[] {
  const routes = ROUTES.filter((r) => functionIdOf(r) === r.id);
  return [
    ...routes.map((r) => ({ id: r.id, entry: r.entry, goal: isMcpServer(r) ? null : isDocumentOrPoll(r) ? SMALL_KIB : OTHER_KIB, paid: r.paid === true })),
    ...[...WORKFLOW_TASKS, ...RENDER_FUNCTIONS, SIGN_IN_AUTHORIZER].map((t) => ({ id: t.id, entry: t.entry, goal: OTHER_KIB, paid: false })),
    { id: SWEEPER.id, entry: SWEEPER.entry, goal: OTHER_KIB, paid: false },
  ];
}
