/**
 * Compiles lib/local/contracts/UsdcLike.sol with solc-js and caches the runtime bytecode in a directory (by default
 * <stateDir>/cache, see chain.ts), keyed by a hash of the source and compiler settings.
 * solc-js takes about a second to load and compile, so a restart with an unchanged source reads the cache instead.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hex } from 'viem';

export const USDC_SOURCE_PATH = fileURLToPath(new URL('./contracts/UsdcLike.sol', import.meta.url));

// Part of the cache key: a change of settings must not reuse an artifact built with the old ones.
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { UsdcLike: ['evm.deployedBytecode.object'] } },
} as const;

export class ContractCompileError extends Error {
  override name = 'ContractCompileError';
}

interface Artifact {
  sourceHash: string;
  solcVersion: string;
  runtimeCode: Hex;
}

/** Runtime (deployed) bytecode of UsdcLike, from the cache when the source is unchanged. */
export async function usdcRuntimeCode(cacheDir: string): Promise<Hex> {
  const source = await readFile(USDC_SOURCE_PATH, 'utf8');
  const sourceHash = createHash('sha256').update(source).update(JSON.stringify(SETTINGS)).digest('hex');
  const cacheFile = path.join(cacheDir, `UsdcLike-${sourceHash.slice(0, 16)}.json`);

  const cached = await readArtifact(cacheFile, sourceHash);
  if (cached) return cached.runtimeCode;

  const artifact = await compile(source, sourceHash);
  await mkdir(cacheDir, { recursive: true });
  // Write then rename so a concurrent start never reads a half-written artifact.
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(artifact));
  await rename(tmp, cacheFile);
  return artifact.runtimeCode;
}

async function readArtifact(file: string, sourceHash: string): Promise<Artifact | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Artifact;
    if (parsed.sourceHash === sourceHash && /^0x[0-9a-f]+$/i.test(parsed.runtimeCode)) return parsed;
  } catch {
    // Missing or corrupt cache: recompile.
  }
  return undefined;
}

async function compile(source: string, sourceHash: string): Promise<Artifact> {
  const solc = (await import('solc')).default;
  const input = { language: 'Solidity', sources: { 'UsdcLike.sol': { content: source } }, settings: SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new ContractCompileError(`UsdcLike.sol failed to compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  }
  const object = output.contracts?.['UsdcLike.sol']?.UsdcLike?.evm.deployedBytecode.object;
  if (!object) throw new ContractCompileError('UsdcLike.sol compiled to no runtime bytecode');
  return { sourceHash, solcVersion: String(solc.version()), runtimeCode: `0x${object}` };
}
