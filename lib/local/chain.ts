/**
 * The embedded default's blockchain: Hardhat 3's in-process EDR simulator with chain id 8453, a USDC-like EIP-3009
 * token at Base's real USDC address, funded buyer accounts and a JSON-RPC endpoint on loopback. Configured as Base
 * Sepolia (`network: 'eip155:84532'`) it is that network instead: its chain id, Circle's Sepolia USDC address and
 * that token's EIP-712 name (`USDC`), all from the network table (lambdas/shared/networks.ts).
 *
 * The chain persists in the state dir as the jobs do: the keys in <stateDir>/accounts.json (addresses stay stable
 * for a given state dir) and everything that changed the chain in its journal (lib/local/chain-journal.ts), replayed
 * at the next start, so a restart — or a crash — keeps every transaction, balance and receipt. The start-up setup
 * (the token's code and slots, the keys' gas, the buyers' USDC) only does what the replayed chain lacks: the token
 * is placed once, gas is topped up when below half, and a buyer holding less than `buyerUsdc` is minted the rest.
 *
 * Blocks: by default the chain automines, one block per transaction, mined before its send is answered. With
 * `blockIntervalMs` it mines as Base does, a block every so many ms taking every pending transaction: a paid answer
 * then waits for its transfer's block (half an interval on average). EDR's own interval timer would mine blocks the
 * journal never sees, so automine is switched off through the journal (`evm_setAutomine`) and a timer here mines with
 * `evm_mine` through the journal, at each wall-clock multiple of the interval when something is pending: each block
 * is a journal line with its timestamp, and a replay mines the same blocks. The setting of the current start wins:
 * the start-up setup runs on automine (the replayed chain's leftover pending transactions mined first), then the
 * interval, if any, is switched on.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BaseError,
  NonceTooLowError,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  getAddress,
  numberToHex,
  pad,
  stringToHex,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { usdcAbi } from '../../lambdas/payments/usdc-abi.js';
import { NETWORKS, type NetworkId } from '../../lambdas/shared/networks.js';
import { startRpcServer, type Eip1193Like } from './rpc-server.js';
import { ChainJournalError, openJournal, restoreChain, type OpenJournal } from './chain-journal.js';
import { usdcRuntimeCode } from './usdc-token.js';

/** The network the local chain is by default: Base mainnet (what unmodified x402 clients pay by default). */
export const LOCAL_NETWORK: NetworkId = 'eip155:8453';
export const LOCAL_CHAIN_ID: number = NETWORKS[LOCAL_NETWORK].chainId;
/** Base mainnet USDC: x402 clients only pay this asset on eip155:8453 by default, so the local token lives here. */
export const BASE_USDC_ADDRESS: Address = NETWORKS[LOCAL_NETWORK].usdcAddress;
const GAS_ETH = 10n ** 21n; // 1000 ETH for the settler and minter; buyers are gasless
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface KeyPair {
  address: Address;
  privateKey: Hex;
}

export interface LocalAccounts {
  settler: KeyPair;
  /** More settlement keys after `settler` (the pool; each its own nonce sequence). */
  extraSettlers?: KeyPair[];
  minter: KeyPair;
  payTo: KeyPair;
  buyers: KeyPair[];
}

export interface LocalChainOptions {
  /** The network the chain stands in for (chain id, token address and token name); default Base mainnet. */
  network?: NetworkId;
  /** 0 picks a free port; the chosen one is in `rpcUrl`/`port`. */
  port?: number;
  stateDir: string;
  buyerCount?: number;
  /** Base units each buyer holds after start. */
  buyerUsdc?: bigint;
  /** Where the compiled token is cached; defaults to <stateDir>/cache. Tests share one to skip solc. */
  artifactCacheDir?: string;
  /** How many settlement keys (the pool the settler leases from); default 4. */
  settlerCount?: number;
  /**
   * Ms between blocks, as Base's 2 s: a block at each multiple of it (wall clock) that has a transaction pending.
   * Undefined or 0: automine, a block per transaction (the default).
   */
  blockIntervalMs?: number;
}

