import { describe, expect, it } from 'vitest';
import { matchPath } from '../../../lambdas/surfaces/paths.js';
import { ROUTES, routePath } from '../../../lambdas/surfaces/routes.js';
import { AGENT_STUDIO, GENERATION, servedSurfaces, SURFACES, surfaceRoutes } from '../../../lambdas/surfaces/surface.js';
import { gatewayPath } from '../../../lib/surface-api.js';
import { PRODUCT_IDS, PRODUCTS } from '../../../lambdas/products/catalog.js';

describe('Route matcher', () => {
  it('matches literal segments and whole-segment parameters, decoding them', () => {
    expect(matchPath('/agent/image/{jobId}', '/agent/image/abc%20d')).toEqual({ jobId: 'abc d' });
    expect(matchPath('/agent/image/{jobId}', '/agent/video/abc')).toBeNull();
    expect(matchPath('/agent/image/{jobId}', '/agent/image/')).toBeNull();
    expect(matchPath('/agent/image/{jobId}', '/agent/image/a/b')).toBeNull();
  });

  it("expresses A2A's {param}:suffix segment (tasks/{taskId}:cancel) without swallowing the suffix", () => {
    const cancel = '/api/agents/{agent}/a2a/tasks/{taskId}:cancel';
    expect(matchPath(cancel, '/api/agents/bank/a2a/tasks/t-1:cancel')).toEqual({ agent: 'bank', taskId: 't-1' });
    expect(matchPath(cancel, '/api/agents/bank/a2a/tasks/t-1')).toBeNull();
    expect(matchPath(cancel, '/api/agents/bank/a2a/tasks/:cancel')).toBeNull(); // the parameter is never empty
    expect(matchPath('/api/agents/{agent}/a2a/tasks/{taskId}', '/api/agents/bank/a2a/tasks/t-1:cancel')).toEqual({
      agent: 'bank',
      taskId: 't-1:cancel',
    });
    expect(matchPath('/message:send', '/message:send')).toEqual({});
    expect(matchPath('/v{n}.json', '/v2.json')).toEqual({ n: '2' });
  });

  it('refuses a malformed escape instead of throwing', () => {
    expect(matchPath('/agent/image/{jobId}', '/agent/image/%E0%A4%A')).toBeNull();
  });

  it('registers {param}:suffix templates on API Gateway as whole-segment parameters', () => {
    expect(gatewayPath('/api/agents/{agent}/a2a/tasks/{taskId}:cancel')).toBe('/api/agents/{agent}/a2a/tasks/{taskId}');
    expect(gatewayPath('/agent/image/{jobId}')).toBe('/agent/image/{jobId}');
    expect(gatewayPath('/message:send')).toBe('/message:send');
  });
});

describe('A path lives in one place: the route table', () => {
  it("every product's paid and poll paths are its routes' paths", () => {
    for (const id of PRODUCT_IDS) {
      const p = PRODUCTS[id];
      expect(p.path).toBe(routePath(p.routes.pay));
      expect(p.pollPath).toBe(routePath(p.routes.poll));
      expect(ROUTES.find((r) => r.id === p.routes.pay)).toMatchObject({ method: 'POST', paid: true, surface: 'generation' });
      expect(ROUTES.find((r) => r.id === p.routes.poll)).toMatchObject({ method: 'GET' });
    }
  });

  it('route ids are unique, and no two routes of a surface share a method and path', () => {
    expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
    const keys = ROUTES.map((r) => `${r.surface} ${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('Surfaces as definitions', () => {
  it('the generation surface: version 1 checked and set, PUBLIC_BASE_URL, port 3000, its identity', () => {
    expect(GENERATION).toMatchObject({
      id: 'generation',
      version: { header: 'Service-API-Version', current: '1' },
      baseUrlEnv: 'PUBLIC_BASE_URL',
      port: { env: 'GENERATION_PORT', default: 3000 },
      urlKey: 'baseUrl',
    });
    expect(GENERATION.identity.name).toBe('Paycall generation API');
  });

  it('the agent studio is served (AGENTS_PORT 3001, agentsUrl) with its documents and run routes', () => {
    expect(AGENT_STUDIO).toMatchObject({ id: 'agents', version: null, port: { env: 'AGENTS_PORT', default: 3001 }, urlKey: 'agentsUrl' });
    expect(surfaceRoutes(AGENT_STUDIO).map((r) => r.id)).toEqual(expect.arrayContaining(['AgentsCatalog', 'RunAgent', 'RunBankRec', 'AgentsOpenApi']));
    expect(servedSurfaces()).toEqual([GENERATION, AGENT_STUDIO]);
  });

  it('every route belongs to a defined surface, and surfaces do not share a base-URL variable, port or URL key', () => {
    const ids = SURFACES.map((s) => s.id);
    for (const route of ROUTES) expect(ids).toContain(route.surface);
    for (const key of ['baseUrlEnv', 'urlKey'] as const) expect(new Set(SURFACES.map((s) => s[key])).size).toBe(SURFACES.length);
    expect(new Set(SURFACES.map((s) => s.port.default)).size).toBe(SURFACES.length);
  });

  it("each surface's error presenter answers the Error body", () => {
    const answer = GENERATION.presentError(new Error('boom'));
    expect(answer.statusCode).toBe(500);
    expect(JSON.parse(answer.body!)).toMatchObject({ code: 'internal_error' });
  });
});
