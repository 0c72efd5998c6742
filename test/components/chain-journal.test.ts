/**
 * The embedded chain keeps its state in the state dir (lib/local/chain-journal.ts): a restart replays every change
 * it accepted, so receipts, balances and blocks come back as they were; a line cut by a kill is dropped; one chain
 * per state dir; and no change can be seen before it is journaled.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalChain, type LocalChain } from '../../lib/local/chain.js';
import { CHAIN_JOURNAL, journaledProvider } from '../../lib/local/chain-journal.js';
import type { Eip1193Like } from '../../lib/local/rpc-server.js';
import { SelfSettler } from '../../lambdas/payments/settle.js';
import { ViemPaymentVerifier } from '../../lambdas/payments/verify.js';
import { memoryLeases } from '../support/leases.js';
import { requirementFor, signedPayment } from '../unit/payments/fixtures.js';

const ARTIFACT_CACHE = fileURLToPath(new URL('../../node_modules/.cache/paycall-local-chain', import.meta.url));
const dirs: string[] = [];
const chains: LocalChain[] = [];

afterEach(async () => {
  for (const chain of chains.splice(0)) await chain.stop();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function stateDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'chain-journal-'));
  dirs.push(dir);
  return dir;
}

async function start(dir: string, buyerCount = 3, network?: 'eip155:84532'): Promise<LocalChain> {
  const chain = await startLocalChain({ port: 0, stateDir: dir, buyerCount, artifactCacheDir: ARTIFACT_CACHE, network });
  chains.push(chain);
  return chain;
}

async function stop(chain: LocalChain): Promise<void> {
  chains.splice(chains.indexOf(chain), 1);
  await chain.stop();
}

/** An x402 payment of 0.5 USDC from the chain's first buyer to its pay-to, self-settled; returns its transaction. */
async function pay(chain: LocalChain): Promise<Hex> {
  const requirement = requirementFor({ asset: chain.usdcAddress, payTo: chain.payTo });
  const config = { chainId: chain.chainId, rpcUrl: chain.rpcUrl };
  const checked = await new ViemPaymentVerifier({ config }).verify(await signedPayment(privateKeyToAccount(chain.buyers[0].privateKey), requirement), requirement);
  if (!checked.ok) throw new Error(checked.reason);
  const settled = await new SelfSettler({ config: { ...config, settlerKeyFile: chain.settlerKeyFile }, leases: memoryLeases() }).settle(checked.payment);
  if (!settled.ok) throw new Error(settled.reason);
  return settled.transaction as Hex;
}

