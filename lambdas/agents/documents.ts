/**
 * The agent studio's documents, all generated from the agents' listing (lambdas/agents/listing.ts) and what they
 * publish (lambdas/agents/published.ts: the offers, the generated JSON Schemas and examples): the catalog, the
 * services feed, the x402 index, the root and per-agent capability cards and the per-agent x402 terms. Every price
 * and schema here is the one the run route's 402 advertises, because both are built from the same Offer. Their
 * fields beyond the spec's one-line descriptions are ours (docs/agent-studio.md, "Documents").
 */
import { formatUsd } from '../shared/money.js';
import { callShape, discoveryExtensions, paymentChallenge } from '../payments/core/challenge.js';
import { X402_VERSION } from '../payments/types.js';
import { routePath } from '../surfaces/routes.js';
import { AGENT_STUDIO } from '../surfaces/surface.js';
import { offerReceiptMember, signInMember, type DiscoveryContext } from '../protocols/discovery/context.js';
import { isToolEligible, publishedAgents, type AgentListing } from './listing.js';
import { a2aAgentCard, a2aInterfaceUrl, a2aRootCard } from './a2a-card.js';
import { agentInputSchema, agentOffer, engineId, publishedExample, resultJsonSchema, runPath } from './published.js';
import { usdcNumber } from './money.js';

export const AGENTS_UPDATED_AT = '2026-11-23T00:00:00.000Z';
const IDENTITY = AGENT_STUDIO.identity;

export function agentLinks(base: string, agent?: AgentListing) {
  const named = (id: string) => `${base}${routePath(id).replace('{agent}', encodeURIComponent(agent?.slug ?? ''))}`;
  return {
    catalog: `${base}${routePath('AgentsCatalog')}`,
    services: `${base}${routePath('AgentsServices')}`,
    x402: `${base}${routePath('AgentsX402')}`,
    card: `${base}${routePath('AgentsCard')}`,
    openapi: `${base}${routePath('AgentsOpenApi')}`,
    ...(agent
      ? { run: `${base}${runPath(agent)}`, agentCard: named('AgentCardOf'), agentX402: named('AgentX402Of'), template: named('AgentTemplate') }
      : {}),
  };
}

function pricing(agent: AgentListing, ctx: DiscoveryContext) {
  return {
    model: agent.price === 0n ? 'free' : 'per successful paid call',
    amount: agent.price.toString(),
    amountUsdc: usdcNumber(agent.price),
    priceUsd: formatUsd(agent.price),
    currency: 'USDC',
    network: ctx.terms.network,
    asset: ctx.terms.usdcAddress,
    payTo: ctx.terms.payTo,
    protocol: agent.price === 0n ? null : 'x402',
    dryRun: 'free: validates the input and shows the price and the result shape, settles nothing',
  };
}

/** Who an agent is, as every document and the template bundle name it. */
export function agentIdentity(agent: AgentListing) {
  return {
    slug: agent.slug,
    id: agent.legacyId,
    name: agent.name,
    description: agent.description,
    kind: agent.kind,
    version: agent.deployment!.version,
  };
}

function summary(agent: AgentListing, ctx: DiscoveryContext) {
  const links = agentLinks(ctx.base, agent);
  return {
    ...agentIdentity(agent),
    immutable: agent.deployment!.immutable,
    mcpEligible: isToolEligible(agent),
    free: agent.price === 0n,
    priceUsdc: usdcNumber(agent.price),
    tags: agent.tags,
    runUrl: links.run,
    cardUrl: links.agentCard,
    x402Url: links.agentX402,
    templateUrl: links.template,
  };
}

/** GET /api/catalog: the currently published agents. */
export function agentCatalog(ctx: DiscoveryContext) {
  const agents = publishedAgents();
  return { service: IDENTITY.name, version: IDENTITY.version, updatedAt: AGENTS_UPDATED_AT, count: agents.length, agents: agents.map((a) => summary(a, ctx)) };
}

/** GET /api/services: typed input and output schemas, examples, pricing facts and human-review boundaries. */
export function servicesFeed(ctx: DiscoveryContext) {
  return {
    service: IDENTITY.name,
    version: IDENTITY.version,
    updatedAt: AGENTS_UPDATED_AT,
    services: publishedAgents().map((agent) => ({
      ...summary(agent, ctx),
      inputSchema: agentInputSchema(agent),
      outputSchema: resultJsonSchema(agent),
      examples: [publishedExample(agent)],
      pricing: pricing(agent, ctx),
      humanReview: agent.humanReview,
      engine: engineId(agent),
      rules: agent.rules,
      ...(agent.relay ? { relay: agent.relay } : {}),
    })),
  };
}

