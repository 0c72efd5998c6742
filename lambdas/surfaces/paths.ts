/**
 * The paths the agent run functions read, spelled here once: the route table (routes.ts) builds these routes from
 * them, and a run or A2A send function reads them from this module alone, so its bundle carries neither the route
 * table nor the product catalog it is built from (about 10 KiB of each; the 400 KiB bundle goal, lib/bundling/goals.ts). Every other path
 * is the route table's (routePath). And the matcher of a path against a route's template, which both use.
 */

/** The generic run route and the concrete agents' fixed run routes (their slugs), by route id. */
export const RUN_PATHS = {
  RunAgent: '/api/agents/{agent}/run',
  RunVendorRisk: '/api/agents/vendor-risk-read-q0jjq/run',
  RunBankRec: '/api/agents/bank-rec-discrepancy-finder-bw0tt/run',
  RunExpensePolicy: '/api/agents/expense-policy-check-l8o5i/run',
  RunPoMatch: '/api/agents/po-match-gate-mkgu0/run',
} as const;

export type RunRouteId = keyof typeof RUN_PATHS;

/** The A2A 1.0 HTTP+JSON interface URLs: one per agent and the root's (the agent named in the message metadata). */
export const A2A_BASES = { agent: '/api/agents/{agent}/a2a', root: '/api/a2a' } as const;

/** A2A's message:send under an interface URL. */
export const a2aSendPath = (base: string): string => `${base}/message:send`;

/** The agent studio's OpenAPI document (each agent offer's `docs`). */
export const AGENTS_OPENAPI_PATH = '/openapi.json';

/**
 * Match a concrete path against a route path template; returns path parameters or null. A segment is a literal, or
 * one `{param}` with an optional literal prefix and suffix (`{taskId}:cancel`, as A2A's `tasks/{id}:cancel`); a
 * parameter never matches an empty string, and API Gateway's greedy `{proxy+}` is not used.
 */
export function matchPath(template: string, path: string): Record<string, string> | null {
  const t = template.split('/');
  const p = path.split('/');
  if (t.length !== p.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const param = PARAM_SEGMENT.exec(t[i]);
    if (!param) {
      if (t[i] !== p[i]) return null;
      continue;
    }
    const [, prefix, name, suffix] = param;
    const segment = p[i];
    if (segment.length <= prefix.length + suffix.length || !segment.startsWith(prefix) || !segment.endsWith(suffix)) return null;
    let value: string;
    try {
      value = decodeURIComponent(segment.slice(prefix.length, segment.length - suffix.length));
    } catch {
      return null; // a malformed escape names no resource
    }
    params[name] = value;
  }
  return params;
}

const PARAM_SEGMENT = /^([^{}]*)\{([A-Za-z_][A-Za-z0-9_]*)\}([^{}]*)$/;