describe('Local chain: a restart on the same state dir keeps the chain', () => {
  it('keeps keys, token, balances, receipts and block hashes; tops a buyer up to its amount; its clock follows the wall clock', async () => {
    const dir = await stateDir();
    const before = await start(dir);
    const paid = await pay(before);
    const reader = createPublicClient({ transport: http(before.rpcUrl, { retryCount: 0 }) });
    const receipt = await reader.getTransactionReceipt({ hash: paid });
    const code = await reader.getCode({ address: before.usdcAddress });
    await stop(before);

    const after = await start(dir, 4);
    const again = createPublicClient({ transport: http(after.rpcUrl, { retryCount: 0 }) });
    expect([after.payTo, after.settlerAddresses, after.buyers.slice(0, 3)]).toEqual([before.payTo, before.settlerAddresses, before.buyers]);
    const replayed = await again.getTransactionReceipt({ hash: paid });
    expect({ block: replayed.blockNumber, hash: replayed.blockHash, status: replayed.status }).toEqual({
      block: receipt.blockNumber,
      hash: receipt.blockHash,
      status: 'success',
    });
    expect(await again.getCode({ address: after.usdcAddress })).toBe(code);
    expect(await after.balanceOf(after.payTo)).toBe(500_000n);
    // The buyer that paid holds its amount again (a top-up mint); the new buyer gets its first.
    expect(await after.balanceOf(after.buyers[0].address)).toBe(1_000_000_000n);
    expect(await after.balanceOf(after.buyers[3].address)).toBe(1_000_000_000n);
    // The replayed chain's clock is brought back to the wall clock: authorizations signed now are valid on it.
    const latest = await again.getBlock({ blockTag: 'latest' });
    expect(Number(latest.timestamp)).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 5);
    // And it pays again after the restart.
    expect((await again.getTransactionReceipt({ hash: await pay(after) })).status).toBe('success');
  });

  it('drops a last line cut by a kill and replays up to it', async () => {
    const dir = await stateDir();
    const before = await start(dir);
    const paid = await pay(before);
    await stop(before);
    const journal = path.join(dir, CHAIN_JOURNAL);
    const whole = readFileSync(journal, 'utf8');
    appendFileSync(journal, '{"m":"eth_sendRawTransaction","p":["0x02f8');

    const after = await start(dir);
    expect((await createPublicClient({ transport: http(after.rpcUrl, { retryCount: 0 }) }).getTransactionReceipt({ hash: paid })).status).toBe('success');
    const now = readFileSync(journal, 'utf8');
    expect(now.startsWith(whole)).toBe(true);
    expect(now.endsWith('\n')).toBe(true);
    expect(now).not.toContain('"0x02f8"');
  });

  it('runs one chain per state dir, and takes over the lock of a process that died', async () => {
    const dir = await stateDir();
    const first = await start(dir);
    await expect(start(dir)).rejects.toThrow(`The chain in ${dir} is in use by process ${process.pid}: one service per state dir`);
    await stop(first);
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(path.join(dir, 'chain.lock'), `${dead}\n`);
    await start(dir);
  });

  it('refuses the journal of another chain id', async () => {
    const dir = await stateDir();
    await stop(await start(dir));
    await expect(start(dir, 3, 'eip155:84532')).rejects.toThrow(`holds a chain with id 8453, not 84532: use another state dir`);
  });

  it('refuses interval mining, whose blocks a timer would mine outside the journal', async () => {
    const chain = await start(await stateDir());
    await expect(chain.provider.request({ method: 'evm_setIntervalMining', params: [1000] })).rejects.toThrow(/Interval mining is off/);
  });
});

describe('Local chain journal: nothing is seen before it is journaled', () => {
  it('holds a read back while a change is in flight, and answers the change only after its line is written', async () => {
    const dir = await stateDir();
    const file = path.join(dir, CHAIN_JOURNAL);
    const forwarded: string[] = [];
    let land!: () => void;
    const landing = new Promise<void>((resolve) => (land = resolve));
    const simulator: Eip1193Like = {
      request: async ({ method }) => {
        forwarded.push(method);
        if (method === 'eth_sendRawTransaction') {
          await landing;
          return '0xabc';
        }
        if (method === 'eth_getBlockByNumber') return { number: '0x1', timestamp: '0x64' };
        return '0x0';
      },
    };
    const provider = await journaledProvider(simulator, file, { v: 1, chainId: 8453, genesis: new Date(0).toISOString() });
    forwarded.length = 0;
    const sent = provider.request({ method: 'eth_sendRawTransaction', params: ['0x02'] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const read = provider.request({ method: 'eth_getTransactionReceipt', params: ['0xabc'] }).then(() => {
      // By the time a read gets through, the change is on disk.
      expect(readFileSync(file, 'utf8')).toContain('"h":"0xabc"');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(forwarded).toEqual(['eth_sendRawTransaction']);
    land();
    expect(await sent).toBe('0xabc');
    await read;
    expect(forwarded).toEqual(['eth_sendRawTransaction', 'eth_getBlockByNumber', 'eth_getTransactionReceipt']);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(lines[1]).toEqual({ m: 'eth_sendRawTransaction', p: ['0x02'], n: 1, t: 100, h: '0xabc' });
  });
});
