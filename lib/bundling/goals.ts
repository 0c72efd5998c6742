/**
 * Every function the stack deploys, with its bundle's size goal, which bounds its cold start where a buyer waits on
 * it (lib/bundling/aliases.ts BundlePath): a document or poll function (a GET route, but for a protocol endpoint's
 * GET) at most 150 KiB minified, any other route and the sign-in authorizer at most 400 KiB, but for the MCP servers
 * (no goal: the official MCP SDK alone is larger) and the two functions that carry every agent engine
 * (EVERY_ENGINE_KIB). The workflow's tasks, the render functions and the sweeper, whose cold start no buyer sees
 * (behind a render of minutes, or on a schedule), bundle their vendor SDKs whole and have only BACKGROUND_KIB.
 * bench/bundles.ts measures against these goals and test/unit/bundling/function-sizes.test.ts holds them.
 */
import { ROUTES, SIGN_IN_AUTHORIZER, SWEEPER, WORKFLOW_TASKS, type RouteDef } from '../../lambdas/surfaces/routes.js';
import { ROUTE_FUNCTIONS } from '../function-map.js';
import { RENDER_FUNCTIONS } from '../../lambdas/workflow/render-functions.js';
import { bundlePathOf, type BundlePath } from './aliases.js';

export const SMALL_KIB = 150;
export const OTHER_KIB = 400;
/**
 * A background function's bundle (a workflow task, a render function, the sweeper): its cold start is no buyer's
 * wait, so it takes its vendor SDK whole (RenderGoogleLyria, `@google/genai` and the Bedrock client for its cover,
 * about 855 KiB; RenderGoogleVeo about 775 KiB). Not a cold-start budget: a bound that shows a background function
 * pulling in something it should not (an agent engine, the MCP SDK) before it deploys.
 */
export const BACKGROUND_KIB = 1024;
/**
 * The two functions that run any agent (the generic run route, by path, and A2A's send, by path or message
 * metadata) carry every family's engine, and each engine carries the document readers a practitioner's forms need
 * (bank and ledger exports in a dozen languages, OFX, QIF, CAMT.052/053/054, MT940, pasted PDF statements, receipts,
 * folios, policy tables, reports, UBL, cXML, X12 810 and EDIFACT as JSON, questionnaires, e-mail headers) and the
 * evidence each finding cites: about 370 KiB minified for the four (RunAgent measured 739 KiB, AgentsA2aSend 743 KiB
 * once the readers took e-invoice formats, BAI2 and other scripts; 929 and 933 KiB once they read policies, claims,
 * orders and statements in the languages of the countries that send them — French, Spanish, Portuguese, Polish,
 * Japanese, Czech, Turkish, Korean, Chinese and more — FatturaPA and CII invoices and local calendars: the four
 * engines are about 600 KiB of it), of which a family's own run function carries one (ONE_ENGINE_KIB).
 * A buyer of these two routes waits for that cold start; loading each engine only when its family runs (code
 * splitting, which the single-file Lambda bundle does not do today) would bring them back under OTHER_KIB. Until
 * then their goal is this, so they cannot grow unnoticed either.
 */
export const EVERY_ENGINE_KIB = 1024;
/**
 * A function that runs one family's engine (a family's own run route) or finishes a paid run with its agent's engine
 * (the runs reader): the engine's readers widened past OTHER_KIB when they learnt the national forms (Facturae, CFDI,
 * Japanese and Indian prints, per-city caps, questionnaires a question a row): RunExpensePolicy measured 432 KiB,
 * then 489 KiB (and the runs reader 521 KiB) once the readers learnt Dutch and Italian policies, Scandinavian and
 * Hebrew orders, two-sided journals and hotel folios' own lines, then 567 KiB (the runs reader 665 KiB) once they
 * learnt the policies and claims of a dozen more languages. Code splitting per family (above) is the way down: the
 * runs reader carries every engine but runs one.
 */
export const ONE_ENGINE_KIB = 720;
const EVERY_ENGINE_ENTRIES = ['lambdas/http/agents/run.ts', 'lambdas/http/agents/a2a-send.ts'];

export interface FunctionBundle {
  id: string;
  entry: string;
  /** KiB, or null where no goal is set (the MCP servers). */
  goal: number | null;
  paid: boolean;
  /** Whether a buyer waits on its cold start, which picks its aliases (lib/bundling/aliases.ts bundleAliases). */
  path: BundlePath;
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

/** One per function: routes that share one (lib/function-map.ts) share its bundle, whose goal is its first route's. */
export function functionBundles(): FunctionBundle[] {
  return [
    ...ROUTE_FUNCTIONS.map(({ id, entry, routes: [r] }) => ({ id, entry, goal: goalOf(r), paid: r.paid === true, path: bundlePathOf('route') })),
    { id: SIGN_IN_AUTHORIZER.id, entry: SIGN_IN_AUTHORIZER.entry, goal: OTHER_KIB, paid: false, path: bundlePathOf('authorizer') },
    // The workflow's tasks and the render functions are CDK's `task` functions (lib/paycall-stack.ts).
    ...[...WORKFLOW_TASKS, ...RENDER_FUNCTIONS].map((t) => ({ id: t.id, entry: t.entry, goal: BACKGROUND_KIB, paid: false, path: bundlePathOf('task') })),
    { id: SWEEPER.id, entry: SWEEPER.entry, goal: BACKGROUND_KIB, paid: false, path: bundlePathOf('sweeper') },
  ];
}

function goalOf(route: RouteDef): number | null {
  if (isMcpServer(route)) return null;
  if (isDocumentOrPoll(route)) return SMALL_KIB;
  if (EVERY_ENGINE_ENTRIES.includes(route.entry)) return EVERY_ENGINE_KIB;
  return route.access === 'run' || route.access === 'run-read' ? ONE_ENGINE_KIB : OTHER_KIB;
}