export interface LocalChain {
  rpcUrl: string;
  port: number;
  /** The network it stands in for (CAIP-2), whose chain id, token address and token name it has. */
  network: NetworkId;
  chainId: number;
  usdcAddress: Address;
  /** The token's `name()`, the name of its EIP-712 domain. */
  tokenName: string;
  payTo: Address;
  /** The first settlement key's address. */
  settlerAddress: Address;
  /** Every settlement key's address (the pool in settlerKeyFile, one key per line). */
  settlerAddresses: Address[];
  minterAddress: Address;
  settlerKeyFile: string;
  /** The pay-to account's key: on the embedded default refunds are paid back from the account that was paid. */
  refundKeyFile: string;
  buyers: KeyPair[];
  /** The in-process provider, for callers in the same process that want to skip HTTP. */
  provider: Eip1193Like;
  /** Ms between blocks it mines (a block at each multiple that has a transaction pending); 0: automine. */
  blockIntervalMs: number;
  /** JSON-RPC requests its HTTP front has answered, by method (lib/local/rpc-server.ts). */
  rpcCalls(): Record<string, number>;
  fund(address: Address, amountBaseUnits: bigint): Promise<Hex>;
  balanceOf(address: Address): Promise<bigint>;
  stop(): Promise<void>;
}

export class LocalChainError extends Error {
  override name = 'LocalChainError';
}

