/**
 * When the chain's next block is due, as this instance has seen blocks arrive (block-phase-aware receipt
 * polling). On Base a block comes every 2 s, on the clock; a settlement's receipt can only appear when one does.
 * Polling the receipt every 50 ms from the send, as the settler did, asked the node about 20 times per paid answer
 * (a second's wait on average), nearly all of them before the block could have come: on a keyed RPC provider, billed
 * and rate-limited per request, that was most of the service's RPC traffic, and at 64 concurrent buyers on two cores
 * a good part of its own CPU per paid request.
 *
 * So the wait sleeps until just before the next block is due and polls only around it, in a window from `lead`
 * before the due time to `grace` after; a transfer not in that block (sent too late for it) sleeps until the next
 * window. The due times are learnt from the waits themselves: a receipt found by a poll that followed an empty one
 * arrived between the two requests, so at their midpoint, give or take half a polling interval (the times are those
 * the requests were sent at, so an instance slow to handle the answers does not make the estimate late). Every such
 * wait refreshes the estimate. A receipt found by the first poll of a window that opened on time means the block came
 * earlier than the estimate said: the estimate moves a lead earlier; when that happens twice running the phase itself
 * has moved, and the estimate is dropped: the next wait polls from its send, as without a clock, and learns it again.
 * Until the first estimate (a new instance), or without a block interval (a chain that mines a block per
 * transaction), the wait polls from the send at the polling interval.
 *
 * Per instance, as a Lambda instance keeps its module state between invocations; nothing is shared or stored.
 */
import { WaitForTransactionReceiptTimeoutError, type Hex } from 'viem';

export interface ReceiptWindow {
  /** When the first poll for the block goes out (epoch ms). */
  opensAt: number;
  /** After this, the transfer was not in that block: the wait sleeps until the next window. */
  closesAt: number;
}

export class BlockClock {
  /** The latest estimated arrival of a block (epoch ms, this instance's clock). */
  private arrivedAt?: number;
  /** The last wait found its block already there when its window opened (the estimate was late). */
  private early = false;

  /**
   * `intervalMs`: the chain's block interval (Base's 2000); 0 or less: no schedule, every wait polls from its send.
   * `pollMs`: the polling interval inside a window, the answer's delay after the block at most.
   */
  constructor(
    readonly intervalMs: number,
    readonly pollMs: number,
  ) {}

  get known(): boolean {
    return this.arrivedAt !== undefined;
  }

  /** Polls start this long before a block is due: two empty polls, so the arrival is seen between two of them. */
  get leadMs(): number {
    return 2 * this.pollMs;
  }

  /** A block late by up to this still finds the window open (at least a quarter block, four polls). */
  get graceMs(): number {
    return Math.max(4 * this.pollMs, Math.floor(this.intervalMs / 4));
  }

  /**
   * The window of the first block due at or after `after` (a transfer sent after a block arrived is not in it);
   * undefined when the clock knows no arrival yet.
   */
  windowAfter(after: number): ReceiptWindow | undefined {
    if (this.arrivedAt === undefined || this.intervalMs <= 0) return undefined;
    const blocks = Math.max(0, Math.ceil((after - this.arrivedAt) / this.intervalMs));
    const due = this.arrivedAt + blocks * this.intervalMs;
    return { opensAt: due - this.leadMs, closesAt: due + this.graceMs };
  }

  /** A block arrived between a poll sent at `emptyAt` (no receipt yet) and one sent at `foundAt` (its receipt). */
  seen(emptyAt: number, foundAt: number): void {
    if (this.intervalMs <= 0 || foundAt - emptyAt > 3 * this.pollMs) return;
    this.arrivedAt = (emptyAt + foundAt) / 2;
    this.early = false;
  }

  /**
   * The block was there before the window opened: the estimate was late. Once, it moves a lead earlier; twice
   * running, it is dropped (the next wait learns it again from its send).
   */
  cameEarly(): void {
    if (this.arrivedAt === undefined) return;
    if (this.early) {
      this.arrivedAt = undefined;
      this.early = false;
      return;
    }
    this.arrivedAt -= this.leadMs;
    this.early = true;
  }
}

/** One receipt request: viem's `getTransactionReceipt` (the chain client's, a PublicClient's, a test's). */
export interface ReceiptPoller<R> {
  /** Throws viem's TransactionReceiptNotFoundError while the transaction is in no block. */
  getTransactionReceipt(args: { hash: Hex }): Promise<R>;
}

/**
 * Waits for `hash`'s receipt until `timeout` ms have passed, polling every `clock.pollMs` around the blocks the
 * clock expects (all the time when it expects none), as above. Past `timeout` it throws viem's
 * WaitForTransactionReceiptTimeoutError (as viem's own wait does); a request that fails fails the wait.
 */
export async function waitForReceipt<R>(
  reader: ReceiptPoller<R>,
  clock: BlockClock,
  { hash, timeout }: { hash: Hex; timeout: number },
  now: () => number = Date.now,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<R> {
  const deadline = now() + timeout;
  const poll = async (): Promise<R | undefined> => {
    try {
      return await reader.getTransactionReceipt({ hash });
    } catch (error) {
      if ((error as Error)?.name === 'TransactionReceiptNotFoundError') return undefined;
      throw error;
    }
  };
  /** When the last poll that found nothing was sent, if the one before this was one. */
  let emptyAt: number | undefined;
  for (let after = now(); ; ) {
    const window = clock.windowAfter(after);
    if (window) {
      if (window.opensAt >= deadline) {
        // No window opens before the deadline: one last poll at it.
        await sleep(Math.max(0, deadline - now()));
        const last = await poll();
        if (last !== undefined) return last;
        throw new WaitForTransactionReceiptTimeoutError({ hash });
      }
      if (now() < window.opensAt) {
        await sleep(window.opensAt - now());
        emptyAt = undefined;
      }
    }
    // Polls until the receipt, the window's end, or the deadline (with no window: the deadline).
    const until = window ? Math.min(window.closesAt, deadline) : deadline;
    const onTime = window !== undefined && now() - window.opensAt < clock.pollMs;
    for (let first = true; ; first = false) {
      const sentAt = now();
      const receipt = await poll();
      if (receipt !== undefined) {
        if (emptyAt !== undefined) clock.seen(emptyAt, sentAt);
        else if (first && onTime) clock.cameEarly();
        return receipt;
      }
      emptyAt = sentAt;
      const left = until - now();
      if (left <= 0) break;
      await sleep(Math.min(clock.pollMs, left));
    }
    if (now() >= deadline) throw new WaitForTransactionReceiptTimeoutError({ hash });
    // The window closed without it (it was not in that block): the next block's window.
    after = window!.closesAt;
  }
}