/** The x402 terms of a priced agent: exactly its run route's 402 (challenge accepts and extensions). */
export function agentTerms(agent: AgentListing, ctx: DiscoveryContext) {
  if (agent.price === 0n) {
    return { x402Version: X402_VERSION, agent: agent.slug, free: true, resource: agentLinks(ctx.base, agent).run, accepts: [], note: 'Free: runs need no payment.' };
  }
  return pricedTerms(agent, ctx);
}

function pricedTerms(agent: AgentListing, ctx: DiscoveryContext) {
  const challenge = paymentChallenge(agentOffer(agent, ctx.base), ctx.terms, '');
  return {
    x402Version: X402_VERSION,
    agent: agent.slug,
    free: false as const,
    resource: challenge.resource.url,
    accepts: challenge.accepts,
    extensions: challenge.extensions,
    priceUsd: formatUsd(agent.price),
  };
}

/** GET /.well-known/x402 on the agent studio: one resource per priced published agent, as the generation index. */
export function agentX402Index(ctx: DiscoveryContext) {
  const priced = publishedAgents().filter((agent) => agent.price > 0n);
  return {
    x402Version: X402_VERSION,
    settledBy: ctx.settledBy,
    ...offerReceiptMember(ctx),
    ...signInMember(ctx, 'agents'),
    count: priced.length,
    resources: priced.map((agent) => {
      const terms = pricedTerms(agent, ctx);
      const offer = agentOffer(agent, ctx.base);
      return {
        resource: terms.resource,
        method: 'POST',
        type: 'http',
        serviceName: IDENTITY.name,
        title: agent.name,
        description: agent.description,
        category: 'agents',
        tags: agent.tags,
        providerName: IDENTITY.provider,
        providerUrl: ctx.base,
        docsUrl: agentLinks(ctx.base).openapi,
        lastUpdated: AGENTS_UPDATED_AT,
        mimeType: 'application/json',
        // The discovery form: the 402's accepts each with its outputSchema, its extensions with the contract's own
        // bazaar fields beside the official ones.
        accepts: terms.accepts.map((entry) => ({ ...entry, outputSchema: callShape(offer) })),
        extensions: discoveryExtensions(offer),
        priceUsd: terms.priceUsd,
      };
    }),
  };
}

/**
 * GET /api/agents/{agent}/.well-known/agent-card.json (and the same card at GET /api/agents/{agent}/a2a): an A2A 1.0
 * AgentCard (lambdas/agents/a2a-card.ts) whose data-only extension carries the spec's capability and pricing
 * (the provider is the card's own member) and the links.
 */
export function agentCard(agent: AgentListing, ctx: DiscoveryContext) {
  const links = agentLinks(ctx.base, agent);
  return a2aAgentCard(agent, ctx, links.agentX402!, {
    capability: {
      slug: agent.slug,
      id: agent.legacyId,
      kind: agent.kind,
      method: 'POST',
      endpoint: links.run,
      a2a: a2aInterfaceUrl(ctx.base, agent),
      requestBody: { input: agentInputSchema(agent), dryRun: 'boolean (optional): a free preview' },
      result: resultJsonSchema(agent),
      example: publishedExample(agent),
      humanReview: agent.humanReview,
    },
    pricing: pricing(agent, ctx),
    links: { x402: links.agentX402, template: links.template, services: links.services, openapi: links.openapi },
  });
}

/**
 * GET /.well-known/agent-card.json on the agent studio (and GET /api/a2a): the root capability card, the aggregate
 * A2A 1.0 AgentCard (root interface, one skill per published agent), whose data-only extension carries the payment
 * rails, the common pricing terms, each skill's price and card (keyed by skill id) and the links.
 */
export function rootCard(ctx: DiscoveryContext) {
  const links = agentLinks(ctx.base);
  return a2aRootCard(ctx, links.x402, {
    payments: ['x402 v2 (PAYMENT-SIGNATURE)', 'x402 v1 (X-PAYMENT, deprecated)'],
    dryRun: true,
    pricing: { currency: 'USDC', network: ctx.terms.network, asset: ctx.terms.usdcAddress, payTo: ctx.terms.payTo, model: 'per successful paid call' },
    skills: Object.fromEntries(publishedAgents().map((agent) => [agent.slug, { priceUsdc: usdcNumber(agent.price), card: agentLinks(ctx.base, agent).agentCard }])),
    links: { ...links, a2a: a2aInterfaceUrl(ctx.base) },
  });
}
