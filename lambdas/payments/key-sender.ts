/**
 * Sending with a pooled settlement key (docs/decisions/0005): a key is held only while its nonce is chosen.
 *
 * An instance leases a free key (while the node's pending count for it is read beside the lease), chooses the nonce
 * from the lease's record and the node's count, signs, and commits the nonce: one write, conditioned on its holder id
 * (the fence), that records the nonce with the sender's deadline and gives the key back. It broadcasts after that,
 * the next instance already choosing the next nonce. The sequence stays whole without holding the key across the
 * broadcast:
 * - a broadcast the node refused (nothing entered its pool) is withdrawn when nobody came after, so the next send
 *   takes the same nonce; when someone did, the nonce is a gap, filled at once by a no-op transfer to the key itself
 *   (or, failing that, by the next holder, with its own payment);
 * - a nonce whose sender went silent past its deadline (a crash, an answer never received) and that the node does
 *   not count is a gap the next holder fills.
 * Every wait is bounded: the count is abandoned LEASE_MARGIN_MS before the lease lapses (nothing committed), and the
 * broadcast is aborted at the committed deadline, so an instance never sends with a nonce it no longer owns.
 */
import { BaseError, ContractFunctionRevertedError, keccak256 } from 'viem';
import { randomUUID } from 'node:crypto';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { Hex, SettleResult } from './types.js';
import type { KeyLease, SettlerLeases } from '../store/settler-leases.js';
import type { ChainReader, ChainSender } from './chain-client.js';
import { shortMessage } from './verify.js';
import { classifySendFailure, type SendFailure } from './send-rejection.js';
import { mark, type TimingMarks } from './settlement-timing.js';

/** A lease outlives the choice of a nonce; one its holder never committed or released lapses after this. */
export const LEASE_MS = 10_000;
/**
 * Every wait held under a lease ends this long before it lapses, and a nonce is judged overdue only this long past
 * its sender's deadline: the margin is for one DynamoDB write and clock skew between instances.
 */
export const LEASE_MARGIN_MS = 2_000;
/** A broadcast is not begun with less time than this left before its deadline: the node could not answer in time. */
const MIN_BROADCAST_MS = 1_000;
/** A key's last committed nonce is trusted over the node's pending count for this long (a lagging node), no longer. */
const RECENT_NONCE_MS = 30_000;
/** The gas of a plain transfer of nothing, the no-op that fills a gap. */
const NO_OP_GAS = 21_000n;

export interface Signer {
  account: PrivateKeyAccount;
  wallet: ChainSender;
}

/** Everything of the transaction but its nonce. */
export interface Prepared {
  type: 'eip1559';
  chainId: number;
  to: Hex;
  data?: Hex;
  value?: bigint;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** A key leased, with the node's pending count for it read beside the lease. */
export interface TakenKey {
  signer: Signer;
  lease: KeyLease;
  pending: Promise<number>;
  /** When the count was asked for (epoch ms): a nonce is overdue only if its deadline had passed by then. */
  readAt: number;
}

/** The broadcast's outcome; on success `recorded` settles once the row says the nonce reached the node. */
export type SendOutcome = { ok: true; hash: Hex; recorded: Promise<void> } | Extract<SettleResult, { ok: false }>;

export interface NoncePick {
  nonce: number;
  /** The row's highest nonce after this commit. */
  lastNonce: number;
  /** Overdue entries the node counts (they reached it): cleared in the commit. */
  cleared: number[];
  /** Whether the nonce fills a gap below the highest. */
  gap: boolean;
}

/**
 * The nonce to send with: the lowest overdue nonce the node does not count (a gap) first; otherwise the next after
 * the lease's record when that is recent (a node lagging behind its own pool still gives the next), else the node's.
 */
export function chooseNonce(lease: KeyLease, pending: number, readAt: number): NoncePick {
  const overdue = [...lease.sending]
    .filter(([, sendBy]) => sendBy + LEASE_MARGIN_MS < readAt)
    .map(([nonce]) => nonce)
    .sort((a, b) => a - b);
  const gap = overdue.find((nonce) => nonce >= pending);
  const recent = lease.lastNonce !== undefined && lease.lastNonce >= 0 && lease.lastSentAt !== undefined && readAt - lease.lastSentAt < RECENT_NONCE_MS;
  const nonce = gap ?? (recent ? Math.max(pending, lease.lastNonce! + 1) : pending);
  return { nonce, lastNonce: Math.max(lease.lastNonce ?? -1, nonce), cleared: overdue.filter((n) => n < pending), gap: gap !== undefined };
}

export class KeySender {
  constructor(
    private readonly leases: SettlerLeases,
    private readonly reader: ChainReader,
    private readonly leaseMs: number,
    private readonly keyWaitMs: number,
    /** The node refused a key's broadcast for want of gas: its balance is to be read again. */
    private readonly outOfFunds: (address: string) => void = () => undefined,
  ) {}

