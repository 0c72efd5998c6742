/** A fixed discovery context: a base URL and the Base USDC terms, as the embedded default configures them. */
import type { DiscoveryContext } from '../../../lambdas/protocols/discovery/context.js';

export const BASE = 'https://api.test';
export const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const;
export const PAY_TO = '0x1111111111111111111111111111111111111111' as const;

export const ctx: DiscoveryContext = {
  base: BASE,
  terms: { network: 'eip155:8453', usdcAddress: USDC, payTo: PAY_TO },
  settledBy: 'self',
};

/** The spec's price table. */
export const SPEC_PRICES = {
  create_music: { priceUsd: '$0.50', amount: '500000', cents: 50, path: '/create-music', category: 'music' },
  agent_video: { priceUsd: '$4.99', amount: '4990000', cents: 499, path: '/agent/video', category: 'video' },
  agent_image: { priceUsd: '$0.15', amount: '150000', cents: 15, path: '/agent/image', category: 'image' },
} as const;
export const IDS = ['create_music', 'agent_video', 'agent_image'] as const;
