/**
 * The chain calls the payment code makes, as viem's actions (viem/actions) bound to a bare viem Client. viem's
 * PublicClient and WalletClient decorate a client with every action viem has (ENS, multicall, simulation, …), which
 * cost each paid function ~160 KB; these carry only the ones called. A PublicClient has every member of
 * ChainReader, so the tests and the local chain can still hand one in.
 */
import { createClient, http, type Chain, type Client, type Hex, type PublicClient } from 'viem';
import {
  estimateContractGas,
  estimateFeesPerGas,
  getBalance,
  getBlockNumber,
  getContractEvents,
  getTransactionCount,
  readContract,
  sendRawTransaction,
  waitForTransactionReceipt,
} from 'viem/actions';

export type ChainReader = Pick<
  PublicClient,
  | 'readContract'
  | 'estimateContractGas'
  | 'estimateFeesPerGas'
  | 'waitForTransactionReceipt'
  | 'getTransactionCount'
  | 'getBalance'
  | 'getBlockNumber'
  | 'getContractEvents'
>;

/** Binds the reads to `client` as viem's publicActions does (their generics are viem's, hence the cast). */
function readerOf(client: Client): ChainReader {
  const reader: Record<keyof ChainReader, (args: never) => unknown> = {
    readContract: (args) => readContract(client, args),
    estimateContractGas: (args) => estimateContractGas(client, args),
    estimateFeesPerGas: (args) => estimateFeesPerGas(client, args),
    waitForTransactionReceipt: (args) => waitForTransactionReceipt(client, args),
    getTransactionCount: (args) => getTransactionCount(client, args),
    getBalance: (args) => getBalance(client, args),
    getBlockNumber: (args) => getBlockNumber(client, args),
    getContractEvents: (args) => getContractEvents(client, args),
  };
  return reader as unknown as ChainReader;
}

const readers = new Map<string, ChainReader>();

/** One reader per RPC URL for the life of the process (warm Lambda invocations reuse it). */
export function publicClientFor(rpcUrl: string): ChainReader {
  let reader = readers.get(rpcUrl);
  if (!reader) {
    reader = readerOf(createClient({ transport: http(rpcUrl, { retryCount: 0, timeout: 10_000 }), pollingInterval: 250 }));
    readers.set(rpcUrl, reader);
  }
  return reader;
}

/** What a settler key sends with: its chain and the broadcast of a transaction it signed. */
export interface ChainSender {
  chain: Chain;
  sendRawTransaction(args: { serializedTransaction: Hex }): Promise<Hex>;
}

export function senderFor(chain: Chain, rpcUrl: string): ChainSender {
  const client = createClient({ chain, transport: http(rpcUrl, { retryCount: 0, timeout: 15_000 }) });
  return { chain, sendRawTransaction: (args) => sendRawTransaction(client, args) };
}
