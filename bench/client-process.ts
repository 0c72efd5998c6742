/**
 * The buyers of the side-by-side bench (bench/block-time.ts), in a process of their own, so the CPU the official
 * client spends signing and sending is not counted against either server. Started with `fork`; each message runs one
 * measurement with bench/load.ts (the unmodified `@x402/fetch` client, one funded buyer per lane, each lane from its
 * own loopback source addresses) and answers its result. The chain-clock guard reads the chain over JSON-RPC.
 */
import { concurrent, chainClockGuard, payingFetch, SourceAddresses, type Buyer, type Guard } from './load.js';

export interface ClientRequest {
  id: number;
  url: string;
  body: string;
  buyers: Buyer[];
  perLane: number;
  budgetMs: number;
  /** The second octet of the lanes' loopback source addresses (127.<block>.<lane>.<n>): one block per side. */
  sourceBlock: number;
  /** Stop starting requests while the chain's clock leads the wall clock by more than this (automine only). */
  guard?: { rpcUrl: string; maxLeadSeconds: number };
  /** Each lane pauses a random time up to this before each request (bench/load.ts `concurrent`). */
  thinkMs?: number;
  /** Each paid answer's marks in the result (bench/load.ts LoadResult `answers`). */
  detail?: boolean;
}

const addresses = new Map<number, SourceAddresses>();

function guardOf(spec: ClientRequest['guard']): Guard | undefined {
  if (!spec) return undefined;
  const lead = async () => {
    const response = await fetch(spec.rpcUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['pending', false] }),
    });
    const { result } = (await response.json()) as { result: { timestamp: string } };
    return Number(BigInt(result.timestamp)) - Date.now() / 1000;
  };
  return chainClockGuard(lead, spec.maxLeadSeconds);
}

process.on('message', (message: ClientRequest | { stop: true }) => {
  if ('stop' in message) {
    void Promise.all([...addresses.values()].map((a) => a.close())).then(() => process.exit(0));
    return;
  }
  void (async () => {
    let block = addresses.get(message.sourceBlock);
    if (!block) addresses.set(message.sourceBlock, (block = new SourceAddresses(message.sourceBlock)));
    const lanes = message.buyers.map((buyer, i) => payingFetch(buyer, block.fetchFor(i)));
    try {
      const result = await concurrent(lanes, message.url, message.body, message.perLane, message.budgetMs, guardOf(message.guard), message.thinkMs, message.detail);
      process.send!({ id: message.id, result });
    } catch (error) {
      process.send!({ id: message.id, error: (error as Error).message });
    }
  })();
});
process.send!({ ready: true });
