/**
 * The top-up's offer: tier 1, 5 or 20 USDC (spec Limits, "Top-up tier"; default 1), paid over x402 (v2, and v1 during
 * migration) like a run. A price lives here only; the route's 402 and the amount credited are both read from it.
 */
import type { Offer } from '../payments/core/types.js';
import { MAX_TIMEOUT_SECONDS } from '../payments/types.js';
import { routePath } from '../surfaces/routes.js';
import { AGENT_STUDIO } from '../surfaces/surface.js';
import { usdcNumber } from '../shared/money.js';

export const TOPUP_TIERS = { 1: 1_000_000n, 5: 5_000_000n, 20: 20_000_000n } as const;
export type TopUpTier = keyof typeof TOPUP_TIERS;
export const DEFAULT_TOPUP_TIER: TopUpTier = 1;

/** The tier a `tier` query value names (absent: the default), or undefined for anything else. */
export function topUpTier(value: string | undefined): TopUpTier | undefined {
  if (value === undefined) return DEFAULT_TOPUP_TIER;
  if (!/^(1|5|20)$/.test(value)) return undefined;
  return Number(value) as TopUpTier;
}

export function topUpOffer(tier: TopUpTier, baseUrl: string): Offer {
  const amount = TOPUP_TIERS[tier];
  return {
    id: `topup-${tier}`,
    amount,
    resource: `${baseUrl}${routePath('GatewayTopUp')}?tier=${tier}`,
    description: `Workspace credit top-up: ${tier} USDC of prepaid credit for priced MCP tool calls`,
    method: 'POST',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputExample: { creditsAdded: usdcNumber(amount), transaction: '0x…', payer: '0x…' },
    mimeType: 'application/json',
    timeoutSeconds: MAX_TIMEOUT_SECONDS,
    accepts: ['x402'],
    legacyV1: true,
    serviceName: AGENT_STUDIO.identity.name,
    docs: `${baseUrl}${routePath('AgentsOpenApi')}`,
  };
}
