/**
 * The embedded chain mining on an interval, as Base does (lib/local/chain.ts, `blockIntervalMs`): a block
 * at each wall-clock multiple of the interval that has a transaction pending, taking every pending one, none while
 * nothing is pending; the blocks go through the journal, so a restart (on automine this time) replays the same
 * chain; and stop() ends the timer.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWalletClient, custom, encodeFunctionData, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localChainDefinition, readLocalAccounts, startLocalChain, type KeyPair, type LocalChain } from '../../lib/local/chain.js';
import { CHAIN_JOURNAL } from '../../lib/local/chain-journal.js';
import { SelfSettler } from '../../lambdas/payments/settle.js';
import { usdcAbi } from '../../lambdas/payments/usdc-abi.js';
import { ViemPaymentVerifier } from '../../lambdas/payments/verify.js';
import { memoryLeases } from '../support/leases.js';
import { requirementFor, signedPayment } from '../unit/payments/fixtures.js';

const ARTIFACT_CACHE = fileURLToPath(new URL('../../node_modules/.cache/paycall-local-chain', import.meta.url));
const INTERVAL = 300;
const dirs: string[] = [];
const chains: LocalChain[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const chain of chains.splice(0)) await chain.stop();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function stateDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'chain-interval-'));
  dirs.push(dir);
  return dir;
}

async function start(dir: string, blockIntervalMs?: number): Promise<LocalChain> {
  const chain = await startLocalChain({ port: 0, stateDir: dir, buyerCount: 1, settlerCount: 2, artifactCacheDir: ARTIFACT_CACHE, blockIntervalMs });
  chains.push(chain);
  return chain;
}

async function stop(chain: LocalChain): Promise<void> {
  chains.splice(chains.indexOf(chain), 1);
  await chain.stop();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Just after the timer's next tick (a multiple of the interval): most of an interval before the one after. */
const afterTick = () => sleep(INTERVAL - (Date.now() % INTERVAL) + 30);

function rpcOf(chain: LocalChain) {
  return (method: string, ...params: unknown[]) => chain.provider.request({ method, params });
}

type Receipt = { blockNumber: Hex; blockHash: Hex; status: Hex; transactionHash: Hex } | null;

