/**
 * The function map's one rule (lib/function-map.ts) and docs/functions.md, which is generated from it and the role
 * table: on a mismatch, run `npx tsx bin/generate-function-map.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/paycall-stack.js';
import { FUNCTION_MAP_DOC, renderFunctionMap } from '../../lib/function-map-doc.js';
import { functionIdOf, ROUTE_FUNCTIONS, routeFunctions, routeRole } from '../../lib/function-map.js';
import { ROUTES, type RouteDef } from '../../lambdas/surfaces/routes.js';

const route = (id: string, more: Partial<RouteDef> = {}): RouteDef => ({ id, method: 'GET', path: `/${id}`, surface: 'agents', entry: 'lambdas/http/agents/documents.ts', access: 'none', ...more });

describe('the function map', () => {
  it('docs/functions.md is what the two tables give now (run `npx tsx bin/generate-function-map.ts` if not)', () => {
    expect(readFileSync(join(PROJECT_ROOT, FUNCTION_MAP_DOC), 'utf8')).toBe(renderFunctionMap());
  });

  it('one function per surface, entry and role: every route is served by exactly one, which shares its entry and role', () => {
    const served = ROUTE_FUNCTIONS.flatMap((fn) => fn.routes.map((r) => r.id));
    expect(served.sort()).toEqual(ROUTES.map((r) => r.id).sort());
    const keys = ROUTE_FUNCTIONS.filter((fn) => !fn.routes.some((r) => r.ownFunction)).map((fn) => `${fn.surface} ${fn.entry} ${fn.role}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const fn of ROUTE_FUNCTIONS) {
      for (const r of fn.routes) expect([r.surface, r.entry, routeRole(r)], r.id).toEqual([fn.surface, fn.entry, fn.role]);
    }
  });

  it('names a function after its route when it serves one, else after its entry and surface', () => {
    const cancels = ROUTES.filter((r) => r.access === 'cancel');
    expect(new Set(cancels.map(functionIdOf))).toEqual(new Set(['CancelJob']));
    expect(functionIdOf(ROUTES.find((r) => r.id === 'AgentsCatalog')!)).toBe('AgentsDocuments');
    expect(functionIdOf(ROUTES.find((r) => r.id === 'AgentsPurchases')!)).toBe('AgentsRuns');
    expect(functionIdOf(ROUTES.find((r) => r.id === 'CreateMusic')!)).toBe('CreateMusic');
    expect(functionIdOf(ROUTES.find((r) => r.id === 'McpGet')!)).toBe('Mcp');
  });

  it('a route that opts out (with its reason) gets a function of its own, named after it', () => {
    const fns = routeFunctions([route('A'), route('B'), route('C', { ownFunction: 'its own alarm' })]);
    expect(fns.map((fn) => [fn.id, fn.routes.map((r) => r.id)])).toEqual([
      ['AgentsDocuments', ['A', 'B']],
      ['C', ['C']],
    ]);
  });

  it('refuses routes that would share a function but not its memory and timeout, or two functions of one name', () => {
    expect(() => routeFunctions([route('A'), route('B', { memoryMb: 1024 })])).toThrow(/share function AgentsDocuments but not its memory and timeout/);
    expect(() => routeFunctions([route('A'), route('B'), route('AgentsDocuments', { entry: 'lambdas/http/agents/other.ts' })])).toThrow(/two functions are named AgentsDocuments/);
  });

  it('a paid function starts the machines of the products its routes name; the MCP server\'s, music', () => {
    const starts = Object.fromEntries(ROUTE_FUNCTIONS.filter((fn) => fn.role === 'paid').map((fn) => [fn.id, fn.starts]));
    expect(starts).toEqual({ CreateMusic: ['create_music'], AgentVideo: ['agent_video'], AgentImage: ['agent_image'], Mcp: ['create_music'] });
  });
});
