/**
 * Self-settlement: the service submits the buyer's EIP-3009 authorization itself and pays the gas.
 *
 * The one fact the caller needs from a failure is whether money may have moved, so every step before the raw
 * transaction leaves this process reports broadcast=false (simulation and gas estimation refuse a doomed
 * authorization without spending anything), and everything from the send onward reports broadcast=true.
 *
 * Nonces across instances (docs/decisions/0005): a pool of keys, each with its own nonce sequence; a send holds
 * its key's lease (lambdas/store/settler-leases.ts) from choosing the nonce to handing the transaction to the node,
 * never while waiting for the receipt, so any number of function instances share the keys without reusing or
 * skipping a nonce. Everything held under a lease ends inside it, and the broadcast is fenced by a renewal
 * conditioned on the holder id; a broadcast the node refused frees its nonce at once (./send-rejection.ts). A key
 * below its gas floor takes no new settlement; when every key is low the settler is
 * unavailable (503), and when every key is busy past the wait budget it is back-pressured (402 with Retry-After).
 */
import {
  BaseError,
  ContractFunctionRevertedError,
  defineChain,
  encodeFunctionData,
  keccak256,
  parseSignature,
  type Chain,
} from 'viem';
import { randomUUID } from 'node:crypto';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { loadSettlerKeys, type SettlerKeySource } from './secrets.js';
import type { ChargeOptions, Hex, PaymentSettler, SettleResult, VerifiedPayment } from './types.js';
import type { KeyLease, SettlerLeases } from '../store/settler-leases.js';
import { gasMetric } from './gas-metric.js';
import { usdcAbi } from './usdc-abi.js';
import { shortMessage } from './verify.js';
import { publicClientFor, senderFor, type ChainReader, type ChainSender } from './chain-client.js';
import { classifySendFailure, type SendFailure } from './send-rejection.js';
import { BlockClock, waitForReceipt } from './block-clock.js';
import { mark, startMarks, writeTiming, type TimingMarks } from './settlement-timing.js';

/**
 * The shortest receipt wait, whatever the deadline: short enough to stay inside the answer margin (3 s) when
 * verification was slow; a transfer not confirmed by then takes the 202-and-reconcile path, which is safe.
 */
const MIN_RECEIPT_WAIT_MS = 1_000;

/**
 * Gas above the estimate, so a transfer estimated against one state still lands in the next. The estimate is what
 * the call used at the time, and another transaction can make the same call dearer before this one is mined: most
 * of all a pay-to balance emptied in between (a refund paid from it) turns the credit into a write to a zero slot,
 * 17,100 gas more (EIP-2200/2929). Without headroom that transfer runs out of gas and reverts, and the buyer is
 * refused. A limit costs nothing unused: the sender pays for the gas used.
 */
export function gasLimitFor(estimate: bigint): bigint {
  const headroom = estimate / 5n;
  return estimate + (headroom > 25_000n ? headroom : 25_000n);
}

export { RemoteFacilitatorSettler, RemoteFacilitatorVerifier, type FacilitatorOptions } from './facilitator.js';

export interface SelfSettlerConfig extends SettlerKeySource {
  chainId: number;
  rpcUrl: string;
  /** A key with less native gas than this (wei) takes no new settlement. */
  gasFloorWei?: bigint;
  /** How often the receipt is asked for while the answer waits (ms); default 250. */
  receiptPollMs?: number;
  /**
   * The chain's block interval (ms): the sealed receipt is asked for around the blocks this instance expects, not
   * from the send throughout (./block-clock.ts). Undefined or 0: from the send.
   */
  blockTimeMs?: number;
}

export interface SelfSettlerOptions {
  config: SelfSettlerConfig;
  /** Who holds which key right now, shared by every instance (DynamoDB on AWS and on the embedded default). */
  leases: SettlerLeases;
  /** Defaults to the shared client for config.rpcUrl. */
  publicClient?: ChainReader;
  /** Receipts from a preconfirmation-aware endpoint (Base Flashblocks), for settlements that accept them. */
  preconfReader?: ChainReader;
  /** The key pool; defaults to the configured file or secret. */
  loadKeys?: () => Promise<Hex[]>;
  receiptTimeoutMs?: number;
  /** How long a send waits for a free key before answering back-pressure. */
  keyWaitMs?: number;
  /** How long a key's lease lasts (LEASE_MS; tests shorten it): more than LEASE_MARGIN_MS + MIN_BROADCAST_MS. */
  leaseMs?: number;
}

