/**
 * The embedded chain's journal: how the simulated chain outlives a restart, or a crash, of `npm start`.
 *
 * EDR (Hardhat's simulator) holds its state in memory and offers no dump of it, while DynamoDB Local and the assets
 * persist in the state dir: without a journal a restart would leave settled jobs naming transactions that no longer
 * exist. So the state dir keeps what changed the chain: every state-changing call it accepted (a raw transaction as
 * sent, an `eth_sendTransaction`, any `evm_*`/`hardhat_*` call but the two reads), one JSON line each in
 * <stateDir>/chain-journal.ndjson, after a header naming the chain id and the genesis date.
 *
 * - A change is appended (appendFileSync) after the simulator applied it and before anyone can learn of it: its caller
 *   gets the answer after the append, and a change runs alone — reads wait while one is in flight, and it waits for
 *   the reads before it. So a SIGKILL loses at most a change nobody saw: to the world, a transaction that never
 *   reached the node. (The page cache is not synced: a crash of the machine may lose the tail; a crash of the process
 *   cannot.)
 * - Each line records the timestamp of the first block its call mined and the head after it. At the next start the
 *   lines are replayed in order, on a simulator with the same genesis date, each mined block at its recorded
 *   timestamp: the same transactions get the same hashes in the same blocks (the block hashes match too), and an
 *   authorization is judged at the time it was sent, not at the replay's. A replay that differs (a transaction hash,
 *   the head) stops the start rather than serve another chain.
 * - A last line cut by the kill is dropped (its change was never answered) and cut off the file.
 * - EDR's interval mining (`evm_setIntervalMining`) is refused: its timer's blocks would land outside the journal.
 *   The chain mines on an interval its own way (lib/local/chain.ts, `blockIntervalMs`): automine off with
 *   `evm_setAutomine` and a timer sending `evm_mine`, both through the journal. A send then mines nothing (its line
 *   has no `n`/`t`) and leaves its transaction pending, on replay as at first; each `evm_mine` line carries its block's
 *   number and timestamp, so the replay mines the same pending transactions into the same block. A journal may end
 *   with transactions pending (a stop, or a kill, between a send and the next block): they replay pending and are
 *   mined at the start after (the clock's catch-up block, or the start-up setup's own `evm_mine`).
 * - One chain per state dir: a lock file names the process that holds it; a dead holder's lock is taken over.
 */
import { appendFileSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Eip1193Like } from './rpc-server.js';

export const CHAIN_JOURNAL = 'chain-journal.ndjson';
const CHAIN_LOCK = 'chain.lock';
const VERSION = 1;

export interface JournalHeader {
  v: typeof VERSION;
  chainId: number;
  /** The simulator's initial date (ISO): the genesis block, and so every block hash, depends on it. */
  genesis: string;
}

export interface JournalEntry {
  /** The method and params as the chain accepted them. */
  m: string;
  p: unknown;
  /** The timestamp of the first block the call mined, when it mined one. */
  t?: number;
  /** The head after the call, when the call moved it. */
  n?: number;
  /** A sent transaction's hash: the replay must reproduce it. */
  h?: string;
}

export class ChainJournalError extends Error {
  override name = 'ChainJournalError';
}

/** The calls that change nothing the journal must hold (everything else under evm_/hardhat_ is journaled). */
const READS = new Set(['hardhat_getAutomine', 'hardhat_metadata']);
const SENDS = new Set(['eth_sendRawTransaction', 'eth_sendTransaction']);

export function changesState(method: string): boolean {
  return SENDS.has(method) || ((method.startsWith('evm_') || method.startsWith('hardhat_')) && !READS.has(method));
}

/** A state dir's chain journal, locked for this process: what to replay, or the header of a new one. */
export interface OpenJournal {
  file: string;
  /** The simulator's initial date: the journal's, or now for a new chain. */
  genesis: Date;
  entries: JournalEntry[];
  /** A new chain's header, written when the journal is opened for changes. */
  newHeader?: JournalHeader;
  release(): void;
}

