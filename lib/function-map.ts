/**
 * THE map of route functions, derived from the route table (lambdas/surfaces/routes.ts) by one rule: the routes of a
 * surface that share an entry and a role share one function, unless a route opts out (RouteDef.ownFunction, with its
 * reason). A function serving one route is named after that route; one serving several after what they share, its
 * entry, prefixed by its surface (`lambdas/http/cancel-job.ts` → CancelJob; the agent studio's
 * `lambdas/http/agents/documents.ts` → AgentsDocuments). CloudFormation takes 500 resources per stack and each function
 * costs about six (its role, policy, log group, invoke permission, alarm): a second function for the same code and
 * grants buys nothing (docs/decisions/0012).
 *
 * The stack (lib/surface-api.ts), its monitoring, the bundle goals and the embedded runtime (lib/local/runtime.ts) all
 * name functions through this map; docs/functions.md is written from it and lib/roles.ts (bin/generate-function-map.ts).
 */
import { ROUTES, type RouteDef, type SurfaceId } from '../lambdas/surfaces/routes.js';

/** A route's role (lib/roles.ts ROLES): `paid` for paid routes, else `read`, unless the route names one. */
export type RouteRole = NonNullable<RouteDef['access']>;

export function routeRole(route: RouteDef): RouteRole {
  return route.access ?? (route.paid ? 'paid' : 'read');
}

/** One route function: what it runs, with which role and limits, and every route it serves (table order). */
export interface RouteFunction {
  id: string;
  surface: SurfaceId;
  entry: string;
  role: RouteRole;
  memoryMb: number;
  timeoutSeconds: number;
  routes: RouteDef[];
  /** The products whose machine it starts (its routes' `starts`). */
  starts: string[];
}

/** '' on the generation surface (its construct ids came first), else the surface id in PascalCase (`Agents`). */
export function surfacePrefix(surface: SurfaceId): string {
  return surface === 'generation' ? '' : surface.charAt(0).toUpperCase() + surface.slice(1);
}

/** `lambdas/http/agents/a2a-send.ts` → `A2aSend`. */
function entryName(entry: string): string {
  const base = entry.slice(entry.lastIndexOf('/') + 1).replace(/\.ts$/, '');
  return base
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** The function map of a route table (the stack's: the catalog it is given may add products). */
export function routeFunctions(routes: readonly RouteDef[]): RouteFunction[] {
  const groups = new Map<string, RouteDef[]>();
  for (const route of routes) {
    const key = route.ownFunction ? `own ${route.id}` : `${route.surface} ${route.entry} ${routeRole(route)}`;
    groups.set(key, [...(groups.get(key) ?? []), route]);
  }
  const functions = [...groups.values()].map((served): RouteFunction => {
    const [first] = served;
    const id = served.length === 1 ? first.id : `${surfacePrefix(first.surface)}${entryName(first.entry)}`;
    for (const route of served) {
      if ((route.memoryMb ?? 256) !== (first.memoryMb ?? 256) || (route.timeoutSeconds ?? 10) !== (first.timeoutSeconds ?? 10)) {
        throw new Error(`lib/function-map.ts: ${route.id} and ${first.id} share function ${id} but not its memory and timeout`);
      }
    }
    return {
      id,
      surface: first.surface,
      entry: first.entry,
      role: routeRole(first),
      memoryMb: first.memoryMb ?? 256,
      timeoutSeconds: first.timeoutSeconds ?? 10,
      routes: served,
      starts: [...new Set(served.flatMap((route) => route.starts ?? []))],
    };
  });
  const ids = new Set<string>();
  for (const { id } of functions) {
    if (ids.has(id)) throw new Error(`lib/function-map.ts: two functions are named ${id}; give one route its ownFunction reason or rename it`);
    ids.add(id);
  }
  return functions;
}

/** The real route table's functions. */
export const ROUTE_FUNCTIONS: readonly RouteFunction[] = routeFunctions(ROUTES);

const byRoute = new WeakMap<readonly RouteDef[], Map<string, RouteFunction>>();

/** The function that serves a route of `routes` (default: the real table): the stack's, the embedded runtime's. */
export function functionOf(route: RouteDef, routes: readonly RouteDef[] = ROUTES): RouteFunction {
  let map = byRoute.get(routes);
  if (!map) {
    const functions = routes === ROUTES ? ROUTE_FUNCTIONS : routeFunctions(routes);
    map = new Map(functions.flatMap((fn) => fn.routes.map((r) => [r.id, fn] as const)));
    byRoute.set(routes, map);
  }
  const fn = map.get(route.id);
  if (!fn) throw new Error(`lib/function-map.ts: route ${route.id} is not in the table`);
  return fn;
}

/** The id of the function that serves a route of the real table. */
export function functionIdOf(route: RouteDef): string {
  return functionOf(route).id;
}
