/**
 * The purchase skeleton (docs/decisions/0011): lock → (work) → settle → mark, once, generic over what is bought — a
 * job, an agent run, and next a credit top-up or a credit-billed call. Each purchased item says only what it writes
 * at each step, as one more entry of that step's ledger transaction (lambdas/store/ledger.ts), so a lock never exists
 * without its item and a settled payment always has its item and its receipt:
 *
 *  1. lock the authorization with the item's `reserve` entry, before anything else (a used one is refused);
 *  2. the item's work, if it has any before money moves (an agent's analysis): a throw releases the lock with the
 *     item's `refused` entry (nothing moved) and is rethrown;
 *  3. a token's charge is marked as attempted first (the sweeper must know whether it was ever sent);
 *  4. settle through the payment core, waiting for a receipt no later than the deadline (an x402 purchase begins
 *     its settlement beside steps 1 and 2: the settler leases a key free at that moment and estimates, but sends
 *     nothing until the lock, the chain checks and the work have passed, and gives everything back when they have
 *     not; a key is not held long for a purchase slow to decide: ../early-start.ts);
 *     - refused / unavailable: nothing moved; release the lock with the item's `refused` entry;
 *     - unknown outcome: money may have moved; the item's `unknown` entry marks the lock `uncertain` with it, or,
 *       when the item has none for this payment (an x402 job: the chain decides later), both stay as they are;
 *  5. settled: record the receipt with the item's `settled` entry (given the work's result, finished by the work's
 *     `whileSettling` part, which began when the transfer was sent: it runs beside the block wait).
 * A write that fails after the settlement's outcome is known is logged, never thrown: the sweeper reconciles it,
 * and a buyer who paid is never answered with an error.
 */
import type { AcceptedPayment, Settlement, SettleOptions } from './types.js';
import type { PaymentReceipt } from '../types.js';
import { PaymentAlreadyUsedError, type LedgerItems, type PaymentLedger } from '../../store/ledger.js';
import type { Logger } from '@aws-lambda-powertools/logger';
import { count, countPaid } from '../../shared/metrics.js';
import { chainChecksOf, chainRefusal } from './chain-checks.js';
import { METRIC_NAMES } from '../../shared/metric-names.js';
import { mark, startMarks, writeTiming, type TimingMarks } from '../settlement-timing.js';

/** What one purchased item writes at each step of the skeleton, each in that step's ledger transaction. */
export interface PurchasedItem<W> {
  /** The ledger row's `purchase` member (`job#<id>`, `run#<id>`): where the sweeper and an operator find it. */
  ref: string;
  /** Counted in the paid metrics under this name (a product id, an agent slug). */
  sold: string;
  reserve: LedgerItems;
  /** Nothing moved: the lock is released with this; `when` the work failed, or the settlement refused. */
  refused(reason: string, when: 'work' | 'settle'): LedgerItems;
  /** Money may have moved: the lock stays `uncertain` with this; undefined leaves the lock and the item as they are. */
  unknown(reason: string, work: W): LedgerItems | undefined;
  /**
   * The receipt is recorded with this (a credit top-up: its entry and the balance); `work` is what the work step
   * returned, `receipt` the settlement's (preconfirmed or sealed: docs/decisions/0021).
   */
  settled(transaction: string, work: W, receipt: PaymentReceipt): LedgerItems;
}

/** Work done after the lock and before money moves; a throw releases the lock (nothing moved) with `reasonOf`. */
export interface PurchaseWork<W> {
  run: () => Promise<W> | W;
  reasonOf: (error: unknown) => string;
  /**
   * More work on `run`'s result that can neither fail the purchase nor change whether it is one (an agent's model
   * reasoning, whose failures answer the engine's result): begun when the settler says the transfer left for the node,
   * so it runs while the block is awaited rather than before the send, and never when nothing was sent. What it
   * returns is what `settled` records (a throw keeps `run`'s result). A settler that does not say when it sent (a remote
   * facilitator, a token's issuer): begun once settled. An unknown outcome records `run`'s result, without waiting.
   */
  whileSettling?: (work: W) => Promise<W>;
}