/** The receipt's polling interval when none is configured (the chain client's own). */
const DEFAULT_RECEIPT_POLL_MS = 250;
/** A lease outlives any send (a few RPC round trips); one its holder never released lapses after this. */
const LEASE_MS = 10_000;
/**
 * Everything held under a lease ends this long before it lapses: each step's wait (the nonce read, the broadcast,
 * the lookup after a refusal) is cut off there, which leaves the release (one DynamoDB write) and clock skew
 * between instances this margin to happen while the lease is still ours.
 */
const LEASE_MARGIN_MS = 2_000;
/** A broadcast is not begun with less time than this left before the margin: the node could not answer in time. */
const MIN_BROADCAST_MS = 1_000;
/** A key's last recorded nonce is trusted over the node's pending count for this long (a lagging node), no longer
 * (a transaction that never reached a node leaves a gap, which the chain's count then fills). */
const RECENT_NONCE_MS = 30_000;
/** Fee estimates are shared for this long per instance (Base makes a block every 2 s). */
const FEES_MAX_AGE_MS = 1_000;
/** Gas balances are read at most this often per key and instance. */
const GAS_CHECK_MS = 15_000;

interface Signer {
  account: PrivateKeyAccount;
  wallet: ChainSender;
}

const signers = new Map<string, Signer>();

