/**
 * The receipt wait polls around the blocks it expects (lambdas/payments/block-clock.ts), on a simulated chain in
 * virtual time: blocks every 2000 ms from a phase the clock does not know, a transfer in the first block sealed at
 * least `inclusionMs` after its send, each poll taking `rttMs`. The figures asserted are the point of the change:
 * polls per paid answer, and the answer's delay after the block that holds the transfer.
 */
import { describe, expect, it } from 'vitest';
import { BlockClock, waitForReceipt } from '../../../lambdas/payments/block-clock.js';

const HASH = `0x${'ab'.repeat(32)}` as const;
const BLOCK_MS = 2000;
const POLL_MS = 50;

function simulatedChain(options: { phaseMs: number; rttMs?: number; inclusionMs?: number; blockMs?: number; lagMs?: number }) {
  const { rttMs = 2, inclusionMs = 20, blockMs = BLOCK_MS, lagMs = 0 } = options;
  let phaseMs = options.phaseMs;
  let t = 1_000_000;
  let polls = 0;
  let minedAt = Infinity;
  const now = () => t;
  const sleep = async (ms: number) => {
    t += Math.max(0, ms);
  };
  /** The first block arriving at least inclusionMs after `sentAt`. */
  const blockAfter = (sentAt: number) => {
    const earliest = sentAt + inclusionMs;
    return Math.ceil((earliest - phaseMs) / blockMs) * blockMs + phaseMs;
  };
  const reader = {
    // As the chain client's: one request; viem's TransactionReceiptNotFoundError while the transaction is in no block.
    async getTransactionReceipt(_: { hash: string }) {
      polls++;
      t += rttMs;
      if (t - rttMs / 2 < minedAt) throw Object.assign(new Error('not found'), { name: 'TransactionReceiptNotFoundError' });
      // A busy instance handles the answer late (its event loop): whatever it notes after is late by that much.
      t += lagMs;
      return { status: 'success' as const };
    },
  };
  return {
    now,
    sleep,
    reader,
    /** Sends at the current time plus `atMs`; answers the polls it took and the delay after its block (ms). */
    async pay(clock: BlockClock, atMs: number, mined?: (sentAt: number) => number) {
      t += atMs;
      const sentAt = t;
      minedAt = mined ? mined(sentAt) : blockAfter(sentAt);
      const before = polls;
      await waitForReceipt(reader, clock, { hash: HASH, timeout: 30_000 }, now, sleep);
      return { polls: polls - before, lateMs: t - minedAt, waitedMs: t - sentAt };
    },
    neverMined() {
      minedAt = Infinity;
    },
    shiftPhase(byMs: number) {
      phaseMs += byMs;
    },
    get t() {
      return t;
    },
  };
}