export interface PurchaseSkeletonDeps {
  /** `markCharging` only for purchases that take agent-payment tokens. */
  ledger: Pick<PaymentLedger, 'lock' | 'markSettled' | 'markFailed'> & Partial<Pick<PaymentLedger, 'markCharging'>>;
  settle: (payment: AcceptedPayment, options?: SettleOptions) => Promise<Settlement>;
}

export type PurchaseOutcome<W> =
  /** Nothing was charged: the authorization already paid (or is paying) for something else, and nothing was written;
   *  or the settlement refused it, and the lock is released (unless that write failed: the sweeper then does it). */
  | { type: 'refused'; reason: string; retryAfterSeconds?: number }
  | { type: 'unavailable'; reason: string }
  /** Money may have moved; `kept`: the item's `unknown` entry was written (or tried), else the item stays reserved. */
  | { type: 'unknown'; reason: string; kept: boolean; work: W }
  /** Paid; `recorded`: the receipt and the item's settled entry were written (else the sweeper records them). */
  | { type: 'settled'; receipt: PaymentReceipt; recorded: boolean; work: W };

export async function purchase<W>(
  deps: PurchaseSkeletonDeps,
  payment: AcceptedPayment,
  item: PurchasedItem<W>,
  options: { log: Logger; deadline?: number; work?: PurchaseWork<W>; preconfirmation?: boolean },
): Promise<PurchaseOutcome<W>> {
  const { log } = options;
  // Where the time before the send goes, on a DEBUG line (../settlement-timing.ts); undefined otherwise.
  const marks = startMarks();
  try {
    return await purchaseTimed(deps, payment, item, options, marks);
  } finally {
    writeTiming('purchase', marks, log);
  }
}

