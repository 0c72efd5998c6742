/**
 * The choice of a nonce from the lease's record and the node's pending count (lambdas/payments/key-sender.ts): a gap
 * first, then the record when recent, else the node. The sequence across instances is proven on DynamoDB Local and
 * the local chain (test/components/settlement-gaps.test.ts, settlement-instances.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { chooseNonce, LEASE_MARGIN_MS } from '../../../lambdas/payments/key-sender.js';
import type { KeyLease } from '../../../lambdas/store/settler-leases.js';

const now = 1_000_000;
const lease = (over: Partial<KeyLease> = {}): KeyLease => ({ address: '0xabc', holder: 'h', until: now + 10_000, sending: new Map(), ...over });

describe('chooseNonce', () => {
  it("takes the node's count for a key never used through a lease", () => {
    expect(chooseNonce(lease(), 7, now)).toEqual({ nonce: 7, lastNonce: 7, cleared: [], gap: false });
  });

  it('takes the next after a recent record over a node that has not seen it yet, and the node when it is ahead', () => {
    expect(chooseNonce(lease({ lastNonce: 9, lastSentAt: now - 100, sending: new Map([[9, now + 7_000]]) }), 9, now).nonce).toBe(10);
    expect(chooseNonce(lease({ lastNonce: 9, lastSentAt: now - 100 }), 12, now).nonce).toBe(12);
  });

  it("trusts the node once the record is old (a send that never arrived is then the node's next)", () => {
    expect(chooseNonce(lease({ lastNonce: 9, lastSentAt: now - 31_000 }), 9, now).nonce).toBe(9);
  });

  it('fills the lowest overdue nonce the node does not count, before the next', () => {
    const sending = new Map([[5, now - LEASE_MARGIN_MS - 1], [6, now - LEASE_MARGIN_MS - 1], [8, now + 5_000]]);
    expect(chooseNonce(lease({ lastNonce: 8, lastSentAt: now - 50, sending }), 6, now)).toEqual({ nonce: 6, lastNonce: 8, cleared: [5], gap: true });
  });

  it('waits for a nonce inside its deadline and margin: not a gap yet', () => {
    const sending = new Map([[5, now - LEASE_MARGIN_MS + 10]]);
    expect(chooseNonce(lease({ lastNonce: 5, lastSentAt: now - 8_000, sending }), 5, now)).toEqual({ nonce: 6, lastNonce: 6, cleared: [], gap: false });
  });

  it('clears overdue nonces the node counts (they arrived)', () => {
    const sending = new Map([[3, 0], [4, 0]]);
    expect(chooseNonce(lease({ lastNonce: 4, lastSentAt: now - 50, sending }), 5, now)).toEqual({ nonce: 5, lastNonce: 5, cleared: [3, 4], gap: false });
  });
});