export function localChainDefinition(rpcUrl: string, chainId = LOCAL_CHAIN_ID): Chain {
  return defineChain({
    id: chainId,
    name: `Local eip155:${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export function accountsFile(stateDir: string): string {
  return path.join(stateDir, 'accounts.json');
}

export async function readLocalAccounts(stateDir: string): Promise<LocalAccounts> {
  const file = accountsFile(stateDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new LocalChainError(`No local accounts at ${file}: start the service first (npm start)`);
  }
  const parsed = JSON.parse(text) as LocalAccounts;
  if (!parsed?.minter?.privateKey || !parsed.settler?.privateKey || !Array.isArray(parsed.buyers)) {
    throw new LocalChainError(`${file} is not a local accounts file`);
  }
  return parsed;
}

function newKeyPair(): KeyPair {
  const privateKey = generatePrivateKey();
  return { address: privateKeyToAccount(privateKey).address, privateKey };
}

/** Loads the persisted keys, creating missing ones; a larger buyerCount appends buyers and keeps the old ones. */
async function loadOrCreateAccounts(stateDir: string, buyerCount: number, settlerCount: number): Promise<LocalAccounts> {
  let accounts: LocalAccounts | undefined;
  try {
    accounts = await readLocalAccounts(stateDir);
  } catch (error) {
    if (!(error instanceof LocalChainError) || !String(error.message).startsWith('No local accounts')) throw error;
  }
  const before = JSON.stringify(accounts ?? null);
  accounts ??= { settler: newKeyPair(), minter: newKeyPair(), payTo: newKeyPair(), buyers: [] };
  while (accounts.buyers.length < buyerCount) accounts.buyers.push(newKeyPair());
  accounts.extraSettlers ??= [];
  while (accounts.extraSettlers.length < settlerCount - 1) accounts.extraSettlers.push(newKeyPair());
  if (JSON.stringify(accounts) !== before) await writeSecret(accountsFile(stateDir), `${JSON.stringify(accounts, null, 2)}\n`);
  return accounts;
}

async function writeSecret(file: string, content: string): Promise<void> {
  await writeFile(file, content, { mode: 0o600 });
  await chmod(file, 0o600); // mode only applies on create; tighten a pre-existing file too
}

/**
 * Mints test USDC with the minter key and waits for the receipt. Shared with bin/fund.ts, so several processes
 * (two `npm run fund` runs, parallel test files) may mint at once: each reads the minter's account nonce on its
 * own, and the loser of a race gets "nonce too low". That mint was never included, so it is sent again.
 */
export async function mintUsdc(
  transport: Transport,
  chain: Chain,
  minterKey: Hex,
  usdcAddress: Address,
  to: Address,
  amountBaseUnits: bigint,
  attempts = 8,
): Promise<Hex> {
  const account = privateKeyToAccount(minterKey);
  const wallet = createWalletClient({ account, chain, transport });
  const reader = createPublicClient({ chain, transport, pollingInterval: 50 });
  for (let attempt = 1; ; attempt++) {
    let hash: Hex;
    try {
      hash = await wallet.writeContract({
        address: usdcAddress,
        abi: usdcAbi,
        functionName: 'mint',
        args: [getAddress(to), amountBaseUnits],
      });
    } catch (error) {
      if (attempt >= attempts || !isNonceCollision(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40 * attempt));
      continue;
    }
    const receipt = await reader.waitForTransactionReceipt({ hash, timeout: 30_000 });
    if (receipt.status !== 'success') throw new LocalChainError(`mint transaction ${hash} reverted`);
    return hash;
  }
}

/** Another sender took this account nonce first (viem's typed error, or the node's message when it is not mapped). */
export function isNonceCollision(error: unknown): boolean {
  if (error instanceof BaseError && error.walk((e) => e instanceof NonceTooLowError)) return true;
  return /nonce too low|nonce provided for the transaction is lower/i.test(String((error as Error)?.message ?? error));
}

export async function startLocalChain(options: LocalChainOptions): Promise<LocalChain> {
  const { stateDir, port = 0, buyerCount = 3, buyerUsdc = 1_000_000_000n, settlerCount = 4, network = LOCAL_NETWORK } = options;
  const blockIntervalMs = options.blockIntervalMs ?? 0;
  if (settlerCount < 1) throw new LocalChainError('settlerCount must be at least 1');
  if (!Number.isSafeInteger(blockIntervalMs) || blockIntervalMs < 0) {
    throw new LocalChainError(`blockIntervalMs must be a whole number of ms (0: automine), got ${String(options.blockIntervalMs)}`);
  }
  if (!NETWORKS[network]) throw new LocalChainError(`Unknown network ${network}; supported: ${Object.keys(NETWORKS).join(', ')}`);
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  let journal: OpenJournal;
  try {
    journal = openJournal(stateDir, NETWORKS[network].chainId);
  } catch (error) {
    throw asLocalChainError(error);
  }
  let connection: Connection | undefined;
  try {
    const [setup, simulator] = await Promise.allSettled([
      Promise.all([
        loadOrCreateAccounts(stateDir, buyerCount, settlerCount),
        usdcRuntimeCode(options.artifactCacheDir ?? path.join(stateDir, 'cache')),
      ]),
      connectSimulator(NETWORKS[network].chainId, journal.genesis),
    ]);
    if (simulator.status === 'fulfilled') connection = simulator.value;
    if (setup.status === 'rejected') throw setup.reason;
    if (simulator.status === 'rejected') throw simulator.reason;
    const [accounts, runtimeCode] = setup.value;
    return await prepare(connection!, journal, accounts, runtimeCode, {
      network,
      stateDir,
      port,
      buyerCount,
      buyerUsdc,
      settlerCount,
      blockIntervalMs,
    });
  } catch (error) {
    // A half-started chain must not keep the process alive (e.g. when the port is taken), nor its state dir locked.
    await connection?.close().catch(() => undefined);
    journal.release();
    throw asLocalChainError(error);
  }
}

/** The journal's refusals (a damaged journal, a state dir in use) are this module's errors to its callers. */
function asLocalChainError(error: unknown): unknown {
  return error instanceof ChainJournalError ? new LocalChainError(error.message, { cause: error }) : error;
}

type Connection = { provider: unknown; close(): Promise<void> };

async function prepare(
  connection: Connection,
  journal: OpenJournal,
  accounts: LocalAccounts,
  runtimeCode: Hex,
  { network, stateDir, port, buyerCount, buyerUsdc, settlerCount, blockIntervalMs }: Required<Omit<LocalChainOptions, 'artifactCacheDir'>>,
): Promise<LocalChain> {
  const { chainId, usdcAddress, tokenName } = NETWORKS[network];
  const settlers = [accounts.settler, ...(accounts.extraSettlers ?? []).slice(0, settlerCount - 1)];
  const settlerKeyFile = path.join(stateDir, 'settler.key');
  await writeSecret(settlerKeyFile, settlers.map((k) => `${k.privateKey}\n`).join(''));
  const refundKeyFile = path.join(stateDir, 'refund.key');
  await writeSecret(refundKeyFile, `${accounts.payTo.privateKey}\n`);

  // From here on every change goes through the journal, the setup's own included.
  const provider = await restoreChain(connection.provider as Eip1193Like, journal);
  const transport = custom(provider, { retryCount: 0 });
  const chain = localChainDefinition('http://127.0.0.1', chainId);
  const reader: PublicClient = createPublicClient({ chain, transport, pollingInterval: 50 });
  const rpc = (method: string, params: unknown[]) => provider.request({ method, params });
  const same = (a: unknown, b: string) => String(a).toLowerCase() === b.toLowerCase();

  // The setup runs on automine, whatever the last start ran with (its evm_setAutomine is in the journal). A chain
  // stopped, or killed, under interval mining may have replayed with transactions still pending (sent, journaled,
  // not yet mined): they get their block now, before anything else is sent.
  if ((await rpc('hardhat_getAutomine', [])) !== true) await rpc('evm_setAutomine', [true]);
  if ((await pendingTransactions(provider)) > 0) await rpc('evm_mine', []);

  if (!same(await rpc('eth_getCode', [usdcAddress, 'latest']), runtimeCode)) await rpc('hardhat_setCode', [usdcAddress, runtimeCode]);
  const slots: [number, Hex][] = [[0, pad(accounts.minter.address)], [1, shortStringSlot(tokenName)]];
  for (const [slot, value] of slots) {
    const at = numberToHex(slot, { size: 32 });
    if (!same(await rpc('eth_getStorageAt', [usdcAddress, at, 'latest']), value)) await rpc('hardhat_setStorageAt', [usdcAddress, at, value]);
  }
  for (const who of [...settlers, accounts.minter]) {
    if (BigInt(String(await rpc('eth_getBalance', [who.address, 'latest']))) < GAS_ETH / 2n) {
      await rpc('hardhat_setBalance', [who.address, numberToHex(GAS_ETH)]);
    }
  }

  // One minter nonce sequence: concurrent fund() calls must not race for the same nonce.
  let minterQueue: Promise<unknown> = Promise.resolve();
  const fund = (address: Address, amount: bigint): Promise<Hex> => {
    if (amount <= 0n) return Promise.reject(new LocalChainError('fund amount must be positive'));
    const next = minterQueue.then(() =>
      mintUsdc(transport, chain, accounts.minter.privateKey, usdcAddress, address, amount),
    );
    minterQueue = next.catch(() => undefined);
    return next;
  };
  const balanceOf = (address: Address) =>
    reader.readContract({ address: usdcAddress, abi: usdcAbi, functionName: 'balanceOf', args: [address] });

  for (const buyer of accounts.buyers.slice(0, buyerCount)) {
    const held = await balanceOf(buyer.address);
    if (held < buyerUsdc) await fund(buyer.address, buyerUsdc - held);
  }

  // Interval mining from here on, before anyone else can send.
  if (blockIntervalMs > 0) await rpc('evm_setAutomine', [false]);
  const server = await startRpcServer(provider, port).catch((error: NodeJS.ErrnoException) => {
    throw new LocalChainError(`Cannot serve JSON-RPC on 127.0.0.1:${port}: ${error.code ?? error.message}`);
  });
  const miner = blockIntervalMs > 0 ? mineEvery(provider, blockIntervalMs) : undefined;
  let stopped: Promise<void> | undefined;
  return {
    rpcUrl: server.url,
    port: server.port,
    network,
    chainId,
    usdcAddress,
    tokenName,
    payTo: accounts.payTo.address,
    settlerAddress: accounts.settler.address,
    settlerAddresses: settlers.map((k) => k.address),
    minterAddress: accounts.minter.address,
    settlerKeyFile,
    refundKeyFile,
    buyers: accounts.buyers.slice(0, buyerCount).map((b) => ({ ...b })),
    provider,
    blockIntervalMs,
    rpcCalls: () => server.calls(),
    fund,
    balanceOf,
    stop: () =>
      (stopped ??= (async () => {
        // The timer first (and the block it may be mining): no block after stop() returns, none on a closed simulator.
        await miner?.stop();
        await server.close();
        await connection.close();
        journal.release();
      })()),
  };
}

/** How many transactions the next block would take (the mempool's executable ones). */
async function pendingTransactions(provider: Eip1193Like): Promise<number> {
  return Number(await provider.request({ method: 'eth_getBlockTransactionCountByNumber', params: ['pending'] }));
}

/**
 * Interval mining through the journal: at each wall-clock multiple of `intervalMs`, a block (`evm_mine`, through the
 * journaled provider, so it is a journal line with its timestamp) when a transaction is pending, none otherwise (an
 * idle chain neither grows nor moves). One mine at a time: the next tick is set once a tick has ended, at the next
 * multiple after it (a slow mine skips the multiples it overran). The timer does not keep the process alive. A
 * failed tick is reported once per distinct message and the timer goes on (the journal refuses every change after
 * a failed append, so its message repeats until a restart).
 */
function mineEvery(provider: Eip1193Like, intervalMs: number): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> = Promise.resolve();
  let lastError: string | undefined;
  const schedule = (after: number) => {
    if (stopped) return;
    const target = (Math.floor(Math.max(after, Date.now()) / intervalMs) + 1) * intervalMs;
    timer = setTimeout(() => tick(target), target - Date.now());
    timer.unref();
  };
  const tick = (target: number) => {
    timer = undefined;
    ticking = (async () => {
      try {
        if (!stopped && (await pendingTransactions(provider)) > 0 && !stopped) await provider.request({ method: 'evm_mine', params: [] });
        lastError = undefined;
      } catch (error) {
        const message = (error as Error)?.message ?? String(error);
        if (message !== lastError) console.error(`Local chain: interval mining failed: ${message}`);
        lastError = message;
      }
    })();
    void ticking.then(() => schedule(target));
  };
  schedule(Date.now());
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await ticking;
    },
  };
}

/**
 * A Solidity `string` shorter than 32 bytes as its storage slot holds it: the bytes left-aligned, the low byte
 * twice the length.
 */
export function shortStringSlot(value: string): Hex {
  const bytes = new TextEncoder().encode(value);
  if (bytes.length > 31) throw new LocalChainError(`Token name too long for one storage slot: ${value}`);
  const slot = stringToHex(value, { size: 32 });
  return `${slot.slice(0, 64)}${numberToHex(bytes.length * 2, { size: 1 }).slice(2)}` as Hex;
}

/**
 * Hardhat is imported lazily: bin/fund.ts shares this module and must stay quick to start. `genesis` is the
 * simulator's initial date, kept in the journal's header: the same date and the same blocks give the same hashes.
 */
async function connectSimulator(chainId: number, genesis: Date): Promise<Connection> {
  const { createHardhatRuntimeEnvironment } = await import('hardhat/hre');
  const hre = await createHardhatRuntimeEnvironment(
    {
      networks: {
        local: {
          type: 'edr-simulated',
          chainId,
          accounts: [],
          // Like a real node: a reverted transaction is mined and reported in its receipt, not thrown at send.
          throwOnTransactionFailures: false,
          throwOnCallFailures: true,
          // Automine stamps each block a second after the last unless blocks may share a second: under load the
          // chain's clock would run ahead of the wall clock until fresh authorizations (valid 300 s) look expired.
          allowBlocksWithSameTimestamp: true,
          initialDate: genesis,
        },
      },
    },
    {},
    PROJECT_ROOT,
  );
  return hre.network.create({ network: 'local' });
}
