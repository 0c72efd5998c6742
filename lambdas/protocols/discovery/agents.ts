/**
 * The documents agents read first: the A2A agent card (`/.well-known/agent-card.json`, also `/.well-known/agent.json`)
 * and the plugin manifest (`/.well-known/ai-plugin.json`). Skill ids are the catalog product ids; prices come from
 * the 402's own payment requirement.
 */
import { PRODUCTS, PRODUCT_IDS, type ProductId } from '../../products/products.js';
import { paymentRequirement } from '../../jobs/offers.js';
import { SKILL_METADATA_KEY } from '../a2a/skills.js';
import { SERVICE, links, type DiscoveryContext } from './context.js';

export const A2A_PROTOCOL_VERSION = '1.0';
export const MCP_PROTOCOL_VERSION = '2025-06-18';

/** Example requests per skill: descriptive only (no price or schema lives here). */
const SKILL_EXAMPLES: Record<ProductId, string[]> = {
  create_music: ['An upbeat synth-pop song about a summer road trip, female vocals', 'A calm lo-fi instrumental for studying'],
  agent_video: ['Waves crashing on a rocky shore at sunset, gulls calling', 'A busy night market with sizzling food stalls and chatter'],
  agent_image: ['A red fox in a snowy forest, golden hour', 'A minimalist poster of a mountain lake, 3:4'],
};

function skill(product: ProductId, ctx: DiscoveryContext) {
  const p = PRODUCTS[product];
  const requirement = paymentRequirement(product, ctx.base, ctx.terms);
  return {
    id: product,
    name: p.title,
    description:
      `${p.description} ${requirement.extra.priceUsd} per call, paid over x402 at POST ${requirement.resource}. ` +
      `Name the skill in message.metadata.${SKILL_METADATA_KEY} ("${product}"); the reply is a payment pointer to that endpoint.`,
    tags: p.tags,
    examples: SKILL_EXAMPLES[product],
    inputModes: ['application/json', 'text/plain'],
    outputModes: ['application/json'],
  };
}

/**
 * A2A 1.0 names its interfaces in `supportedInterfaces` (the first is preferred). The card holds only the members the
 * 1.0 AgentCard defines: a strict parser refuses any other, so 0.3's top-level `protocolVersion`/`url`/
 * `preferredTransport` are not written (a 0.3 client would speak 0.3's methods to a 1.0 interface anyway), and the
 * prices live in the pricing extension's params.
 */
export function agentCard(ctx: DiscoveryContext) {
  const l = links(ctx.base);
  const first = paymentRequirement(PRODUCT_IDS[0], ctx.base, ctx.terms);
  return {
    name: SERVICE.name,
    description: SERVICE.summary,
    version: SERVICE.version,
    supportedInterfaces: [{ url: l.a2a, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: { organization: SERVICE.provider, url: ctx.base },
    documentationUrl: l.openapi,
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extensions: [
        {
          // The pricing terms of each skill; the paid call itself is the x402 HTTP endpoint named here.
          uri: l.discovery,
          description: 'x402 v2 pricing of each skill (USDC on Base). Pay the skill endpoint over HTTP; see the discovery index.',
          required: false,
          params: {
            x402Version: 2,
            scheme: first.scheme,
            network: first.network,
            asset: first.asset,
            payTo: first.payTo,
            skills: PRODUCT_IDS.map((id) => {
              const r = paymentRequirement(id, ctx.base, ctx.terms);
              return { id, endpoint: r.resource, method: 'POST', amount: r.amount, priceUsd: r.extra.priceUsd };
            }),
          },
        },
      ],
    },
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json'],
    skills: PRODUCT_IDS.map((id) => skill(id, ctx)),
  };
}

export function aiPluginManifest(ctx: DiscoveryContext) {
  const l = links(ctx.base);
  const prices = PRODUCT_IDS.map((id) => `${id} ${paymentRequirement(id, ctx.base, ctx.terms).extra.priceUsd}`).join(', ');
  return {
    schema_version: 'v1',
    name_for_human: SERVICE.name,
    name_for_model: 'paycall_generation',
    description_for_human: 'Generate songs, short videos and images; pay per call in USDC.',
    description_for_model:
      `Generates music (create_music), 8-second videos (agent_video) and images (agent_image). Prices per call: ${prices}. ` +
      'Each paid POST first answers 402 with x402 v2 payment terms; sign an EIP-3009 USDC authorization on Base and ' +
      'resend it in PAYMENT-SIGNATURE. Calls answer 202 with a pollUrl; polling is free.',
    auth: { type: 'none' },
    api: { type: 'openapi', url: l.openapi, is_user_authenticated: false },
    mcp: { url: l.mcp, transport: 'streamable-http', protocolVersion: MCP_PROTOCOL_VERSION },
    discovery: { x402: l.discovery, agent_card: l.agentCard, llms: l.llms },
  };
}