  /** Takes the lease of a key with gas (in random order, so instances spread over the pool), reading its count beside. */
  async take(fuelled: () => Promise<Signer[]>, deadline?: number, waitMs = this.keyWaitMs): Promise<({ ok: true } & TakenKey) | Extract<SettleResult, { ok: false }>> {
    const holder = randomUUID();
    const waitUntil = Math.min(deadline ?? Infinity, Date.now() + waitMs);
    for (let pause = 4; ; pause = Math.min(pause * 2, 100)) {
      const pool = await fuelled();
      if (pool.length === 0) {
        return { ok: false, reason: 'Every settlement key is below its gas floor', broadcast: false, unavailable: true };
      }
      let first = true;
      for (const signer of shuffled(pool)) {
        // The first key of a round has its count asked for beside the lease (one round trip less while held); read
        // no earlier than the acquisition, it sees every transaction a previous holder sent before its deadline.
        // Keys tried after a busy one are counted once leased, so contention does not multiply the node's reads.
        const count = () => this.reader.getTransactionCount({ address: signer.account.address, blockTag: 'pending' });
        const readAt = Date.now();
        const early = first ? count() : undefined;
        first = false;
        const lease = await this.leases.acquire(signer.account.address, holder, this.leaseMs);
        if (lease) return { ok: true, signer, lease, pending: early ?? count(), readAt: early ? readAt : Date.now() };
        early?.catch(() => undefined);
      }
      if (Date.now() >= waitUntil) {
        return { ok: false, reason: 'Settlement is back-pressured: every settlement key is busy', broadcast: false, retryAfterSeconds: 1 };
      }
      // Every key is busy: wait, longer each round, so waiting instances do not hammer the lease table.
      await new Promise((resolve) => setTimeout(resolve, pause / 2 + Math.random() * pause));
    }
  }

  /** Gives a key back without committing a nonce (nothing sent). Never throws: an unreleased lease lapses. */
  release(taken: TakenKey): Promise<void> {
    taken.pending.catch(() => undefined);
    return this.leases.release(taken.lease).catch(() => undefined);
  }