/** Locks the state dir's chain and reads its journal (refusing one of another chain id). */
export function openJournal(stateDir: string, chainId: number): OpenJournal {
  const release = lockChainState(stateDir);
  try {
    const file = path.join(stateDir, CHAIN_JOURNAL);
    const { header, entries } = readJournal(file);
    if (header && header.chainId !== chainId) {
      throw new ChainJournalError(`${file} holds a chain with id ${header.chainId}, not ${chainId}: use another state dir`);
    }
    const newHeader: JournalHeader | undefined = header ? undefined : { v: VERSION, chainId, genesis: new Date().toISOString() };
    return { file, genesis: new Date((header ?? newHeader)!.genesis), entries, newHeader, release };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * Brings a fresh simulator (started at the journal's genesis date) to the journal's state and returns the chain
 * through the journal, which is what everyone must use from then on (the RPC server, in-process callers, the
 * start-up setup).
 */
export async function restoreChain(simulator: Eip1193Like, journal: OpenJournal): Promise<Eip1193Like> {
  await replayJournal(simulator, journal.entries, journal.file);
  const provider = await journaledProvider(simulator, journal.file, journal.newHeader);
  if (journal.entries.length > 0) await catchUpClock(provider);
  return provider;
}

/**
 * A replayed chain's clock stands where its last block left it, behind the wall clock by the time the service was
 * down (authorizations signed now would look not yet valid to it): one empty block at the wall clock's time brings it
 * back, and the blocks after follow the wall clock again.
 */
async function catchUpClock(provider: Eip1193Like): Promise<void> {
  const latest = (await provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { timestamp: string };
  const now = Math.floor(Date.now() / 1000);
  if (Number(latest.timestamp) >= now) return;
  await provider.request({ method: 'evm_setNextBlockTimestamp', params: [now] });
  await provider.request({ method: 'evm_mine', params: [] });
}

/**
 * Reads a journal; a missing file is a new chain. A last line without its newline (cut by a kill) is dropped and
 * cut off the file, so the next append starts a line of its own.
 */
export function readJournal(file: string): { header?: JournalHeader; entries: JournalEntry[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [] };
    throw error;
  }
  const complete = text.lastIndexOf('\n') + 1;
  if (complete < text.length) truncateSync(file, Buffer.byteLength(text.slice(0, complete)));
  const lines = text.slice(0, complete).split('\n').filter((line) => line !== '');
  if (lines.length === 0) return { entries: [] };
  const parsed = lines.map((line, index) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new ChainJournalError(`${file} line ${index + 1} is not JSON: the journal is damaged`);
    }
  });
  const header = parsed[0] as JournalHeader;
  if (header?.v !== VERSION || typeof header.chainId !== 'number' || typeof header.genesis !== 'string') {
    throw new ChainJournalError(`${file} does not start with a version ${VERSION} chain journal header`);
  }
  return { header, entries: parsed.slice(1) as JournalEntry[] };
}

/**
 * Replays a journal's entries on a fresh simulator started at the header's genesis date, checking that each lands
 * as it did. Returns the head.
 */
export async function replayJournal(provider: Eip1193Like, entries: JournalEntry[], file: string): Promise<number> {
  const rpc = (method: string, params: unknown) => provider.request({ method, params: params as unknown[] });
  let head = Number(await rpc('eth_blockNumber', []));
  for (const [index, entry] of entries.entries()) {
    const where = `${file} entry ${index + 1} (${entry.m})`;
    if (entry.t !== undefined) await rpc('evm_setNextBlockTimestamp', [entry.t]);
    let result: unknown;
    try {
      result = await rpc(entry.m, entry.p ?? []);
    } catch (error) {
      throw new ChainJournalError(`${where} failed on replay: ${(error as Error).message}`);
    }
    if (entry.h !== undefined && result !== entry.h) {
      throw new ChainJournalError(`${where} replayed as ${String(result)}, journaled as ${entry.h}`);
    }
    const expected = entry.n ?? head;
    head = Number(await rpc('eth_blockNumber', []));
    if (head !== expected) throw new ChainJournalError(`${where} left the head at block ${head}, journaled at ${expected}`);
  }
  return head;
}

/** The chain through its journal: `raw` is the simulator, replayed and current. A new journal gets `header` first. */
export async function journaledProvider(raw: Eip1193Like, file: string, header?: JournalHeader): Promise<Eip1193Like> {
  if (header) writeFileSync(file, `${JSON.stringify(header)}\n`, { mode: 0o600 });
  const gate = new Gate();
  let head = Number(await raw.request({ method: 'eth_blockNumber', params: [] }));
  // A change applied but not journaled (the disk refused the append): the chain now differs from its journal, so
  // no further change is accepted.
  let broken: Error | undefined;
  const block = async (tag: string) =>
    (await raw.request({ method: 'eth_getBlockByNumber', params: [tag, false] })) as { number: string; timestamp: string };

  const change = async (method: string, params: unknown): Promise<unknown> => {
    if (broken) throw new ChainJournalError(`The chain journal refused an earlier change (${broken.message}); restart the service`);
    if (method === 'evm_setIntervalMining' && Array.isArray(params) && params[0] !== 0 && params[0] !== '0x0') {
      throw new ChainJournalError(
        "Interval mining is off on the embedded chain: blocks mined by EDR's timer would be outside its journal (blockIntervalMs, LOCAL_BLOCK_MS, mines on an interval through it)",
      );
    }
    const result = await raw.request({ method, params: params as unknown[] });
    const entry: JournalEntry = { m: method, p: params };
    const latest = await block('latest');
    const now = Number(latest.number);
    if (now !== head) entry.n = now;
    if (now > head) entry.t = Number(now === head + 1 ? latest.timestamp : (await block(`0x${(head + 1).toString(16)}`)).timestamp);
    if (SENDS.has(method)) entry.h = result as string;
    head = now;
    try {
      appendFileSync(file, `${JSON.stringify(entry, hexBigints)}\n`);
    } catch (error) {
      broken = error as Error;
      throw error;
    }
    return result;
  };

  return {
    request: ({ method, params }) => {
      const args = params ?? [];
      return changesState(method) ? gate.write(() => change(method, args)) : gate.read(() => raw.request({ method, params: args }));
    },
  };
}

function hexBigints(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `0x${value.toString(16)}` : value;
}

/** Reads run together; a write runs alone, after the reads already running, and holds back the reads after it. */
class Gate {
  #readers = 0;
  #waitingWrites = 0;
  #writes: Promise<void> = Promise.resolve();
  #drained: (() => void) | undefined;

  async read<T>(run: () => Promise<T>): Promise<T> {
    while (this.#waitingWrites > 0) await this.#writes;
    this.#readers++;
    try {
      return await run();
    } finally {
      if (--this.#readers === 0 && this.#drained) {
        const drained = this.#drained;
        this.#drained = undefined;
        drained();
      }
    }
  }

  async write<T>(run: () => Promise<T>): Promise<T> {
    this.#waitingWrites++;
    const before = this.#writes;
    let done!: () => void;
    this.#writes = new Promise((resolve) => (done = resolve));
    try {
      await before;
      while (this.#readers > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
      return await run();
    } finally {
      this.#waitingWrites--;
      done();
    }
  }
}

/** State dirs whose chain this process holds (a pid in a lock file equal to ours may be a dead holder's, reused). */
const held = new Set<string>();

/**
 * Takes the state dir's chain lock: two chains appending to one journal would ruin it. A lock whose process is gone
 * (a crash, a SIGKILL) is taken over. Returns the release.
 */
export function lockChainState(stateDir: string): () => void {
  const file = path.join(stateDir, CHAIN_LOCK);
  const key = path.resolve(file);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      held.add(key);
      return () => {
        if (held.delete(key)) rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const holder = Number(readFileSync(file, 'utf8').trim());
    const ours = holder === process.pid && held.has(key);
    if (ours || (holder !== process.pid && alive(holder))) {
      throw new ChainJournalError(`The chain in ${stateDir} is in use by process ${holder}: one service per state dir`);
    }
    rmSync(file, { force: true }); // left by a process that ended without stopping its chain
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