/** A zero-value transfer to itself from `key`, sent through viem as any client sends (nonce read at 'pending'). */
function sender(chain: LocalChain, key: KeyPair) {
  const wallet = createWalletClient({
    account: privateKeyToAccount(key.privateKey),
    chain: localChainDefinition(chain.rpcUrl, chain.chainId),
    transport: custom(chain.provider, { retryCount: 0 }),
  });
  return () => wallet.sendTransaction({ to: key.address, value: 0n });
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5 * INTERVAL): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last ${JSON.stringify(value)}`);
    await sleep(10);
  }
}

const journalLines = (dir: string) => readFileSync(path.join(dir, CHAIN_JOURNAL), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { m: string; n?: number; t?: number; h?: string });

describe('Local chain mining every blockIntervalMs', () => {
  it('mines the pending transactions together at the next tick, none while idle; pending counts and estimates work meanwhile', async () => {
    const failures = vi.spyOn(console, 'error');
    const dir = await stateDir();
    const chain = await start(dir, INTERVAL);
    const rpc = rpcOf(chain);
    expect(chain.blockIntervalMs).toBe(INTERVAL);
    expect(await rpc('hardhat_getAutomine')).toBe(false);
    // The start-up setup ran (on automine): the buyer holds its USDC.
    expect(await chain.balanceOf(chain.buyers[0].address)).toBe(1_000_000_000n);

    // Idle: no block, no journal line.
    const idleHead = await rpc('eth_blockNumber');
    const idleLines = journalLines(dir).length;
    await sleep(3 * INTERVAL);
    expect(await rpc('eth_blockNumber')).toBe(idleHead);
    expect(journalLines(dir).length).toBe(idleLines);

    // Two transactions sent at once: no receipt until the next tick, then both in one block, and only them.
    const accounts = await readLocalAccounts(dir);
    const [first, second] = [accounts.settler, accounts.extraSettlers![0]];
    await afterTick();
    const [a, b] = await Promise.all([sender(chain, first)(), sender(chain, second)()]);
    expect(await rpc('eth_getTransactionReceipt', a)).toBeNull();
    expect(await rpc('eth_blockNumber')).toBe(idleHead);
    // The nonce a settler reads: the mempool's transaction counts at 'pending', not yet at 'latest'.
    const latestCount = Number(await rpc('eth_getTransactionCount', first.address, 'latest'));
    expect(Number(await rpc('eth_getTransactionCount', first.address, 'pending'))).toBe(latestCount + 1);
    expect(Number(await rpc('eth_getBlockTransactionCountByNumber', 'pending'))).toBe(2);
    // Gas estimation against the latest block, with transactions pending.
    const mint = encodeFunctionData({ abi: usdcAbi, functionName: 'mint', args: [first.address, 1n] });
    expect(Number(await rpc('eth_estimateGas', { from: chain.minterAddress, to: chain.usdcAddress, data: mint }, 'latest'))).toBeGreaterThan(21_000);

    const sentAt = Date.now();
    const ra = (await until(() => rpc('eth_getTransactionReceipt', a) as Promise<Receipt>, Boolean))!;
    expect(Date.now() - sentAt).toBeLessThan(INTERVAL + 150);
    const rb = (await rpc('eth_getTransactionReceipt', b)) as Receipt;
    expect(rb?.blockHash).toBe(ra.blockHash);
    expect([ra.status, rb?.status]).toEqual(['0x1', '0x1']);
    expect(Number(ra.blockNumber)).toBe(Number(idleHead) + 1);
    const block = (await rpc('eth_getBlockByHash', ra.blockHash, false)) as { transactions: Hex[] };
    expect(block.transactions.sort()).toEqual([a, b].sort());
    expect(Number(await rpc('eth_getTransactionCount', first.address, 'latest'))).toBe(latestCount + 1);
    // The block is a journal line of its own: an evm_mine with its number and timestamp.
    expect(journalLines(dir).at(-1)).toMatchObject({ m: 'evm_mine', n: Number(ra.blockNumber) });

    // fund() waits for its block; an x402 payment settles within a block.
    expect(await chain.balanceOf(first.address)).toBe(0n);
    await chain.fund(first.address, 5n);
    expect(await chain.balanceOf(first.address)).toBe(5n);
    const requirement = requirementFor({ asset: chain.usdcAddress, payTo: chain.payTo });
    const config = { chainId: chain.chainId, rpcUrl: chain.rpcUrl };
    const checked = await new ViemPaymentVerifier({ config }).verify(await signedPayment(privateKeyToAccount(chain.buyers[0].privateKey), requirement), requirement);
    if (!checked.ok) throw new Error(checked.reason);
    const settling = Date.now();
    const settled = await new SelfSettler({ config: { ...config, settlerKeyFile: chain.settlerKeyFile }, leases: memoryLeases() }).settle(checked.payment);
    expect(settled).toMatchObject({ ok: true });
    expect(Date.now() - settling).toBeLessThan(INTERVAL + 1_000);
    expect(await chain.balanceOf(chain.payTo)).toBe(500_000n);

    // Idle again: still no empty blocks.
    const head = await rpc('eth_blockNumber');
    await sleep(2 * INTERVAL);
    expect(await rpc('eth_blockNumber')).toBe(head);
    expect(failures.mock.calls.filter(([line]) => String(line).includes('interval mining'))).toEqual([]);
  });

  it('stops its timer on stop(); a restart on automine replays the same blocks and mines what was left pending', async () => {
    const dir = await stateDir();
    const before = await start(dir, INTERVAL);
    const rpc = rpcOf(before);
    const accounts = await readLocalAccounts(dir);
    const send = sender(before, accounts.settler);
    const other = sender(before, accounts.extraSettlers![0]);

    // A few blocks of one and two transactions, several of them within one second (blocks may share a timestamp).
    const mined: Hex[] = [];
    for (let round = 0; round < 3; round++) {
      await afterTick();
      const hashes = round === 1 ? await Promise.all([send(), other()]) : [await send()];
      for (const hash of hashes) await until(() => rpc('eth_getTransactionReceipt', hash), Boolean);
      mined.push(...hashes);
    }
    const head = Number(await rpc('eth_blockNumber'));
    const blocks: unknown[] = [];
    for (let n = 0; n <= head; n++) blocks.push(await rpc('eth_getBlockByNumber', `0x${n.toString(16)}`, false));
    const receipts = await Promise.all(mined.map((hash) => rpc('eth_getTransactionReceipt', hash)));

    // One more, stopped before its tick: it stays pending, and no timer mines it after stop().
    await afterTick();
    const left = await send();
    await stop(before);
    const journal = readFileSync(path.join(dir, CHAIN_JOURNAL), 'utf8');
    await sleep(2 * INTERVAL);
    expect(readFileSync(path.join(dir, CHAIN_JOURNAL), 'utf8')).toBe(journal);
    expect(journalLines(dir).at(-1)).toMatchObject({ m: 'eth_sendRawTransaction', h: left });

    const after = await start(dir);
    const again = rpcOf(after);
    expect(after.blockIntervalMs).toBe(0);
    expect(await again('hardhat_getAutomine')).toBe(true);
    for (let n = 0; n <= head; n++) expect(await again('eth_getBlockByNumber', `0x${n.toString(16)}`, false)).toEqual(blocks[n]);
    expect(await Promise.all(mined.map((hash) => again('eth_getTransactionReceipt', hash)))).toEqual(receipts);
    // The transaction left pending was mined at the start, after the replayed head.
    const leftReceipt = (await again('eth_getTransactionReceipt', left)) as Receipt;
    expect(leftReceipt?.status).toBe('0x1');
    expect(Number(leftReceipt!.blockNumber)).toBeGreaterThan(head);
    expect(Number(await again('eth_getBlockTransactionCountByNumber', 'pending'))).toBe(0);
    // Automine: a block per transaction, its receipt there as soon as the send is answered.
    const now = await sender(after, accounts.settler)();
    expect(((await again('eth_getTransactionReceipt', now)) as Receipt)?.status).toBe('0x1');
    await stop(after);

    // And back to interval mining on the same journal: the setting of the current start wins.
    const third = await start(dir, INTERVAL);
    expect(await rpcOf(third)('hardhat_getAutomine')).toBe(false);
    expect(((await rpcOf(third)('eth_getTransactionReceipt', now)) as Receipt)?.status).toBe('0x1');
  });

  it('a settler that knows the block interval asks for its receipt around the block, not from the send throughout, and answers as soon', async () => {
    const blockMs = 1_000;
    const pollMs = 25;
    const chain = await start(await stateDir(), blockMs);
    const requirement = requirementFor({ asset: chain.usdcAddress, payTo: chain.payTo });
    const config = { chainId: chain.chainId, rpcUrl: chain.rpcUrl, settlerKeyFile: chain.settlerKeyFile, receiptPollMs: pollMs };
    const verifier = new ViemPaymentVerifier({ config });
    const buyer = privateKeyToAccount(chain.buyers[0].privateKey);
    const receiptPolls = () => chain.rpcCalls().eth_getTransactionReceipt ?? 0;

    /** Settlements sent at the given offsets into a block: each one's receipt polls and its delay after its block. */
    async function settleAt(settler: SelfSettler, offsets: number[]) {
      const seen: { polls: number; lateMs: number }[] = [];
      for (const offset of offsets) {
        await sleep((offset - (Date.now() % blockMs) + blockMs) % blockMs);
        const checked = await verifier.verify(await signedPayment(buyer, requirement), requirement);
        if (!checked.ok) throw new Error(checked.reason);
        const polls = receiptPolls();
        const settled = await settler.settle(checked.payment);
        const answeredAt = Date.now();
        if (!settled.ok) throw new Error(settled.reason);
        // The chain mines at each multiple of the interval: the answer's delay after the block that holds it.
        seen.push({ polls: receiptPolls() - polls, lateMs: answeredAt % blockMs });
      }
      return seen;
    }

    const offsets = [150, 420, 610, 880, 300];
    const unpaced = await settleAt(new SelfSettler({ config, leases: memoryLeases() }), offsets);
    const paced = new SelfSettler({ config: { ...config, blockTimeMs: blockMs }, leases: memoryLeases() });
    // Its first settlement polls from the send and learns when the blocks come; the others are paced.
    const [learning, ...rest] = await settleAt(paced, [200, ...offsets]);
    expect(learning.polls).toBeGreaterThan(5);
    const total = (list: { polls: number }[]) => list.reduce((n, s) => n + s.polls, 0);
    expect(total(rest)).toBeLessThanOrEqual(total(unpaced) / 2);
    for (const s of rest) expect(s.polls).toBeLessThanOrEqual(6);
    // As soon: each answer within a few polls of its block, as polling throughout answers.
    for (const s of [...unpaced, ...rest]) expect(s.lateMs).toBeLessThan(250);
  }, 30_000);

  it('refuses a blockIntervalMs that is not a whole number of ms', async () => {
    const dir = await stateDir();
    await expect(start(dir, -1)).rejects.toThrow(/blockIntervalMs must be a whole number of ms/);
    await expect(start(dir, 2.5)).rejects.toThrow(/blockIntervalMs must be a whole number of ms/);
  });
});