async function purchaseTimed<W>(
  deps: PurchaseSkeletonDeps,
  payment: AcceptedPayment,
  item: PurchasedItem<W>,
  options: { log: Logger; deadline?: number; work?: PurchaseWork<W>; preconfirmation?: boolean },
  marks: TimingMarks | undefined,
): Promise<PurchaseOutcome<W>> {
  const { log } = options;
  const { whileSettling } = options.work ?? {};
  let work = undefined as W;
  let finishing: Promise<W> | undefined;
  // Once, and never a throw (not even a synchronous one): after the money moved, the work's own result answers.
  // Begun only after the send, so `work` is the run's result by then.
  const finish = () => (finishing ??= (async () => whileSettling!(work))().catch(() => work));
  // An x402 purchase begins its settlement beside the lock and the chain reads (and the work, an engine's run): the
  // settler leases a key free at that moment and estimates, and sends nothing until told to proceed (a token's charge
  // has nothing to prepare). Every return before the send says no, and waits for it.
  const charge: SettleOptions = {
    deadline: options.deadline,
    ...(options.preconfirmation ? { preconfirmation: true } : {}),
    ...(whileSettling ? { onBroadcast: () => void finish() } : {}),
  };
  let proceed: ((go: boolean) => void) | undefined;
  const early = payment.kind === 'x402' ? deps.settle(payment, { ...charge, proceed: new Promise<boolean>((resolve) => (proceed = resolve)) }) : undefined;
  // Handled from the start: a settler that throws before the lock is written must not be an unhandled rejection.
  early?.catch(() => undefined);
  const abandon = async () => {
    proceed?.(false);
    await early?.catch(() => undefined);
  };
  // The lock is written while the verification's chain reads, if left in flight, finish (./chain-checks.ts).
  const [locked, chain] = await Promise.all([
    deps.ledger.lock({ nonceKey: payment.nonceKey, amount: payment.amount, payer: payment.payer, purchase: item.ref }, item.reserve).then(
      () => mark(marks, 'locked'),
      (error: unknown) => error,
    ),
    marks ? chainChecksOf(payment).finally(() => mark(marks, 'checked')) : chainChecksOf(payment),
  ]);
  if (locked !== undefined) {
    await abandon();
    if (locked instanceof PaymentAlreadyUsedError) return { type: 'refused', reason: locked.message };
    throw locked;
  }
  if (!chain.ok) {
    await abandon();
    // The chain refused the payment (or could not be read) after the lock was written: nothing moved, released.
    const refusal = chainRefusal(chain);
    const reason = 'refused' in refusal ? refusal.refused : refusal.unavailable;
    try {
      await deps.ledger.markFailed(payment.nonceKey, reason, 'nothing-moved', item.refused(reason, 'settle'));
    } catch (error) {
      log.error('could not release the lock of a payment the chain refused; the sweeper does', { error: (error as Error).message });
    }
    return 'refused' in refusal ? { type: 'refused', reason } : { type: 'unavailable', reason };
  }

  try {
    if (options.work) work = await options.work.run();
    mark(marks, 'worked');
  } catch (error) {
    await abandon();
    const reason = options.work!.reasonOf(error);
    await deps.ledger.markFailed(payment.nonceKey, reason, 'nothing-moved', item.refused(reason, 'work'));
    throw error;
  }

  // A token's issuer has no status lookup: mark the attempt first, so the sweeper never delivers an item whose
  // charge was never sent (a crash here leaves `locked`, which it voids and releases).
  if (payment.kind === 'token') {
    if (!deps.ledger.markCharging) throw new Error(`${item.ref} cannot be bought with an agent-payment token`);
    await deps.ledger.markCharging(payment.nonceKey);
  }

  proceed?.(true);
  const settlement = await (early ?? deps.settle(payment, charge));
  mark(marks, 'settled');
  if (settlement.type !== 'settled') {
    log.warn('settlement not completed', { outcome: settlement.type, reason: settlement.reason });
    count(settlement.type === 'unknown-outcome' ? METRIC_NAMES.settlementUnknownOutcome : METRIC_NAMES.settlementFailed);
    if (settlement.type === 'unknown-outcome') {
      const entry = item.unknown(settlement.reason, work);
      if (!entry) {
        log.error('settlement outcome unknown; the sweeper reconciles it against the chain', { reason: settlement.reason });
        return { type: 'unknown', reason: settlement.reason, kept: false, work };
      }
      try {
        await deps.ledger.markFailed(payment.nonceKey, settlement.reason, 'may-have-moved', entry);
      } catch (error) {
        log.error('could not mark the outcome unknown; the item stays reserved with its lock', { error: (error as Error).message });
      }
      return { type: 'unknown', reason: settlement.reason, kept: true, work };
    }
    try {
      await deps.ledger.markFailed(payment.nonceKey, settlement.reason, 'nothing-moved', item.refused(settlement.reason, 'settle'));
    } catch (error) {
      // The item stays reserved with its lock; the sweeper closes it later. Still a refusal: nothing runs.
      log.error('could not release the lock; the sweeper does', { error: (error as Error).message });
    }
    if (settlement.type === 'unavailable') return { type: 'unavailable', reason: settlement.reason };
    return settlement.retryAfterSeconds
      ? { type: 'refused', reason: settlement.reason, retryAfterSeconds: settlement.retryAfterSeconds }
      : { type: 'refused', reason: settlement.reason };
  }

  // From here on money has moved: record it (with the work finished beside the block wait), and answer whatever the
  // record does.
  const { receipt } = settlement;
  countPaid(item.sold, payment.amount);
  if (whileSettling) work = await finish();
  try {
    await deps.ledger.markSettled(payment.nonceKey, receipt.transaction, item.settled(receipt.transaction, work, receipt));
    mark(marks, 'recorded');
    return { type: 'settled', receipt, recorded: true, work };
  } catch (error) {
    log.error('receipt not recorded; the sweeper reconciles it', { error: (error as Error).message, transaction: receipt.transaction });
    return { type: 'settled', receipt, recorded: false, work };
  }
}
