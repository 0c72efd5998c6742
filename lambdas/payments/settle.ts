/**
 * Self-settlement: the service submits the buyer's EIP-3009 authorization itself and pays the gas.
 *
 * The one fact the caller needs from a failure is whether money may have moved, so every step before the raw
 * transaction leaves this process reports broadcast=false (simulation and gas estimation refuse a doomed
 * authorization without spending anything), and everything from the send onward reports broadcast=true.
 *
 * Nonces across instances (docs/decisions/0005): a pool of keys, each with its own nonce sequence; a send holds
 * its key's lease (lambdas/store/settler-leases.ts) only while it chooses and commits the nonce, and broadcasts
 * after giving the key back (./key-sender.ts), so any number of function instances share the keys without reusing
 * or skipping a nonce. A key below its gas floor takes no new settlement; when every key is low the settler is
 * unavailable (503), and when every key is busy past the wait budget it is back-pressured (402 with Retry-After).
 */
import { defineChain, encodeFunctionData, parseSignature, type Chain } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadSettlerKeys, type SettlerKeySource } from './secrets.js';
import type { ChargeOptions, Hex, PaymentSettler, SettleResult, VerifiedPayment } from './types.js';
import type { SettlerLeases } from '../store/settler-leases.js';
import { GasBalances } from './gas-balances.js';
import { usdcAbi } from './usdc-abi.js';
import { shortMessage } from './verify.js';
import { publicClientFor, senderFor, type ChainReader } from './chain-client.js';
import { KeySender, LEASE_MS, revertReason, type Prepared, type Signer } from './key-sender.js';
import { BlockClock, waitForReceipt } from './block-clock.js';
import { whenDecided } from './early-start.js';
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

export { revertReason };
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
/** Fee estimates are shared for this long per instance (Base makes a block every 2 s). */
const FEES_MAX_AGE_MS = 1_000;

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

export class SelfSettler implements PaymentSettler {
  private readonly config: SelfSettlerConfig;
  private readonly publicClient: ChainReader;
  private readonly preconfReader?: ChainReader;
  private readonly loadKeys: () => Promise<Hex[]>;
  private readonly keys: KeySender;
  private readonly receiptTimeoutMs: number;
  private readonly gas: GasBalances;
  private fees?: { value: Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }>; at: number };
  /** When this instance expects the chain's blocks: sealed receipts are asked for around them. */
  private readonly clock: BlockClock;
  /** No schedule: a preconfirmation comes every 200 ms, so it is asked for from the send. */
  private readonly fromSend: BlockClock;

  constructor(options: SelfSettlerOptions) {
    this.config = options.config;
    this.publicClient = options.publicClient ?? publicClientFor(options.config.rpcUrl);
    this.gas = new GasBalances(this.publicClient, options.config.gasFloorWei ?? 0n);
    this.keys = new KeySender(options.leases, this.publicClient, options.leaseMs ?? LEASE_MS, options.keyWaitMs ?? 10_000, (address) =>
      this.gas.forget(address),
    );
    this.preconfReader = options.preconfReader;
    this.loadKeys = options.loadKeys ?? (() => loadSettlerKeys(options.config));
    this.receiptTimeoutMs = options.receiptTimeoutMs ?? 60_000;
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
    // nothing is spent) while the fees are read and a key is leased, its pending count read beside (they wait on
    // different services); neither the estimate nor the fees depend on the sender's nonce (nor, for this call, on
    // the sender). A doomed authorization gives its key back at once.
    // Begun before the purchase is ready (options.proceed): only a key free at once is leased now (one round, no
    // waiting), so an early start never queues for a key while the purchase may still be refused.
    let key = this.keys.take(() => this.gas.fuelled(pool), options.deadline, options.proceed ? 0 : undefined);
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
      if (taken?.ok) await this.keys.release(taken);
      // The purchase answers its own refusal first (a lock already taken, a failed chain check) when it has one.
      if (options.proceed) await options.proceed.catch(() => false);
      return { ok: false, reason: `Settlement refused before broadcast: ${revertReason(error)}`, broadcast: false };
    }
    if (options.proceed) {
      const decided = await whenDecided(this.keys, key, options.proceed, () => this.keys.take(() => this.gas.fuelled(pool), options.deadline));
      if (!decided) return { ok: false, reason: 'Settlement abandoned before broadcast', broadcast: false };
      key = Promise.resolve(decided);
    }
    const taken = await key;
    if (!taken.ok) return taken;
    const sent = await this.keys.send(taken, prepared, marks);
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
      await sent.recorded;
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
}
