/**
 * The chain reads behind reconciliation, for payments whose outcome the service could not record (a crash or a
 * storage failure between settling and writing the receipt, or a receipt that did not arrive in time): the rule that
 * decides from them is the payment core's (lambdas/payments/core/paid-on-chain.ts).
 *
 * Plain JSON-RPC requests, encoded here rather than through viem: each is a few fixed-size words, and a poll function
 * that asks them should not carry an ABI codec and an RPC client for that (test/unit/payments/reconcile.test.ts
 * checks the encoding against viem's).
 */
import { paymentConfig } from '../shared/config.js';
import type { Hex } from './types.js';
import { sendToRpc } from './rpc-url.js';

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

/** An address as a 32-byte word (an ABI argument, an indexed event topic); throws on anything but 20 bytes of hex. */
export function addressWord(address: string): Hex {
  const hex = /^0x([0-9a-fA-F]{40})$/.exec(address)?.[1];
  if (!hex) throw new Error(`not an address: ${address}`);
  return `0x${hex.toLowerCase().padStart(64, '0')}`;
}

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

/**
 * One JSON-RPC request; an HTTP or JSON-RPC error throws (the caller decides nothing from a failed read). `rpcUrl` is
 * the URL or a reference to the secret holding it (./rpc-url.ts).
 */
export async function rpcRequest(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  return sendToRpc(rpcUrl, async (url) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(RPC_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`${method}: HTTP ${response.status}`);
    const body = (await response.json()) as { result?: unknown; error?: { code?: number; message?: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message ?? 'error'} (${body.error.code ?? '?'})`);
    return body.result;
  });
}

/**
 * Whether an EIP-3009 authorization's nonce is spent, read at the latest block. Spent means used *or canceled*
 * (`cancelAuthorization` marks the nonce too), so this never proves a payment: it refuses a second use, and tells
 * the reconciler when to look for the events that do (core/paid-on-chain.ts).
 */
export async function authorizationUsed(nonceKey: string, rpcUrl = paymentConfig().rpcUrl): Promise<boolean> {
  const key = parseNonceKey(nonceKey);
  if (!key) throw new Error(`not an x402 nonce key: ${nonceKey}`);
  const call = { to: key.asset, data: authorizationStateCallData(key.from, key.nonce) };
  return decodeBool(await rpcRequest(rpcUrl, 'eth_call', [call, 'latest']));
}