  /**
   * Chooses the nonce, signs, commits (the fence and the release), and broadcasts before the committed deadline.
   * `onlyGap`: send only to fill a gap (the no-op), else give the key back.
   */
  async send(taken: TakenKey, tx: Prepared, marks?: TimingMarks, onlyGap = false): Promise<SendOutcome> {
    const { signer, lease } = taken;
    let pick: NoncePick;
    let serializedTransaction: Hex;
    try {
      const pending = await withDeadline((signal) => abandonable(taken.pending, signal), lease.until - LEASE_MARGIN_MS);
      pick = chooseNonce(lease, pending, taken.readAt);
      mark(marks, 'nonceRead');
      if (onlyGap && !pick.gap) {
        await this.release(taken);
        return { ok: false, reason: 'No gap left to fill', broadcast: false };
      }
      // Signed locally: the chain id is the configured one, so no round trip asks the node for it.
      serializedTransaction = await signer.account.signTransaction({ ...tx, nonce: pick.nonce });
      mark(marks, 'signed');
    } catch (error) {
      await this.release(taken);
      return { ok: false, reason: `Settlement failed while preparing the transaction: ${revertReason(error)}`, broadcast: false, unavailable: true };
    }

    // The fence: still ours (nobody has committed with this key since we leased it); the key is free once written.
    const sendBy = Date.now() + this.leaseMs - LEASE_MARGIN_MS;
    let committed: boolean;
    try {
      committed = await this.leases.commit(lease, { nonce: pick.nonce, sendBy, lastNonce: pick.lastNonce, cleared: pick.cleared });
      mark(marks, 'committed');
    } catch (error) {
      await this.release(taken);
      return { ok: false, reason: `Settlement key lease could not be committed: ${(error as Error).message}`, broadcast: false, unavailable: true };
    }
    if (!committed) {
      return { ok: false, reason: 'Settlement key lease was lost before the broadcast (a slow node); nothing was sent', broadcast: false, unavailable: true };
    }
    if (sendBy - Date.now() < MIN_BROADCAST_MS) {
      await this.refused(taken, pick.nonce, tx, !onlyGap);
      return { ok: false, reason: 'Settlement key committed too late to broadcast; nothing was sent', broadcast: false, unavailable: true };
    }

    const hash = keccak256(serializedTransaction);
    const address = signer.account.address.toLowerCase();
    try {
      await withDeadline((signal) => signer.wallet.sendRawTransaction({ serializedTransaction, signal }), sendBy);
      mark(marks, 'sent');
      return { ok: true, hash, recorded: this.leases.sent(address, pick.nonce) };
    } catch (error) {
      const failure = await this.judge(signer, hash, error, sendBy);
      if (failure.kind === 'known') return { ok: true, hash, recorded: this.leases.sent(address, pick.nonce) };
      if (failure.kind === 'rejected') {
        // The node refused it: nothing entered its pool. A nonce too low was never ours to fill.
        await this.refused(taken, pick.nonce, tx, !onlyGap && failure.rejection !== 'nonce');
        if (failure.rejection === 'funds') this.outOfFunds(signer.account.address);
        const reason = `Settlement transaction refused by the node (${failure.rejection}), nothing sent: ${revertReason(error)}`;
        return failure.rejection === 'rate-limited' || failure.rejection === 'nonce'
          ? { ok: false, reason, broadcast: false, retryAfterSeconds: 1 }
          : { ok: false, reason, broadcast: false, unavailable: true };
      }
      // It may have reached a node: the nonce stays committed; once overdue, the next holder asks the node.
      return { ok: false, reason: `Settlement failed while sending transaction ${hash}: ${revertReason(error)}`, broadcast: true };
    }
  }

  /**
   * A committed nonce that was not sent: taken back when nobody came after; otherwise a gap, filled at once by a
   * no-op transfer to the key itself (if that too fails, the next holder fills it with its payment).
   */
  private async refused(taken: TakenKey, nonce: number, tx: Prepared, fill = true): Promise<void> {
    const withdrawn = await this.leases.withdraw(taken.lease, nonce).catch(() => false);
    if (withdrawn || !fill) return;
    const again = await this.take(async () => [taken.signer], undefined, LEASE_MARGIN_MS);
    if (!again.ok) return;
    const noOp: Prepared = { type: 'eip1559', chainId: tx.chainId, to: taken.signer.account.address, value: 0n, gas: NO_OP_GAS, maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas };
    const filled = await this.send(again, noOp, undefined, true);
    if (filled.ok) await filled.recorded;
  }

  /**
   * A failed broadcast, classified (./send-rejection.ts). A stated refusal is believed only when the node then says
   * it does not know our hash; a lookup that fails or runs past the deadline leaves the send ambiguous.
   */
  private async judge(signer: Signer, hash: Hex, error: unknown, sendBy: number): Promise<SendFailure> {
    const failure = classifySendFailure(error);
    if (failure.kind !== 'rejected') return failure;
    try {
      const known = await withDeadline((signal) => signer.wallet.knows(hash, signal), sendBy);
      return known ? { kind: 'known' } : failure;
    } catch {
      return { kind: 'ambiguous' };
    }
  }
}

/** The revert reason when there is one ("FiatTokenV2: authorization is used or canceled"), else viem's summary. */
export function revertReason(error: unknown): string {
  if (error instanceof BaseError) {
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError && reverted.reason) return reverted.reason;
  }
  return shortMessage(error);
}

/** Runs `step` with a signal that aborts at `deadline` (epoch ms); past it the step fails with a time-out. */
async function withDeadline<T>(step: (signal: AbortSignal) => Promise<T>, deadline: number): Promise<T> {
  const left = deadline - Date.now();
  if (left <= 0) throw new LeaseDeadlineError();
  return step(AbortSignal.timeout(left));
}

/** A read that cannot take a signal, abandoned (its answer ignored) when the signal aborts. */
function abandonable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new LeaseDeadlineError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

class LeaseDeadlineError extends Error {
  override name = 'LeaseDeadlineError';
  constructor() {
    super('the node did not answer within the settlement key lease (timed out)');
  }
}

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}
