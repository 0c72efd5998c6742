/**
 * The networks the service can sell on: Base mainnet (production) and Base Sepolia (a staging stack). Everything
 * that differs between them is here: chain id, the name x402 v1 and the payment pointer use, Circle's USDC address
 * and its EIP-712 domain name (the testnet token is named "USDC", mainnet's "USD Coin"), and a public RPC endpoint.
 */
export const NETWORKS = {
  'eip155:8453': {
    chainId: 8453,
    name: 'base',
    title: 'Base',
    usdcAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    tokenName: 'USD Coin',
    rpcUrl: 'https://mainnet.base.org',
  },
  'eip155:84532': {
    chainId: 84532,
    name: 'base-sepolia',
    title: 'Base Sepolia',
    usdcAddress: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    tokenName: 'USDC',
    rpcUrl: 'https://sepolia.base.org',
  },
} as const;

export type NetworkId = keyof typeof NETWORKS;
export const NETWORK_IDS = Object.keys(NETWORKS) as [NetworkId, ...NetworkId[]];
export type Network = (typeof NETWORKS)[NetworkId];

export function networkOf(id: string): Network {
  const network = NETWORKS[id as NetworkId];
  if (!network) throw new Error(`Unknown network ${id}; supported: ${NETWORK_IDS.join(', ')}`);
  return network;
}

/** `eip155:8453` from `base` (x402 v1 names), or the id itself. */
export function canonicalNetwork(network: string): string {
  return NETWORK_IDS.find((id) => NETWORKS[id].name === network) ?? network;
}
