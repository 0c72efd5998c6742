/**
 * `npm run fund -- <address> <usdc>`: mint test USDC on the running embedded chain, e.g. to pay from your own wallet.
 * Reads the chain's URL from $LOCAL_STATE_DIR/runtime.json (written by `npm start`) and the minter key from
 * accounts.json in the same directory. Only ever talks to that local chain.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createPublicClient, getAddress, http, isAddress, type Address, type Hex } from 'viem';
import { usdcAbi } from '../lambdas/payments/usdc-abi.js';
import { localChainDefinition, mintUsdc, readLocalAccounts } from '../lib/local/chain.js';
import { runIfEntry } from '../lib/local/cli.js';

const USDC_DECIMALS = 6;

export class FundError extends Error {
  override name = 'FundError';
}

/** "12.5" → 12500000n. Exact: no floats, at most 6 decimals, must be positive. */
export function parseUsdcAmount(text: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) {
    throw new FundError(`Amount '${text}' is not a USDC amount: use digits with up to ${USDC_DECIMALS} decimals, e.g. 12.5`);
  }
  const [, whole, fraction = ''] = match;
  const value = BigInt(whole) * 10n ** BigInt(USDC_DECIMALS) + BigInt(fraction.padEnd(USDC_DECIMALS, '0'));
  if (value === 0n) throw new FundError('Amount must be greater than zero');
  return value;
}

export function formatUsdc(baseUnits: bigint): string {
  const unit = 10n ** BigInt(USDC_DECIMALS);
  const fraction = (baseUnits % unit).toString().padStart(USDC_DECIMALS, '0').replace(/0+$/, '');
  return fraction ? `${baseUnits / unit}.${fraction}` : `${baseUnits / unit}`;
}

export function parseRecipient(text: string): Address {
  if (!isAddress(text, { strict: false })) {
    throw new FundError(`'${text}' is not an address: expected 0x followed by 40 hex digits`);
  }
  return getAddress(text);
}

interface RuntimeInfo {
  rpcUrl: string;
  chainId: number;
  usdcAddress: Address;
}

async function readRuntime(stateDir: string): Promise<RuntimeInfo> {
  const file = path.join(stateDir, 'runtime.json');
  let info: Partial<RuntimeInfo>;
  try {
    info = JSON.parse(await readFile(file, 'utf8')) as Partial<RuntimeInfo>;
  } catch {
    throw new FundError(`The local service is not running (no readable ${file}): start it with npm start`);
  }
  if (typeof info.rpcUrl !== 'string' || typeof info.chainId !== 'number' || typeof info.usdcAddress !== 'string') {
    throw new FundError(`${file} lacks rpcUrl, chainId or usdcAddress`);
  }
  return info as RuntimeInfo;
}

export interface FundResult {
  transaction: Hex;
  balance: bigint;
  rpcUrl: string;
}

/** Mints `amount` base units to `address` on the chain described by `<stateDir>/runtime.json`. */
export async function fundFromState(stateDir: string, address: Address, amount: bigint): Promise<FundResult> {
  const runtime = await readRuntime(stateDir);
  const accounts = await readLocalAccounts(stateDir);
  const chain = localChainDefinition(runtime.rpcUrl, runtime.chainId);
  const transport = http(runtime.rpcUrl, { retryCount: 0, timeout: 10_000 });
  const reader = createPublicClient({ chain, transport });

  let chainId: number;
  try {
    chainId = await reader.getChainId();
  } catch {
    throw new FundError(`The local service is not running: nothing answers at ${runtime.rpcUrl} (start it with npm start)`);
  }
  if (chainId !== runtime.chainId) {
    throw new FundError(`${runtime.rpcUrl} is chain ${chainId}, expected the local chain ${runtime.chainId}`);
  }

  const transaction = await mintUsdc(transport, chain, accounts.minter.privateKey, runtime.usdcAddress, address, amount);
  const balance = await reader.readContract({
    address: runtime.usdcAddress,
    abi: usdcAbi,
    functionName: 'balanceOf',
    args: [address],
  });
  return { transaction, balance, rpcUrl: runtime.rpcUrl };
}

async function main(argv: string[]): Promise<void> {
  if (argv.length !== 2) {
    throw new FundError('Usage: npm run fund -- <address> <usdc>   (e.g. npm run fund -- 0xAbC…123 12.5)');
  }
  const address = parseRecipient(argv[0]);
  const amount = parseUsdcAmount(argv[1]);
  const stateDir = process.env.LOCAL_STATE_DIR || '.local';
  const result = await fundFromState(stateDir, address, amount);
  console.log(`Minted ${formatUsdc(amount)} USDC to ${address}`);
  console.log(`Transaction  ${result.transaction}`);
  console.log(`Balance      ${formatUsdc(result.balance)} USDC`);
}

await runIfEntry(import.meta.url, 'fund', main, FundError);
