/**
 * The A2A 1.0 AgentCard members of the agent studio's cards, generated from the agents' listing: one card per
 * published agent (its HTTP+JSON interface at `/api/agents/<slug>/a2a`, one skill: the agent) and the aggregate card
 * (the root interface at `/api/a2a`, one skill per published agent, named in `message.metadata["x-service"].agent`).
 * Every card says what the interface does: no streaming, no push notifications, no extended card; the AP2 v0.2
 * merchant extension is advertised (never `required: true`; see ap2Extension), and the x402 terms are named as an extension whose URI is the
 * terms document. A card holds only what the A2A 1.0 AgentCard defines (a strict parser refuses any other member):
 * the studio's own facts — capability, pricing, links, each skill's price — ride in a data-only extension
 * (cardDataExtension), whose params lambdas/agents/documents.ts builds.
 */
import { formatUsd } from '../shared/money.js';
import { routePath } from '../surfaces/routes.js';
import { AGENT_STUDIO } from '../surfaces/surface.js';
import { A2A_PROTOCOL_VERSION, AGENT_MEDIA_TYPES, AP2_EXTENSION_URI, SERVICE_METADATA_KEY } from '../shared/a2a.js';
import type { DiscoveryContext } from '../protocols/discovery/context.js';
import { publishedAgents, type AgentListing } from './listing.js';
import { publishedExample } from './published.js';

export { AP2_EXTENSION_URI };
const JSON_MODES = [...AGENT_MEDIA_TYPES];

/** The interface URL of one agent, or of the root when no agent is given. */
export function a2aInterfaceUrl(base: string, agent?: AgentListing): string {
  return agent ? `${base}${routePath('AgentA2aCard').replace('{agent}', encodeURIComponent(agent.slug))}` : `${base}${routePath('A2aCard')}`;
}

/**
 * Never `required: true`: A2A would then have us refuse every send without the extension, dry runs included, and an
 * agent that requires AP2 refuses only its priced live runs without valid mandates (docs/protocols.md, "AP2"). Such an agent
 * says so in `params.mandates`.
 */
function ap2Extension(ctx: DiscoveryContext, agent?: AgentListing) {
  const required = agent?.ap2 === 'required';
  return {
    uri: AP2_EXTENSION_URI,
    description:
      'AP2 v0.2 merchant authorization (experimental): mandates in message.metadata under this URI (activated by ' +
      'message.extensions or the A2A-Extensions header) or as AP2 data parts; the checkout comes with a dry run. ' +
      (required ? 'This agent refuses priced live runs without valid mandates. ' : '') +
      'x402 stays the settlement rail.',
    required: false,
    params: {
      roles: ['merchant', 'payment-processor'],
      mandates: required ? 'required-for-priced-live-runs' : 'optional',
      // The merchant's public keys: they verify the checkout JWT we offer and the checkout receipt we answer.
      merchantJwksUrl: `${ctx.base}${routePath('AgentsJwks')}`,
    },
  };
}

function x402Extension(uri: string, ctx: DiscoveryContext, priced: AgentListing[]) {
  return {
    uri,
    description:
      'x402 pricing (USDC on Base) per successful paid call: a priced live message:send without payment answers 402 with the same ' +
      'challenge as the run route; retry with PAYMENT-SIGNATURE. Dry runs (metadata x-service.dryRun: true) and free agents need no payment.',
    required: false,
    params: {
      x402Version: 2,
      network: ctx.terms.network,
      asset: ctx.terms.usdcAddress,
      payTo: ctx.terms.payTo,
      agents: priced.map((agent) => ({ agent: agent.slug, amount: agent.price.toString(), priceUsd: formatUsd(agent.price) })),
    },
  };
}

/** What the agent studio says of a card beyond the AgentCard's members: the params of its data-only extension. */
export type CardData = Record<string, unknown>;

/**
 * A2A's "data-only extension": structured facts in the card that change no request or answer, so never required.
 * Its URI is the services feed, the document that lists the same facts (schemas, pricing, links) for every agent.
 */
export function cardDataExtension(ctx: DiscoveryContext, params: CardData) {
  return {
    uri: cardDataExtensionUri(ctx.base),
    description:
      "The agent studio's own facts about this card, which the AgentCard has no member for (data only): per agent its " +
      'capability (run endpoint, request and result schemas, example, human review), pricing and links; at the root ' +
      'the payment rails, the dry run, the common terms and each skill\'s price and card. The services feed at this URI ' +
      'lists the same per agent.',
    required: false,
    params,
  };
}

const cardDataExtensionUri = (base: string) => `${base}${routePath('AgentsServices')}`;

function capabilities(extensions: Record<string, unknown>[]) {
  return { streaming: false, pushNotifications: false, extendedAgentCard: false, extensions };
}

function skill(agent: AgentListing, atRoot: boolean) {
  const price = agent.price === 0n ? 'Free.' : `${formatUsd(agent.price)} per successful paid call (x402).`;
  const how = atRoot
    ? ` Send one data part holding its input, with message.metadata["${SERVICE_METADATA_KEY}"].agent = "${agent.slug}".`
    : ' Send one data part holding its input.';
  return {
    id: agent.slug,
    name: agent.name,
    description: `${agent.description} ${price}${how}`,
    tags: [...agent.tags],
    examples: [JSON.stringify(publishedExample(agent).input)],
    inputModes: JSON_MODES,
    outputModes: JSON_MODES,
  };
}

/** One agent's card; `data`: the studio's facts about it, carried in the data-only extension. */
export function a2aAgentCard(agent: AgentListing, ctx: DiscoveryContext, termsUrl: string, data: CardData) {
  return {
    name: agent.name,
    description: agent.description,
    supportedInterfaces: [{ url: a2aInterfaceUrl(ctx.base, agent), protocolBinding: 'HTTP+JSON', protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: { organization: AGENT_STUDIO.identity.provider, url: ctx.base },
    version: agent.deployment!.version,
    documentationUrl: `${ctx.base}${routePath('AgentsOpenApi')}`,
    capabilities: capabilities([
      ap2Extension(ctx, agent),
      ...(agent.price > 0n ? [x402Extension(termsUrl, ctx, [agent])] : []),
      cardDataExtension(ctx, data),
    ]),
    defaultInputModes: JSON_MODES,
    defaultOutputModes: JSON_MODES,
    skills: [skill(agent, false)],
  };
}

/** The aggregate card: the root interface, one skill per published agent; `data` as for an agent's card. */
export function a2aRootCard(ctx: DiscoveryContext, indexUrl: string, data: CardData) {
  const agents = publishedAgents();
  const identity = AGENT_STUDIO.identity;
  return {
    name: identity.name,
    description: `${identity.summary} At this interface, name the agent in message.metadata["${SERVICE_METADATA_KEY}"].agent (slug or id).`,
    supportedInterfaces: [{ url: a2aInterfaceUrl(ctx.base), protocolBinding: 'HTTP+JSON', protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: { organization: identity.provider, url: ctx.base },
    version: identity.version,
    documentationUrl: `${ctx.base}${routePath('AgentsOpenApi')}`,
    capabilities: capabilities([ap2Extension(ctx), x402Extension(indexUrl, ctx, agents.filter((a) => a.price > 0n)), cardDataExtension(ctx, data)]),
    defaultInputModes: JSON_MODES,
    defaultOutputModes: JSON_MODES,
    skills: agents.map((agent) => skill(agent, true)),
  };
}