describe('Receipt wait paced by the block clock', () => {
  it('a new instance polls from the send and learns the phase; every later payment polls about four times, answered within a poll of its block', async () => {
    const chain = simulatedChain({ phaseMs: 737 });
    const clock = new BlockClock(BLOCK_MS, POLL_MS);
    const first = await chain.pay(clock, 0);
    expect(clock.known).toBe(true);
    expect(first.lateMs).toBeLessThanOrEqual(POLL_MS + 4);
    const later = [];
    // Payments at every phase of the block: right after one, in the middle, just before the next.
    for (const offset of [113, 1_031, 1_650, 1_910, 2_333, 3_999, 777, 1_234]) later.push(await chain.pay(clock, offset));
    for (const payment of later) {
      expect(payment.polls).toBeLessThanOrEqual(4);
      expect(payment.lateMs).toBeLessThanOrEqual(POLL_MS + 4);
    }
    // Without the clock, the same payments poll from the send: one poll per interval of the wait.
    const unpaced = simulatedChain({ phaseMs: 737 });
    const continuous = new BlockClock(0, POLL_MS);
    const polls = [];
    for (const offset of [113, 1_031, 1_650, 1_910, 2_333, 3_999, 777, 1_234]) polls.push((await unpaced.pay(continuous, offset)).polls);
    expect(continuous.known).toBe(false);
    expect(polls.reduce((a, b) => a + b)).toBeGreaterThan(3 * later.reduce((a, b) => a + b.polls, 0));
  });

  it('a transfer that misses the block it was sent before is found in the next block\'s window, still within a poll of it', async () => {
    const chain = simulatedChain({ phaseMs: 0, inclusionMs: 20 });
    const clock = new BlockClock(BLOCK_MS, POLL_MS);
    await chain.pay(clock, 0);
    // Sent 10 ms before a block is due: too late for it (inclusion takes 20 ms), in the one after.
    const due = Math.ceil(chain.t / BLOCK_MS) * BLOCK_MS + BLOCK_MS;
    const missed = await chain.pay(clock, due - 10 - chain.t);
    expect(missed.waitedMs).toBeGreaterThan(BLOCK_MS);
    expect(missed.lateMs).toBeLessThanOrEqual(POLL_MS + 4);
    // The window of the missed block and the next one's: a dozen polls, not the forty of polling throughout.
    expect(missed.polls).toBeLessThanOrEqual(Math.ceil((clock.leadMs + clock.graceMs) / POLL_MS) + 4);
  });

  it('blocks that start coming earlier than the clock expects: two answers are late by the shift, the clock relearns, and the next answers are on time again', async () => {
    const chain = simulatedChain({ phaseMs: 500 });
    const clock = new BlockClock(BLOCK_MS, POLL_MS);
    await chain.pay(clock, 0);
    await chain.pay(clock, 700);
    chain.shiftPhase(-600);
    // Found at the first poll of a window that opened on time: the estimate moves a lead earlier, still late; found
    // so again, it is dropped, not trusted a third time.
    const shifted = await chain.pay(clock, 900);
    expect(shifted.lateMs).toBeLessThanOrEqual(600);
    expect(clock.known).toBe(true);
    const again = await chain.pay(clock, 900);
    expect(again.lateMs).toBeLessThanOrEqual(600);
    expect(clock.known).toBe(false);
    const relearning = await chain.pay(clock, 300);
    expect(relearning.lateMs).toBeLessThanOrEqual(POLL_MS + 4);
    expect(clock.known).toBe(true);
    const after = await chain.pay(clock, 1_100);
    expect(after.polls).toBeLessThanOrEqual(4);
    expect(after.lateMs).toBeLessThanOrEqual(POLL_MS + 4);
  });

  it('an instance slow to handle its answers (a busy event loop) stays paced: its estimates are not late by its lag', async () => {
    const lagMs = 150;
    const chain = simulatedChain({ phaseMs: 321, lagMs });
    const clock = new BlockClock(BLOCK_MS, POLL_MS);
    await chain.pay(clock, 0);
    const paced = [];
    for (const offset of [500, 1_200, 300, 1_700, 900, 1_100, 400, 1_500, 800, 1_300, 600, 1_000]) paced.push(await chain.pay(clock, offset));
    // The first window opens late (the estimate carries the lag); from then on each answer is within a poll of its
    // block (plus the instance's own lag), and none polls from its send again.
    // The estimates come from when the polls were sent, so the lag does not make them late: every answer comes
    // within a poll of its block (plus the lag itself), and none polls from its send again.
    for (const payment of paced) expect(payment.lateMs).toBeLessThanOrEqual(POLL_MS + lagMs + 4);
    expect(Math.max(...paced.map((p) => p.polls))).toBeLessThanOrEqual(4);
    expect(clock.known).toBe(true);
  });

  it('a block late by less than the grace is still answered within a poll of it', async () => {
    const chain = simulatedChain({ phaseMs: 0 });
    const clock = new BlockClock(BLOCK_MS, POLL_MS);
    await chain.pay(clock, 0);
    const late = await chain.pay(clock, 300, (sentAt) => Math.ceil(sentAt / BLOCK_MS) * BLOCK_MS + clock.graceMs - 100);
    expect(late.lateMs).toBeLessThanOrEqual(POLL_MS + 4);
  });

  it('a chain that mines a block per transaction (no interval): the receipt is found at the first poll, nothing learnt', async () => {
    const chain = simulatedChain({ phaseMs: 0 });
    const clock = new BlockClock(0, POLL_MS);
    const automine = await chain.pay(clock, 0, (sentAt) => sentAt);
    expect(automine).toMatchObject({ polls: 1, lateMs: expect.any(Number) });
    expect(automine.waitedMs).toBeLessThan(POLL_MS);
    expect(clock.known).toBe(false);
  });

  it('a transfer never mined: the wait ends with the reader\'s time-out at its deadline, not a window later', async () => {
    const chain = simulatedChain({ phaseMs: 0 });
    const clock = new BlockClock(BLOCK_MS, POLL_MS);
    await chain.pay(clock, 0);
    chain.neverMined();
    const started = chain.t;
    await expect(waitForReceipt(chain.reader, clock, { hash: HASH, timeout: 5_000 }, chain.now, chain.sleep)).rejects.toThrow(/Timed out while waiting for transaction/);
    expect(chain.t - started).toBeGreaterThanOrEqual(5_000);
    expect(chain.t - started).toBeLessThan(5_000 + POLL_MS + 10);
  });
});
