/**
 * The chain calls the payment code makes, as viem's actions (viem/actions) bound to a bare viem Client. viem's
 * PublicClient and WalletClient decorate a client with every action viem has (ENS, multicall, simulation, …), which
 * cost each paid function ~160 KB; these carry only the ones called. A PublicClient has every member of
 * ChainReader, so the tests and the local chain can still hand one in.
 *
 * Four are our own, each a plain JSON-RPC request: a contract read (`eth_call` of a view function), a contract gas
 * estimate (`eth_estimateGas`), a balance (`eth_getBalance`) and a receipt (`eth_getTransactionReceipt`, which
 * ./block-clock.ts polls around the blocks it expects; viem's wait asks for the block number first and sets up a block
 * watcher, one more request and a timer chain per settlement). viem's readContract, estimateContractGas and getBalance go through its general `call`
 * and transaction preparation (multicall batching, deployless calls with their bytecode constants, CCIP-Read, account
 * and fee filling), about 40 KB of every paid function for features these two calls never use. Their failures are
 * turned into the same errors viem's would be (getContractError: a revert carries its decoded reason).
 *
 * Both clients send through viem's HTTP transport with `rpcFetch` (./rpc-fetch.ts) as its fetch: `node:http` with a
 * keep-alive agent instead of undici's fetch, the same requests and the same errors for less CPU per request. An
 * `rpcUrl` may be a reference to the secret holding the URL (./rpc-url.ts): the transport resolves it on first use.
 */
import {
  TransactionReceiptNotFoundError,
  createClient,
  decodeFunctionResult,
  formatTransactionReceipt,
  encodeFunctionData,
  getContractError,
  hexToBigInt,
  http,
  type Abi,
  type Address,
  type Chain,
  type Client,
  type Hex,
  type PublicClient,
  type RpcTransactionReceipt,
  type TransactionReceipt,
} from 'viem';
import {
  estimateFeesPerGas,
  getTransactionCount,
  sendRawTransaction,
} from 'viem/actions';
import { rpcFetch, type RpcRequestInit } from './rpc-fetch.js';
import { rpcUrlSecretId, sendToRpc } from './rpc-url.js';

interface ContractCall {
  address: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
  account?: Address | { address: Address };
}

/** An account's native balance (wei) at the latest block: one `eth_getBalance` (viem's own also reaches for `call`). */
async function getBalance(client: Client, { address }: { address: Address }): Promise<bigint> {
  return hexToBigInt((await client.request({ method: 'eth_getBalance', params: [address, 'latest'] } as never)) as Hex);
}

/** A transaction's receipt, one `eth_getTransactionReceipt`; viem's TransactionReceiptNotFoundError while in no block. */
async function getTransactionReceipt(client: Client, { hash }: { hash: Hex }): Promise<TransactionReceipt> {
  const receipt = (await client.request({ method: 'eth_getTransactionReceipt', params: [hash] } as never)) as RpcTransactionReceipt | null;
  if (!receipt) throw new TransactionReceiptNotFoundError({ hash });
  return formatTransactionReceipt(receipt);
}

/** A view function's result, read with one `eth_call` at the latest block. */
async function readContract(client: Client, call: ContractCall): Promise<unknown> {
  const { address, abi, functionName, args } = call;
  const data = encodeFunctionData({ abi, functionName, args } as never);
  try {
    const result = (await client.request({ method: 'eth_call', params: [{ to: address, data }, 'latest'] } as never)) as Hex;
    return decodeFunctionResult({ abi, functionName, args, data: result } as never);
  } catch (error) {
    throw getContractError(error as Error, { abi, address, args, functionName, docsPath: '/docs/contract/readContract' });
  }
}

