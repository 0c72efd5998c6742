/**
 * "Paid" means our transfer landed (architecture: payment core): the rule every reconciler of an x402 payment whose
 * outcome was not recorded asks — the sweeper and a poll for a reserved job, the sweeper for an open run, and so
 * every purchased item built on the core (top-ups, credit-billed calls).
 *
 * The authorization's state alone proves nothing: EIP-3009 `cancelAuthorization` spends the nonce as a transfer does,
 * so a buyer who cancels while our transfer is in flight would read as paid. The token's events tell the two apart:
 * `transferWithAuthorization` emits `AuthorizationUsed(authorizer, nonce)` and, as the next log of the same call,
 * `Transfer(authorizer, to, value)` (FiatToken v2 and the local token alike); a cancel emits
 * `AuthorizationCanceled(authorizer, nonce)` and moves nothing. So:
 *
 *  1. nonce unspent (one `authorizationState` read) → `unused`: a transfer in flight may still land;
 *  2. spent: find the authorizer's event for that nonce, searching back from the latest block in windows RPC
 *     providers accept, no further than the block before the payment was verified unused (`notBefore`, less a
 *     margin for clock skew):
 *     - `AuthorizationUsed` followed in its transaction by `Transfer(authorizer → payTo, amount)` on the same token →
 *       `paid`, with that transaction's hash;
 *     - `AuthorizationCanceled`, or `AuthorizationUsed` for another transfer (the buyer signed that nonce twice) →
 *       `spent`: the authorization can never pay us, nothing of it reached us;
 *     - neither found → throws: the chain says spent but shows no event (a lagging node, a pruned log index), and a
 *       reconciler decides nothing from that (it asks again next time).
 */
import { paymentConfig } from '../../shared/config.js';
import { addressWord, authorizationUsed, parseNonceKey, rpcRequest } from '../reconcile.js';
import type { Hex } from '../types.js';

/** keccak256 of each event's signature (test/unit/payments/paid-on-chain.test.ts checks them against viem's). */
export const EVENT_TOPICS = {
  transfer: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', // Transfer(address,address,uint256)
  authorizationUsed: '0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5', // AuthorizationUsed(address,bytes32)
  authorizationCanceled: '0x1cdd46ff242716cdaa72d159d339a485b3438398348d68f09d7c8c0a59353d81', // AuthorizationCanceled(address,bytes32)
} as const;

/** getLogs windows (most RPC providers cap a range near 10,000 blocks) and at most how many (~4.6 days of Base). */
export const LOG_WINDOW_BLOCKS = 10_000n;
const MAX_WINDOWS = 20;
/** Block timestamps and our clock may disagree by this much; the search reaches this far before `notBefore`. */
const CLOCK_SKEW_SECONDS = 600;

export type PaidOnChain =
  /** Our transfer landed: the authorizer paid `amount` to `payTo` with this authorization, in `transaction`. */
  | { state: 'paid'; transaction: Hex }
  /** The nonce is spent without paying us (canceled, or used by another transfer): this authorization never will. */
  | { state: 'spent'; reason: string }
  /** The nonce is unspent: a transfer of it may still land, until its validBefore. */
  | { state: 'unused' };

export interface OnChainPayment {
  /** The x402 nonce key: network, token, authorizer and nonce. */
  nonceKey: string;
  /** The price the authorization pays (USDC base units). */
  amount: bigint;
  /** Epoch ms before which the authorization was seen unspent (the purchase was recorded after its verification). */
  notBefore: number;
}

export interface ChainView {
  rpcUrl: string;
  /** Who the payment must have reached. */
  payTo: string;
}

export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  logIndex: string;
  transactionHash: Hex;
  removed?: boolean;
}

