/**
 * Reads the chain's answer to "was this EIP-3009 authorization used?", for payments whose outcome the service
 * could not record (a crash or a storage failure between settling and writing the receipt, or a receipt that did not
 * arrive in time). The sweeper and a poll of a reserved job ask it (lambdas/workflow/sweeper.ts reconcileReserved).
 *
 * One `eth_call` of `authorizationState(address,bytes32)`, encoded here rather than through viem: the call is two
 * fixed-size words and a bool back, and a poll function that asks it should not carry an ABI codec and an RPC client
 * for that (test/unit/payments/reconcile.test.ts checks the encoding against viem's).
 */
import { paymentConfig } from '../shared/config.js';
import type { Hex } from './types.js';

/** nonceKey = `${network}:${asset}:${from}:${nonce}` (see ViemPaymentVerifier). */
export function parseNonceKey(nonceKey: string): { network: string; asset: Hex; from: Hex; nonce: Hex } | undefined {
  const parts = nonceKey.split(':');
  if (parts.length !== 5) return undefined;
  const [namespace, chain, asset, from, nonce] = parts;
  return { network: `${namespace}:${chain}`, asset: asset as Hex, from: from as Hex, nonce: nonce as Hex };
}

/** The 4-byte selector of `authorizationState(address,bytes32)` (keccak256 of the signature). */
export const AUTHORIZATION_STATE_SELECTOR = '0xe94a0102';

/** How long one chain read may take (as the verifier's RPC client). */
const RPC_TIMEOUT_MS = 10_000;

/** The call data of `authorizationState(from, nonce)`; throws on an address or nonce that is not hex of its size. */
export function authorizationStateCallData(from: string, nonce: string): Hex {
  const address = /^0x([0-9a-fA-F]{40})$/.exec(from)?.[1];
  const word = /^0x([0-9a-fA-F]{64})$/.exec(nonce)?.[1];
  if (!address || !word) throw new Error(`not an EIP-3009 authorizer and nonce: ${from} ${nonce}`);
  return `${AUTHORIZATION_STATE_SELECTOR}${address.toLowerCase().padStart(64, '0')}${word.toLowerCase()}`;
}

/** A returned ABI `bool`: one 32-byte word, 0 or 1; anything else is not an answer to this call. */
export function decodeBool(result: unknown): boolean {
  if (typeof result !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(result)) throw new Error(`authorizationState returned ${String(result)}`);
  const value = BigInt(result);
  if (value > 1n) throw new Error(`authorizationState returned a non-bool word ${result}`);
  return value === 1n;
}

/** Whether an EIP-3009 authorization was used on chain (its nonce is spent), read at the latest block. */
export async function authorizationUsed(nonceKey: string, rpcUrl = paymentConfig().rpcUrl): Promise<boolean> {
  const key = parseNonceKey(nonceKey);
  if (!key) throw new Error(`not an x402 nonce key: ${nonceKey}`);
  const call = { to: key.asset, data: authorizationStateCallData(key.from, key.nonce) };
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [call, 'latest'] }),
    signal: AbortSignal.timeout(RPC_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`eth_call authorizationState: HTTP ${response.status}`);
  const body = (await response.json()) as { result?: unknown; error?: { code?: number; message?: string } };
  if (body.error) throw new Error(`eth_call authorizationState: ${body.error.message ?? 'error'} (${body.error.code ?? '?'})`);
  return decodeBool(body.result);
}