/** The gas a contract write would use, sent by `account`: one `eth_estimateGas` (a revert fails with its reason). */
async function estimateContractGas(client: Client, call: ContractCall): Promise<bigint> {
  const { address, abi, functionName, args } = call;
  const from = typeof call.account === 'string' ? call.account : call.account?.address;
  const data = encodeFunctionData({ abi, functionName, args } as never);
  try {
    return hexToBigInt((await client.request({ method: 'eth_estimateGas', params: [{ from, to: address, data }] } as never)) as Hex);
  } catch (error) {
    throw getContractError(error as Error, { abi, address, args, functionName, sender: from, docsPath: '/docs/contract/estimateContractGas' });
  }
}

export type ChainReader = Pick<
  PublicClient,
  | 'readContract'
  | 'estimateContractGas'
  | 'estimateFeesPerGas'
  | 'getTransactionReceipt'
  | 'getTransactionCount'
  | 'getBalance'
>;

/** Binds the reads to `client` as viem's publicActions does (their generics are viem's, hence the cast). */
function readerOf(client: Client): ChainReader {
  const reader: Record<keyof ChainReader, (args: never) => unknown> = {
    readContract: (args) => readContract(client, args as ContractCall),
    estimateContractGas: (args) => estimateContractGas(client, args as ContractCall),
    estimateFeesPerGas: (args) => estimateFeesPerGas(client, args),
    getTransactionReceipt: (args) => getTransactionReceipt(client, args as { hash: Hex }),
    getTransactionCount: (args) => getTransactionCount(client, args),
    getBalance: (args) => getBalance(client, args as { address: Address }),
  };
  return reader as unknown as ChainReader;
}

/**
 * rpcFetch to the URL a reference to the RPC URL's secret stands for (./rpc-url.ts): viem is given the reference, so
 * its errors quote that; the secret is read on the first request, and a failure never quotes the URL.
 */
const rpcFetchViaSecret = (input: string | URL, init: RpcRequestInit = {}) => sendToRpc(String(input), (url) => rpcFetch(url, init), init.signal);

/** viem's HTTP transport over rpcFetch: no retries (a failed send must not go twice unseen), `timeoutMs` per request. */
function transportFor(rpcUrl: string, timeoutMs: number) {
  const fetchFn = rpcUrlSecretId(rpcUrl) === undefined ? rpcFetch : rpcFetchViaSecret;
  return http(rpcUrl, { retryCount: 0, timeout: timeoutMs, fetchFn: fetchFn as never });
}

const readers = new Map<string, ChainReader>();

/** One reader per RPC URL for the life of the process (warm Lambda invocations reuse it). */
export function publicClientFor(rpcUrl: string): ChainReader {
  let reader = readers.get(rpcUrl);
  if (!reader) {
    reader = readerOf(createClient({ transport: transportFor(rpcUrl, 10_000), pollingInterval: 250 }));
    readers.set(rpcUrl, reader);
  }
  return reader;
}

/** What a settler key sends with: its chain and the broadcast of a transaction it signed. */
export interface ChainSender {
  chain: Chain;
  /** One `eth_sendRawTransaction`, never repeated by viem; `signal` aborts it (the settler's lease deadline). */
  sendRawTransaction(args: { serializedTransaction: Hex; signal?: AbortSignal }): Promise<Hex>;
  /** Whether the node has the transaction (pending or mined): one `eth_getTransactionByHash`. */
  knows(hash: Hex, signal?: AbortSignal): Promise<boolean>;
}

export function senderFor(chain: Chain, rpcUrl: string): ChainSender {
  const client = createClient({ chain, transport: transportFor(rpcUrl, 15_000) });
  return {
    chain,
    sendRawTransaction: ({ serializedTransaction, signal }) =>
      signal
        ? (client.request({ method: 'eth_sendRawTransaction', params: [serializedTransaction] }, { retryCount: 0, signal }) as Promise<Hex>)
        : sendRawTransaction(client, { serializedTransaction }),
    knows: async (hash, signal) =>
      (await client.request({ method: 'eth_getTransactionByHash', params: [hash] } as never, { retryCount: 0, signal } as never)) !== null,
  };
}
