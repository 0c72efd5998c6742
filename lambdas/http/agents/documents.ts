/**
 * Every GET document of the agent studio, one entry and one function (lib/function-map.ts): the route is told by
 * the request's route key, the agent (where the path names one) by slug or legacy id; an unknown or unpublished
 * agent is a 404 Error body. Served as the generation documents are (ETag, Cache-Control, 304).
 */
import { documentEntry, jsonDocument } from '../../protocols/discovery/serve.js';
import { AGENT_STUDIO } from '../../surfaces/surface.js';
import { matchPath } from '../../surfaces/paths.js';
import { ROUTES } from '../../surfaces/routes.js';
import { json, type HttpEvent } from '../../shared/http.js';
import { findAgent } from '../../agents/listing.js';
import { agentCard, agentCatalog, agentTerms, rootCard, servicesFeed } from '../../agents/documents.js';
import { templateBundle } from '../../agents/template.js';
import { agentsOpenApi } from '../../agents/openapi.js';

const DOCUMENT_ROUTES = ROUTES.filter((route) => route.surface === 'agents' && route.method === 'GET' && route.entry === 'lambdas/http/agents/documents.ts');

/** `<route id>` or `<route id> <agent slug>`; unknown agents keep the name they were asked by. */
function variantOf(event: HttpEvent): string {
  for (const route of DOCUMENT_ROUTES) {
    const params = matchPath(route.path, event.rawPath);
    if (!params) continue;
    if (params.agent === undefined) return route.id;
    return `${route.id} ${findAgent(params.agent)?.slug ?? `?${params.agent}`}`;
  }
  return '';
}

export const handler = documentEntry({
  surface: AGENT_STUDIO,
  variant: variantOf,
  reject: (variant) => {
    const [, slug] = variant.split(' ');
    if (variant === '') return json(404, { detail: 'No such document', code: 'not_found' });
    if (slug?.startsWith('?')) return json(404, { detail: `No published agent '${slug.slice(1)}'`, code: 'not_found' });
    return undefined;
  },
  headers: (variant): Record<string, string> => {
    const [id, slug] = variant.split(' ');
    return id === 'AgentTemplate' ? { 'Content-Disposition': `attachment; filename="${slug}-template.json"` } : {};
  },
  build: (ctx, variant) => {
    const [id, slug] = variant.split(' ');
    const agent = slug ? findAgent(slug)! : undefined;
    switch (id) {
      case 'AgentsCatalog':
        return jsonDocument(agentCatalog(ctx));
      case 'AgentsServices':
        return jsonDocument(servicesFeed(ctx));
      case 'AgentsCard':
      case 'A2aCard':
      case 'A2aCardBeside':
        return jsonDocument(rootCard(ctx));
      case 'AgentCardOf':
      case 'AgentA2aCard':
        return jsonDocument(agentCard(agent!, ctx));
      case 'AgentX402Of':
        return jsonDocument(agentTerms(agent!, ctx));
      case 'AgentTemplate':
        return jsonDocument(templateBundle(agent!, ctx));
      case 'AgentsOpenApi':
        return jsonDocument(agentsOpenApi(ctx.base));
      default:
        throw new Error(`no builder for ${id}`);
    }
  },
});
