/**
 * An in-memory SettlerLeases for tests of one settler in one process (the settlement logic itself). The guarantee
 * across instances is tested against DynamoDB Local (test/components/settlement-instances.test.ts).
 */
import type { KeyLease, SettlerLeases } from '../../lambdas/store/settler-leases.js';

export function memoryLeases(): SettlerLeases & { rows: Map<string, { holder?: string; until?: number; lastNonce?: number; lastSentAt?: number }> } {
  const rows = new Map<string, { holder?: string; until?: number; lastNonce?: number; lastSentAt?: number }>();
  return {
    rows,
    async acquire(address, holder, leaseMs) {
      const key = address.toLowerCase();
      const row = rows.get(key) ?? {};
      if (row.holder && (row.until ?? 0) >= Date.now()) return undefined;
      rows.set(key, { ...row, holder, until: Date.now() + leaseMs });
      return { address: key, holder, until: Date.now() + leaseMs, lastNonce: row.lastNonce, lastSentAt: row.lastSentAt } satisfies KeyLease;
    },
    async renew(lease, leaseMs) {
      const row = rows.get(lease.address);
      if (!row || row.holder !== lease.holder) return undefined;
      row.until = Date.now() + leaseMs;
      return row.until;
    },
    async release(lease, sentNonce) {
      const row = rows.get(lease.address);
      if (!row || row.holder !== lease.holder) return;
      rows.set(lease.address, { lastNonce: sentNonce ?? row.lastNonce, lastSentAt: sentNonce === undefined ? row.lastSentAt : Date.now() });
    },
  };
}
