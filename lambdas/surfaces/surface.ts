/**
 * The surfaces of the service as definitions. A Surface is what one public HTTP API is: its routes (the route
 * table's slice), where its base URL comes from, its error presenter and version policy (the frame of every entry),
 * and the identity its discovery documents publish. CDK builds one HTTP API per surface from this (lib/surface-api.ts)
 * and the embedded runtime one gateway per surface (lib/local/runtime.ts); an entry file names its surface.
 */
import type { HttpResult } from '../shared/http.js';
import { a2aErrors, agentErrors, generationErrors } from './error-presenters.js';
import { ROUTES, type RouteDef, type SurfaceId } from './routes.js';
import { AGENTS_BASE_URL_ENV, GENERATION_BASE_URL_ENV } from './base-urls.js';

/** What the outer frame of every entry (lambdas/middleware/http-frame.ts) needs of a surface. */
export interface SurfaceFrame {
  /** null: the surface neither checks nor sets a version header. */
  version: { header: string; current: string } | null;
  /** Turns a typed error (lambdas/shared/errors.ts) into the surface's error answer. */
  presentError: (error: unknown, request?: { event: { rawPath?: string } }) => HttpResult;
}

export interface Surface extends SurfaceFrame {
  id: SurfaceId;
  /** Description of its HTTP API. */
  description: string;
  /** The variable that pins its public base URL (else the API's own domain, requestContext.domainName, decides). */
  baseUrlEnv: string;
  /** Its port on the embedded default. */
  port: { env: string; default: number };
  /** The variable under which runtime.json and the stack outputs publish its URL. */
  urlKey: string;
  /** Who sells, as every discovery document of the surface names it. */
  identity: { name: string; provider: string; summary: string; version: string };
}

export const GENERATION: Surface = {
  id: 'generation',
  description: 'Pay-per-call generation surface (x402)',
  baseUrlEnv: GENERATION_BASE_URL_ENV,
  port: { env: 'GENERATION_PORT', default: 3000 },
  urlKey: 'baseUrl',
  version: { header: 'Service-API-Version', current: '1' },
  presentError: generationErrors,
  identity: {
    name: 'Paycall generation API',
    provider: 'Paycall',
    summary:
      'Pay-per-call music, video and image generation. No account and no API key: each paid call is settled in USDC ' +
      'on Base over x402 v2 (scheme exact, EIP-3009), and the payment is the authentication.',
    version: '1.0.0',
  },
};

/**
 * The agent studio. Its version header behaviour is "not shown" in the spec: it neither checks nor sets one. Its
 * routes other than A2A answer the Error body of agentErrors (`detail` + `code`, 400 for an invalid body).
 */
export const AGENT_STUDIO: Surface = {
  id: 'agents',
  description: 'Agent studio: published agents, paid runs (x402)',
  baseUrlEnv: AGENTS_BASE_URL_ENV,
  port: { env: 'AGENTS_PORT', default: 3001 },
  urlKey: 'agentsUrl',
  version: null,
  presentError: agentErrors,
  identity: {
    name: 'Paycall agent studio',
    provider: 'Paycall',
    summary: 'Published agents that do real analysis, run per call and paid in USDC on Base over x402.',
    version: '0.3.0',
  },
};

/**
 * The frame of the agent studio's A2A operations (lambdas/http/agents/a2a-*.ts): the same surface, A2A's error
 * presenter (google.rpc.Status in `application/a2a+json`). Its version rule is A2A's own `A2A-Version`
 * (lambdas/middleware/a2a-version.ts), which the card GETs, not being operations, do not check.
 */
export const AGENTS_A2A: SurfaceFrame = { version: null, presentError: a2aErrors };

export const SURFACES: readonly Surface[] = [GENERATION, AGENT_STUDIO];

export function surfaceRoutes(surface: Surface): RouteDef[] {
  return ROUTES.filter((route) => route.surface === surface.id);
}

/** The surfaces that have routes: the ones CDK deploys and the embedded runtime serves. */
export function servedSurfaces(): Surface[] {
  return SURFACES.filter((surface) => surfaceRoutes(surface).length > 0);
}
