/**
 * The side-by-side bench's shared setup, apart from its measurement: the requests' bodies and prices, its pacing
 * constants, the buyers' client and the reference, each in a child process of its own (so /proc can tell their CPU
 * apart from ours), and the mint that funds every buyer. bench/block-time.ts and bench/settlement.ts both use them.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createWalletClient, createPublicClient, http, nonceManager, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { PROJECT_ROOT, type EmbeddedRuntime } from '../lib/local/runtime.js';
import { readLocalAccounts, localChainDefinition } from '../lib/local/chain.js';
import { usdcAbi } from '../lambdas/payments/usdc-abi.js';
import type { Buyer, LoadResult } from './load.js';
import type { ClientRequest } from './client-process.js';
import type { ReferenceTiming } from './reference-server.js';
import { findAgent } from '../lambdas/agents/registry.js';

export const BENCH_STATEMENT = 'Date,Description,Amount\n2026-11-02,Deposit INV-2001,2400.00\n2026-11-05,CHECK 3101,-850.00\n2026-11-30,Interest,3.15\n';
export const BENCH_BOOKS = 'Date,Memo,Amount,Check No\n2026-11-01,INV-2001 receipt,2400.00,\n2026-11-03,Rent,-850.00,3101\n';
export const BENCH_PROMPT = 'benchmark lighthouse at dusk';
export const IMAGE_PRICE = 150_000n;
/** The agent the reasoning side runs (AGENT_REASONING names it for the bench's runtime), on a PO and its own invoice. */
export const REASONING_AGENT = findAgent('po-match-gate-mkgu0')!;
export const BENCH_PO = 'PO Number: PO-7781\nVendor: Acme\nWID-10 Widget 10 x $2.50 = $25.00\nTotal: $25.00';
/** The Bedrock fake's Converse time for the reasoning side (BENCH_MODEL_MS, default 1500 ms: a short tool answer); 0: none. */
export const MODEL_MS = Number(process.env.BENCH_MODEL_MS ?? 1500);
export const RUN_PRICE = 60_000n;
/** Longest wait for this process to go idle before a measurement (our render jobs drain in the background). */
export const QUIET_MS = 60_000;
/** Warm-up requests per buyer before each level (not timed). */
export const WARM_PER_LANE = 3;
/** No phase starts a request after this; requests in flight finish. */
export const PHASE_BUDGET_MS = Number(process.env.BENCH_PHASE_MS ?? 120_000);

// ---------- the child processes ----------

export interface ClientHandle {
  pid: number;
  run(request: Omit<ClientRequest, 'id'>): Promise<LoadResult>;
  stop(): Promise<void>;
}

export async function startClient(): Promise<ClientHandle> {
  const child = fork(join(PROJECT_ROOT, 'bench', 'client-process.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();
  let next = 0;
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message: { ready?: true; id?: number; result?: LoadResult; error?: string }) => {
      if (message.ready) return resolve();
      const waiting = pending.get(message.id!);
      pending.delete(message.id!);
      if (message.error) waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.result!);
    });
  });
  return {
    pid: child.pid!,
    run: (request) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        child.send({ ...request, id });
      }),
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.send({ stop: true });
  });
}

export interface ReferenceHandle {
  pid: number;
  url: string;
  pollingIntervalMs: number;
  /** Its settled payments since the last call (bench/reference-server.ts `timings`). */
  timings(): Promise<ReferenceTiming[]>;
  stop(): Promise<void>;
}

export async function startReferenceProcess(rpcUrl: string, payTo: Address): Promise<ReferenceHandle> {
  const pollingIntervalMs = process.env.BENCH_REFERENCE_POLL_MS ? Number(process.env.BENCH_REFERENCE_POLL_MS) : undefined;
  const child = fork(join(PROJECT_ROOT, 'bench', 'reference-process.ts'), [JSON.stringify({ rpcUrl, payTo, pollingIntervalMs })], {
    execArgv: ['--import', 'tsx'],
    // The reference logs nothing we need; its errors still reach stderr.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const started = await new Promise<{ url: string; pollingIntervalMs: number }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the reference exited with ${code}`)));
    child.once('message', (message: { url: string; pollingIntervalMs: number }) => resolve(message));
  });
  child.removeAllListeners('exit');
  const timings = () =>
    new Promise<ReferenceTiming[]>((resolve) => {
      const answer = (message: { timings?: ReferenceTiming[] }) => {
        if (!message.timings) return;
        child.off('message', answer);
        resolve(message.timings);
      };
      child.on('message', answer);
      child.send({ timings: true });
    });
  return { pid: child.pid!, ...started, timings, stop: () => stopChild(child) };
}

// ---------- funding ----------

/** Mints `amount` to every buyer at once (consecutive minter nonces: one block under interval mining), then waits. */
export async function fundAll(runtime: EmbeddedRuntime, stateDir: string, buyers: Buyer[], amount: bigint): Promise<void> {
  const { minter } = await readLocalAccounts(stateDir);
  const chain = localChainDefinition(runtime.info.rpcUrl, runtime.chain.chainId);
  const transport = http(runtime.info.rpcUrl, { retryCount: 0 });
  const wallet = createWalletClient({ account: privateKeyToAccount(minter.privateKey, { nonceManager }), chain, transport });
  const reader = createPublicClient({ chain, transport, pollingInterval: 50 });
  const hashes: Hex[] = [];
  for (const buyer of buyers) {
    hashes.push(await wallet.writeContract({ address: runtime.chain.usdcAddress, abi: usdcAbi, functionName: 'mint', args: [buyer.address, amount] }));
  }
  for (const hash of hashes) {
    const receipt = await reader.waitForTransactionReceipt({ hash, timeout: 60_000 });
    if (receipt.status !== 'success') throw new Error(`funding mint ${hash} reverted`);
  }
}
