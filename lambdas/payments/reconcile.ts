/**
 * Reads the chain's answer to "was this EIP-3009 authorization used?", for payments whose outcome the service
 * could not record (a crash or a storage failure between settling and writing the receipt).
 */
import { paymentConfig } from '../shared/config.js';
import { usdcAbi } from './usdc-abi.js';
import { publicClientFor } from './verify.js';
import type { Hex } from './types.js';

/** nonceKey = `${network}:${asset}:${from}:${nonce}` (see ViemPaymentVerifier). */
export function parseNonceKey(nonceKey: string): { network: string; asset: Hex; from: Hex; nonce: Hex } | undefined {
  const parts = nonceKey.split(':');
  if (parts.length !== 5) return undefined;
  const [namespace, chain, asset, from, nonce] = parts;
  return { network: `${namespace}:${chain}`, asset: asset as Hex, from: from as Hex, nonce: nonce as Hex };
}

/** Whether an EIP-3009 authorization was used on chain (its nonce is spent). */
export async function authorizationUsed(nonceKey: string): Promise<boolean> {
  const key = parseNonceKey(nonceKey);
  if (!key) throw new Error(`not an x402 nonce key: ${nonceKey}`);
  return publicClientFor(paymentConfig().rpcUrl).readContract({
    address: key.asset,
    abi: usdcAbi,
    functionName: 'authorizationState',
    args: [key.from, key.nonce],
  }) as Promise<boolean>;
}