function chainFor(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: `eip155:${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/**
 * One signer per key, chain and RPC URL for the life of the instance. Keyed by the key itself: deriving the account
 * (an elliptic-curve multiplication in JavaScript) for every key of the pool on every settlement cost a paid run
 * about 4% of its function time.
 */
function signerFor(key: Hex, chainId: number, rpcUrl: string): Signer {
  const id = `${chainId}:${rpcUrl}:${key}`;
  let signer = signers.get(id);
  if (!signer) {
    signer = { account: privateKeyToAccount(key), wallet: senderFor(chainFor(chainId, rpcUrl), rpcUrl) };
    signers.set(id, signer);
  }
  return signer;
}

/** The revert reason when there is one ("FiatTokenV2: authorization is used or canceled"), else viem's summary. */
export function revertReason(error: unknown): string {
  if (error instanceof BaseError) {
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError && reverted.reason) return reverted.reason;
  }
  return shortMessage(error);
}

/** A sent transaction's lease is released while its receipt is awaited; `released` settles when that is done. */
type SendOutcome = { ok: true; hash: Hex; released: Promise<void> } | Extract<SettleResult, { ok: false }>;
/** Everything of the transaction but its nonce. */
interface Prepared {
  type: 'eip1559';
  chainId: number;
  to: Hex;
  data: Hex;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export class SelfSettler implements PaymentSettler {
  private readonly config: SelfSettlerConfig;
  private readonly publicClient: ChainReader;
  private readonly preconfReader?: ChainReader;
  private readonly loadKeys: () => Promise<Hex[]>;
  private readonly leases: SettlerLeases;
  private readonly receiptTimeoutMs: number;
  private readonly keyWaitMs: number;
  private readonly leaseMs: number;
  private readonly gas = new Map<string, { wei: bigint; at: number }>();
  private readonly gasFloorWei: bigint;
  private fees?: { value: Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }>; at: number };
  /** When this instance expects the chain's blocks: sealed receipts are asked for around them. */
  private readonly clock: BlockClock;
  /** No schedule: a preconfirmation comes every 200 ms, so it is asked for from the send. */
  private readonly fromSend: BlockClock;

  constructor(options: SelfSettlerOptions) {
    this.config = options.config;
    this.leases = options.leases;
    this.publicClient = options.publicClient ?? publicClientFor(options.config.rpcUrl);
    this.preconfReader = options.preconfReader;
    this.loadKeys = options.loadKeys ?? (() => loadSettlerKeys(options.config));
    this.receiptTimeoutMs = options.receiptTimeoutMs ?? 60_000;
    this.keyWaitMs = options.keyWaitMs ?? 10_000;
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.gasFloorWei = options.config.gasFloorWei ?? 0n;
    this.clock = new BlockClock(options.config.blockTimeMs ?? 0, options.config.receiptPollMs ?? DEFAULT_RECEIPT_POLL_MS);
    this.fromSend = new BlockClock(0, this.clock.pollMs);
  }

  async settle(payment: VerifiedPayment, options: ChargeOptions = {}): Promise<SettleResult> {
    // Where the time before the broadcast goes, on a DEBUG line (./settlement-timing.ts); undefined otherwise.
    const marks = startMarks();
    const result = await this.settleTimed(payment, options, marks);
    if (marks) {
      marks.outcome = result.ok ? 'settled' : result.broadcast ? 'unknown' : 'refused';
      marks.transaction = result.ok ? result.transaction : undefined;
      writeTiming('settle', marks);
    }
    return result;
  }

  private async settleTimed(payment: VerifiedPayment, options: ChargeOptions, marks: TimingMarks | undefined): Promise<SettleResult> {
    let pool: Signer[];
    try {
      pool = (await this.loadKeys()).map((key) => signerFor(key, this.config.chainId, this.config.rpcUrl));
    } catch (error) {
      return { ok: false, reason: `Settler key unavailable: ${(error as Error).message}`, broadcast: false, unavailable: true };
    }

    const { authorization, signature } = payment.payload.payload;
    let parts: ReturnType<typeof parseSignature>;
    try {
      parts = parseSignature(signature as Hex);
    } catch {
      return { ok: false, reason: 'Malformed payment signature', broadcast: false };
    }
    const v = Number(parts.v ?? BigInt(parts.yParity + 27));
    const args = [
      payment.payer,
      authorization.to as Hex,
      authorization.value,
      authorization.validAfter,
      authorization.validBefore,
      authorization.nonce as Hex,
      v,
      parts.r,
      parts.s,
    ] as const;
    const call = { address: payment.asset, abi: usdcAbi, functionName: 'transferWithAuthorization', args } as const;

    // Gas estimation runs the call against the chain (a doomed authorization reverts there, with its reason, and
    // nothing is spent) while the fees are read and a key is leased (the three wait on different services);
    // neither the estimate nor the fees depend on the sender's nonce (nor, for this call, on the sender), so the
    // lease's held section still begins at the nonce read. A doomed authorization gives its key back at once.
    const key = this.takeFreeKey(pool, options.deadline);
    if (marks) void key.then(() => mark(marks, 'leased'), () => undefined);
    let prepared: Prepared;
    try {
      const [gas, fees] = await Promise.all([
        this.publicClient.estimateContractGas({ ...call, account: pool[0].account.address }),
        this.feesPerGas(pool[0].wallet.chain),
      ]);
      prepared = {
        type: 'eip1559',
        chainId: this.config.chainId,
        to: payment.asset,
        data: encodeFunctionData(call),
        gas: gasLimitFor(gas),
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      };
      mark(marks, 'estimated');
    } catch (error) {
      const taken = await key.catch(() => undefined);
      if (taken?.ok) await this.release(taken.lease, undefined);
      return { ok: false, reason: `Settlement refused before broadcast: ${revertReason(error)}`, broadcast: false };
    }
    const taken = await key;
    if (!taken.ok) return taken;
    const sent = await this.sendWith(taken.signer, taken.lease, prepared, marks);
    if (!sent.ok) return sent;
    const { hash } = sent;
    // The node took it: what waits only for the money to be on its way may start beside the receipt wait.
    try {
      options.onBroadcast?.();
    } catch {
      // the caller's hook never fails a settlement
    }

    // A purchase that delivers nothing before the block is sealed takes the preconfirmed receipt (docs/decisions/0021).
    const preconfirmed = options.preconfirmation === true && this.preconfReader !== undefined;
    const receipts = preconfirmed ? this.preconfReader! : this.publicClient;
    let status: 'success' | 'reverted';
    try {
      // Bounded by the caller's deadline: past it the outcome is unknown (broadcast) and the chain decides later.
      const untilDeadline = (options.deadline ?? Infinity) - Date.now();
      const timeout = Math.max(MIN_RECEIPT_WAIT_MS, Math.min(this.receiptTimeoutMs, untilDeadline));
      const receipt = await waitForReceipt(receipts, preconfirmed ? this.fromSend : this.clock, { hash, timeout });
      mark(marks, 'receipt');
      status = receipt.status;
    } catch (error) {
      return { ok: false, reason: `Settlement transaction ${hash} not confirmed: ${shortMessage(error)}`, broadcast: true };
    } finally {
      await sent.released;
    }
    if (status !== 'success') {
      // A preconfirmed revert is not final (docs/decisions/0021): the sealed block may still order it otherwise, so
      // the outcome stays unknown and the sealed chain decides (the sweeper reconciles it), the lock kept.
      if (preconfirmed) return { ok: false, reason: `Settlement transaction ${hash} preconfirmed as reverted; its sealed block decides`, broadcast: true };
      // A reverted transferWithAuthorization moved nothing and left the authorization unused (and the mined
      // transaction can never be included again), so the lock may be released like any refusal before broadcast.
      return { ok: false, reason: `Settlement transaction ${hash} reverted`, broadcast: false };
    }
    return { ok: true, transaction: hash, network: payment.network, payer: payment.payer, ...(preconfirmed ? { preconfirmed: true as const } : {}) };
  }

  /**
   * The fees to offer: viem's estimate (the latest base fee with its 1.2× headroom, plus the node's priority fee),
   * read at most once per FEES_MAX_AGE_MS per instance and shared by the settlements that start meanwhile (two RPC
   * requests each otherwise). Younger than half a Base block, so the headroom still covers the next base fee.
   */
  private feesPerGas(chain: Chain): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
    const now = Date.now();
    if (!this.fees || now - this.fees.at > FEES_MAX_AGE_MS) {
      const value = this.publicClient.estimateFeesPerGas({ chain });
      this.fees = { value, at: now };
      // A failed read is not kept: the next settlement asks again.
      value.catch(() => {
        if (this.fees?.value === value) this.fees = undefined;
      });
    }
    return this.fees.value;
  }

  /** Takes the lease of a key with gas (in random order, so instances spread over the pool). */
  private async takeFreeKey(pool: Signer[], deadline?: number): Promise<{ ok: true; signer: Signer; lease: KeyLease } | Extract<SettleResult, { ok: false }>> {
    const holder = randomUUID();
    const waitUntil = Math.min(deadline ?? Infinity, Date.now() + this.keyWaitMs);
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      const fuelled = await this.fuelled(pool);
      if (fuelled.length === 0) {
        return { ok: false, reason: 'Every settlement key is below its gas floor', broadcast: false, unavailable: true };
      }
      for (const signer of shuffled(fuelled)) {
        const lease = await this.leases.acquire(signer.account.address, holder, this.leaseMs);
        if (lease) return { ok: true, signer, lease };
      }
      if (Date.now() >= waitUntil) {
        return { ok: false, reason: 'Settlement is back-pressured: every settlement key is busy', broadcast: false, retryAfterSeconds: 1 };
      }
      // Every key is busy: wait, longer each round, so waiting instances do not hammer the lease table.
      await new Promise((resolve) => setTimeout(resolve, pause / 2 + Math.random() * pause));
    }
  }

  /**
   * The held section, every step of it inside the lease (docs/decisions/0005, "Fencing"): the nonce read is cut off
   * LEASE_MARGIN_MS before the lease lapses; then the lease is renewed with a write conditioned on our holder id (the
   * fence: a key another instance took meanwhile is not sent with), and the broadcast is aborted at the renewed
   * lease's margin. So whatever this instance sends, it sends and records while the key is still its own.
   */
  private async sendWith(signer: Signer, lease: KeyLease, tx: Prepared, marks?: TimingMarks): Promise<SendOutcome> {
    const address = signer.account.address;
    let chosen: number;
    let serializedTransaction: Hex;
    try {
      const pending = await withDeadline(
        (signal) => abandonable(this.publicClient.getTransactionCount({ address, blockTag: 'pending' }), signal),
        lease.until - LEASE_MARGIN_MS,
      );
      const recent = lease.lastNonce !== undefined && lease.lastSentAt !== undefined && Date.now() - lease.lastSentAt < RECENT_NONCE_MS;
      chosen = recent ? Math.max(pending, lease.lastNonce! + 1) : pending;
      mark(marks, 'nonceRead');
      // Signed locally: the chain id is the configured one, so no round trip asks the node for it.
      serializedTransaction = await signer.account.signTransaction({ ...tx, nonce: chosen });
      mark(marks, 'signed');
    } catch (error) {
      await this.release(lease, undefined);
      return { ok: false, reason: `Settlement failed while preparing the transaction: ${revertReason(error)}`, broadcast: false, unavailable: true };
    }

    // The fence: still ours (nobody has sent with this key since the nonce was read), and long enough to send.
    let until: number | undefined;
    try {
      until = await this.leases.renew(lease, this.leaseMs);
      mark(marks, 'renewed');
    } catch (error) {
      await this.release(lease, undefined);
      return { ok: false, reason: `Settlement key lease could not be renewed: ${(error as Error).message}`, broadcast: false, unavailable: true };
    }
    if (until === undefined) {
      return { ok: false, reason: 'Settlement key lease was lost before the broadcast (a slow node); nothing was sent', broadcast: false, unavailable: true };
    }
    const sendBy = until - LEASE_MARGIN_MS;
    if (sendBy - Date.now() < MIN_BROADCAST_MS) {
      await this.release(lease, undefined);
      return { ok: false, reason: 'Settlement key lease too short to broadcast; nothing was sent', broadcast: false, unavailable: true };
    }

    const hash = keccak256(serializedTransaction);
    try {
      await withDeadline((signal) => signer.wallet.sendRawTransaction({ serializedTransaction, signal }), sendBy);
      mark(marks, 'sent');
      const released = this.release(lease, chosen);
      if (marks) void released.then(() => mark(marks, 'released'));
      return { ok: true, hash, released };
    } catch (error) {
      const failure = await this.judge(signer, hash, error, sendBy);
      if (failure.kind === 'known') return { ok: true, hash, released: this.release(lease, chosen) };
      if (failure.kind === 'rejected') {
        // The node refused it: nothing entered the pool, so the nonce is still free for the next send at once.
        await this.release(lease, undefined);
        if (failure.rejection === 'funds') this.gas.delete(address);
        const reason = `Settlement transaction refused by the node (${failure.rejection}), nothing sent: ${revertReason(error)}`;
        return failure.rejection === 'rate-limited' || failure.rejection === 'nonce'
          ? { ok: false, reason, broadcast: false, retryAfterSeconds: 1 }
          : { ok: false, reason, broadcast: false, unavailable: true };
      }
      // It may have reached a node: its nonce counts as used, and the outcome is the chain's to tell.
      await this.release(lease, chosen);
      return { ok: false, reason: `Settlement failed while sending transaction ${hash}: ${revertReason(error)}`, broadcast: true };
    }
  }

  /**
   * A failed broadcast, classified (./send-rejection.ts). A stated refusal is believed only when the node then says
   * it does not know our hash; a lookup that fails or runs out of lease leaves the send ambiguous.
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

  /** Never throws: an unreleased lease lapses after its time. */
  private release(lease: KeyLease, sentNonce: number | undefined): Promise<void> {
    return this.leases.release(lease, sentNonce).catch(() => undefined);
  }

  /**
   * The keys with gas above the floor. Balances older than GAS_CHECK_MS are read again, all at once; each read is
   * published as a metric. A key whose balance cannot be read keeps its last known one (the node answers the send).
   */
  private async fuelled(pool: Signer[]): Promise<Signer[]> {
    const stale = pool.filter((signer) => Date.now() - (this.gas.get(signer.account.address)?.at ?? 0) > GAS_CHECK_MS);
    await Promise.all(
      stale.map(async ({ account: { address } }) => {
        try {
          const wei = await this.publicClient.getBalance({ address });
          this.gas.set(address, { wei, at: Date.now() });
          gasMetric(address, wei, this.gasFloorWei);
        } catch {
          // keep the last known balance, if any
        }
      }),
    );
    return pool.filter((signer) => (this.gas.get(signer.account.address)?.wei ?? -1n) >= this.gasFloorWei);
  }
}

/** Runs `step` with a signal that aborts at `deadline` (epoch ms); past it the step fails with a time-out. */
async function withDeadline<T>(step: (signal: AbortSignal) => Promise<T>, deadline: number): Promise<T> {
  const left = deadline - Date.now();
  if (left <= 0) throw new LeaseDeadlineError();
  const signal = AbortSignal.timeout(left);
  return step(signal);
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
