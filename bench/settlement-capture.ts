/**
 * What the settlement bench (bench/settlement.ts) collects besides the buyers' own marks, without a second code path
 * in the service:
 * - the settlement timing lines the function instances write at LOG_LEVEL=DEBUG (lambdas/payments/settlement-timing.ts),
 *   read off this process's stdout, where the embedded runtime's instances (worker threads) write theirs; the other
 *   INFO and DEBUG lines DEBUG turns on are dropped, warnings and errors still pass;
 * - the chain's own view, from its in-process provider (the one the JSON-RPC front, the preconfirmation endpoint and
 *   the interval miner all call): when each raw transaction reached the node, and when each block was mined.
 */
import { keccak256, type Hex } from 'viem';
import { SETTLEMENT_TIMING } from '../lambdas/payments/settlement-timing.js';
import { epochMs } from './load.js';

/** One layer's line: `layer`, the request's `function_request_id`, and its marks. */
export type TimingLine = { layer: 'verify' | 'purchase' | 'settle'; function_request_id?: string } & Record<string, unknown>;

export interface LineCapture {
  /** The timing lines read since the last call (drained). */
  take(): TimingLine[];
  stop(): void;
}

export function captureTimingLines(stream: NodeJS.WriteStream = process.stdout): LineCapture {
  const original = stream.write;
  let partial = '';
  let lines: TimingLine[] = [];
  const marker = `"${SETTLEMENT_TIMING}"`;
  stream.write = function (chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const done = typeof encoding === 'function' ? encoding : callback;
    partial += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    let passed = '';
    for (let end = partial.indexOf('\n'); end >= 0; end = partial.indexOf('\n')) {
      const line = partial.slice(0, end);
      partial = partial.slice(end + 1);
      const parsed = line.startsWith('{') ? parseJson(line) : undefined;
      if (parsed && line.includes(marker)) lines.push(parsed as TimingLine);
      else if (!(parsed && (parsed.level === 'INFO' || parsed.level === 'DEBUG'))) passed += `${line}\n`;
    }
    if (passed) return (original as (text: string, cb?: () => void) => boolean).call(stream, passed, done as (() => void) | undefined);
    if (typeof done === 'function') queueMicrotask(done as () => void);
    return true;
  } as typeof stream.write;
  return {
    take: () => {
      const taken = lines;
      lines = [];
      return taken;
    },
    stop: () => {
      stream.write = original;
    },
  };
}

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** A block as the miner made it: `calledAt` when evm_mine was asked (its tick), `minedAt` when it was done (epoch ms). */
export interface MinedBlock {
  number: number;
  calledAt: number;
  minedAt: number;
}

export interface ChainWatch {
  /** When each transaction (by hash) reached the node, epoch ms. */
  arrivals(): Map<string, number>;
  blocks(): Map<number, MinedBlock>;
  /** The block holding each of `hashes` (undefined: not mined, or unknown). */
  blockOf(hashes: string[]): Promise<Map<string, number>>;
}

type Provider = { request(args: { method: string; params?: unknown[] | object }): Promise<unknown> };

export function watchChain(provider: Provider): ChainWatch {
  const original = provider.request.bind(provider);
  // Raw transactions kept as sent, hashed when read: the node's path pays a push, not a keccak.
  const raw: { tx: Hex; at: number }[] = [];
  const hashed = new Map<string, number>();
  const mined = new Map<number, MinedBlock>();
  provider.request = async (args) => {
    if (args.method === 'eth_sendRawTransaction') raw.push({ tx: (args.params as Hex[])[0], at: epochMs() });
    if (args.method !== 'evm_mine') return original(args);
    const calledAt = epochMs();
    const result = await original(args);
    const minedAt = epochMs();
    void original({ method: 'eth_blockNumber', params: [] }).then((n) => {
      const number = Number(n);
      mined.set(number, { number, calledAt, minedAt });
    });
    return result;
  };
  return {
    arrivals: () => {
      for (const { tx, at } of raw.splice(0)) if (!hashed.has(keccak256(tx))) hashed.set(keccak256(tx), at);
      return hashed;
    },
    blocks: () => mined,
    blockOf: async (hashes) => {
      const found = new Map<string, number>();
      for (const hash of hashes) {
        const receipt = (await original({ method: 'eth_getTransactionReceipt', params: [hash] }).catch(() => null)) as { blockNumber?: string } | null;
        if (receipt?.blockNumber) found.set(hash.toLowerCase(), Number(receipt.blockNumber));
      }
      return found;
    },
  };
}
