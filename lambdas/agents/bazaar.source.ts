/**
 * The source of lambdas/agents/bazaar.generated.ts and bazaar-mcp.generated.ts: the official x402 bazaar declaration
 * of every priced agent's run route and of its agent-studio MCP tool, built by @x402/extensions
 * (lambdas/payments/core/bazaar.source.ts). No function imports this module.
 */
import { declarePost, declareTool } from '../payments/core/bazaar.source.js';
import type { BazaarDeclaration } from '../payments/core/types.js';
import { AGENT_LISTINGS, type AgentListing } from './listing.js';
import { AGENT_EXAMPLES } from './examples.js';
import { AGENT_PUBLISHED } from './published.generated.js';
import { agentOffer } from './published.js';

export const GENERATED_AGENT_BAZAAR_PATH = 'lambdas/agents/bazaar.generated.ts';
export const GENERATED_AGENT_MCP_BAZAAR_PATH = 'lambdas/agents/bazaar-mcp.generated.ts';

/** The agents whose run answers 402: every priced one (a free agent's run is never challenged). */
export function pricedAgents(): AgentListing[] {
  return AGENT_LISTINGS.filter((agent) => agent.price > 0n);
}

function bySlug(declare: (agent: AgentListing) => BazaarDeclaration): Record<string, BazaarDeclaration> {
  return Object.fromEntries(pricedAgents().map((agent) => [agent.slug, declare(agent)]));
}

/**
 * Every priced agent's run route (POST, the run request body `{ input }`), by slug. Without an output example: the
 * 402 carries this declaration and the client echoes it in PAYMENT-SIGNATURE, where a whole sample result (a vendor
 * profile's flags and documents to collect, a reconciliation's exceptions) made the paid request too large for API
 * Gateway behind the CloudFront edge. The example answer stays where nothing echoes it: the discovery index's
 * `output` (lambdas/protocols/discovery/agents.ts), the services feed and the OpenAPI document.
 */
export function agentBazaarFromSource(): Record<string, BazaarDeclaration> {
  return bySlug((agent) => {
    // The offer's body schema does not depend on the base URL.
    const offer = agentOffer(agent, 'https://service.invalid');
    return declarePost({ input: AGENT_EXAMPLES[agent.family].input }, offer.inputSchema);
  });
}

/**
 * The agent studio's priced MCP tools (billed from workspace credit), by tool name (the slug): every priced agent
 * (the tool list is a subset), answering the result its engine gives for the example.
 */
export function agentMcpBazaarFromSource(): Record<string, BazaarDeclaration> {
  return bySlug((agent) => {
    const published = AGENT_PUBLISHED[agent.family];
    return declareTool(agent.slug, published.inputSchema, AGENT_EXAMPLES[agent.family].input, published.exampleResult);
  });
}
