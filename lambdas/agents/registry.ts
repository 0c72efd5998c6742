/**
 * THE agent registry: every agent of the studio, as lambdas/products/catalog.ts is for products. The catalog, the
 * services feed, the x402 index, every card, the OpenAPI document, the run routes' offers (and, next, the MCP
 * tools and A2A skills) are generated from these entries; nothing else spells a price, a schema or an example.
 *
 * An entry is its listing (lambdas/agents/listing.ts: names, prices, deployment, tags, written there once) with its
 * family's zod schemas and engine (lambdas/agents/definition.ts), here every family's: the generic run route, A2A
 * and MCP run any agent. A concrete agent's fixed run route is built from its own family alone, so its function's
 * bundle carries one engine (lambdas/http/agents/run-*.ts). Only the run path (and the build that generates the published JSON
 * Schemas and examples, lambdas/agents/published.source.ts) loads this module: the documents read the listing and
 * the generated file, so their function carries neither zod nor the engines.
 */
import { VENDOR_RISK } from './engines/vendor-risk/family.js';
import { BANK_REC } from './engines/bank-rec/family.js';
import { EXPENSE_POLICY } from './engines/expense-policy/family.js';
import { PO_MATCH } from './engines/po-match/family.js';
import { EXPORT_TO_TRANSACTIONS } from './engines/export-to-transactions/family.js';
import { agentsOf, type AgentDefinition, type FamilyRuntime } from './definition.js';
import { findIn, publishedIn, type AgentFamily } from './listing.js';

export { isToolEligible, type AgentDeployment, type AgentFamily, type AgentKind, type AgentListing } from './listing.js';
export { agentExample, ap2ModeOf, type AgentDefinition } from './definition.js';

/** What runs each family: its zod schemas (the run route validates with them) and its engine. */
const FAMILIES: Record<AgentFamily, FamilyRuntime> = {
  'vendor-risk': VENDOR_RISK,
  'bank-rec': BANK_REC,
  'expense-policy': EXPENSE_POLICY,
  'po-match': PO_MATCH,
  'export-to-transactions': EXPORT_TO_TRANSACTIONS,
};

export const AGENTS: readonly AgentDefinition[] = agentsOf(FAMILIES);

/** Agents that are published (have a Live deployment), in registry order. */
export function publishedAgents(): AgentDefinition[] {
  return publishedIn(AGENTS);
}

/** The published agent a path names, by slug or legacy id; undefined when unknown or not published. */
export function findAgent(idOrSlug: string): AgentDefinition | undefined {
  return findIn(AGENTS, idOrSlug);
}