/** The rule of the file's header, for one payment. */
export async function paidOnChain(payment: OnChainPayment, chain: ChainView = defaultChain()): Promise<PaidOnChain> {
  const key = parseNonceKey(payment.nonceKey);
  if (!key) throw new Error(`not an x402 nonce key: ${payment.nonceKey}`);
  if (!(await authorizationUsed(payment.nonceKey, chain.rpcUrl))) return { state: 'unused' };

  const event = await findAuthorizationEvent(chain.rpcUrl, key.asset, key.from, key.nonce, { notBefore: payment.notBefore });
  if (!event) throw new Error(`authorization ${key.nonce} of ${key.from} reads spent, but no AuthorizationUsed or AuthorizationCanceled event was found`);
  if (event.topics[0] === EVENT_TOPICS.authorizationCanceled) {
    return { state: 'spent', reason: 'the buyer canceled the authorization before it paid' };
  }
  const receipt = (await rpcRequest(chain.rpcUrl, 'eth_getTransactionReceipt', [event.transactionHash])) as { status?: string; logs?: RpcLog[] } | null;
  if (!receipt || receipt.status !== '0x1') throw new Error(`the receipt of ${event.transactionHash} is not available`);
  const next = receipt.logs?.find((log) => BigInt(log.logIndex) === BigInt(event.logIndex) + 1n);
  const paysUs =
    next !== undefined &&
    next.address.toLowerCase() === key.asset.toLowerCase() &&
    next.topics[0] === EVENT_TOPICS.transfer &&
    next.topics[1]?.toLowerCase() === addressWord(key.from) &&
    next.topics[2]?.toLowerCase() === addressWord(chain.payTo) &&
    BigInt(next.data) === payment.amount;
  return paysUs ? { state: 'paid', transaction: event.transactionHash } : { state: 'spent', reason: 'the authorization paid another transfer' };
}

function defaultChain(): ChainView {
  const config = paymentConfig();
  return { rpcUrl: config.rpcUrl, payTo: config.payTo };
}

/**
 * The `AuthorizationUsed` or `AuthorizationCanceled` log of (authorizer, nonce) on the token, searched back from the
 * latest block one window at a time: until a window starts before `notBefore` (less the skew margin), and no more than
 * `maxWindows` windows. A nonce is spent once, so there is at most one such log on the canonical chain (a removed one,
 * from a reorg, is skipped). Undefined when none is found within those bounds.
 */
export async function findAuthorizationEvent(
  rpcUrl: string,
  asset: Hex,
  authorizer: Hex,
  nonce: Hex,
  bounds: { notBefore?: number; maxWindows?: number },
): Promise<RpcLog | undefined> {
  const since = bounds.notBefore === undefined ? undefined : BigInt(Math.floor(bounds.notBefore / 1000) - CLOCK_SKEW_SECONDS);
  const topics = [[EVENT_TOPICS.authorizationUsed, EVENT_TOPICS.authorizationCanceled], addressWord(authorizer), nonce.toLowerCase()];
  let to = BigInt((await rpcRequest(rpcUrl, 'eth_blockNumber', [])) as string);
  for (let window = 0; window < (bounds.maxWindows ?? MAX_WINDOWS); window++) {
    const from = to >= LOG_WINDOW_BLOCKS ? to - LOG_WINDOW_BLOCKS + 1n : 0n;
    const filter = { address: asset, fromBlock: hex(from), toBlock: hex(to), topics };
    const logs = ((await rpcRequest(rpcUrl, 'eth_getLogs', [filter])) as RpcLog[]).filter((log) => !log.removed);
    if (logs.length > 0) return logs[logs.length - 1];
    if (from === 0n) break;
    if (since !== undefined) {
      const block = (await rpcRequest(rpcUrl, 'eth_getBlockByNumber', [hex(from), false])) as { timestamp?: string } | null;
      if (block?.timestamp !== undefined && BigInt(block.timestamp) < since) break;
    }
    to = from - 1n;
  }
  return undefined;
}

function hex(n: bigint): string {
  return `0x${n.toString(16)}`;
}
