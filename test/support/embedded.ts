/**
 * Starts the embedded default the way a user does (`node --import tsx bin/local.ts`, i.e. `npm start`) in a
 * child process with its own state dir and ephemeral ports, and waits for its runtime.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface RuntimeInfo {
  baseUrl: string;
  /** The agent studio's base URL. */
  agentsUrl: string;
  rpcUrl: string;
  chainId: number;
  usdcAddress: `0x${string}`;
  payTo: `0x${string}`;
  buyers: { address: `0x${string}`; privateKey: `0x${string}` }[];
  tokenIssuerUrl: string;
}

export interface EmbeddedProcess {
  info: RuntimeInfo;
  stateDir: string;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const ROOT = resolve(import.meta.dirname, '../..');

export async function startEmbeddedProcess(options: { stateDir?: string; env?: Record<string, string> } = {}): Promise<EmbeddedProcess> {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'paycall-it-'));
  const runtimeFile = join(stateDir, 'runtime.json');
  rmSync(runtimeFile, { force: true });
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      GENERATION_PORT: '0',
      AGENTS_PORT: '0',
      CHAIN_PORT: '0',
      LOCAL_STATE_DIR: stateDir,
      LOG_LEVEL: 'WARN',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r((exitCode = code))));

  const deadline = Date.now() + 90_000;
  while (!existsSync(runtimeFile)) {
    if (exitCode !== undefined) throw new Error(`embedded runtime exited (${exitCode}):\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`embedded runtime did not start within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const info = JSON.parse(readFileSync(runtimeFile, 'utf8')) as RuntimeInfo;
  return {
    info,
    stateDir,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (exitCode !== undefined) return exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
