/**
 * An in-memory SettlerLeases for tests of one settler in one process (the settlement logic itself). The guarantee
 * across instances is tested against DynamoDB Local (test/components/settlement-instances.test.ts).
 */
import type { KeyLease, SettlerLeases } from '../../lambdas/store/settler-leases.js';

interface Row {
  holder?: string;
  until?: number;
  lastNonce?: number;
  lastSentAt?: number;
  lastHolder?: string;
  prev?: { lastNonce?: number; lastSentAt?: number };
  sending: Map<number, number>;
}

export function memoryLeases(): SettlerLeases & { rows: Map<string, Row> } {
  const rows = new Map<string, Row>();
  const row = (address: string) => rows.get(address) ?? (rows.set(address, { sending: new Map() }), rows.get(address)!);
  return {
    rows,
    async acquire(address, holder, leaseMs) {
      const r = row(address.toLowerCase());
      if (r.holder && (r.until ?? 0) >= Date.now()) return undefined;
      Object.assign(r, { holder, until: Date.now() + leaseMs });
      return { address: address.toLowerCase(), holder, until: r.until!, lastNonce: r.lastNonce, lastSentAt: r.lastSentAt, sending: new Map(r.sending) } satisfies KeyLease;
    },
    async commit(lease, { nonce, sendBy, lastNonce, cleared }) {
      const r = row(lease.address);
      if (r.holder !== lease.holder) return false;
      for (const n of cleared) r.sending.delete(n);
      r.sending.set(nonce, sendBy);
      Object.assign(r, { prev: { lastNonce: lease.lastNonce, lastSentAt: lease.lastSentAt }, lastNonce, lastSentAt: Date.now(), lastHolder: lease.holder, holder: undefined, until: undefined });
      return true;
    },
    async sent(address, nonce) {
      row(address).sending.delete(nonce);
    },
    async withdraw(lease, nonce) {
      const r = row(lease.address);
      if (r.lastHolder === lease.holder && r.lastNonce === nonce && !r.holder) {
        Object.assign(r, { lastNonce: r.prev?.lastNonce, lastSentAt: r.prev?.lastSentAt });
        r.sending.delete(nonce);
        return true;
      }
      r.sending.set(nonce, 0);
      return false;
    },
    async release(lease) {
      const r = row(lease.address);
      if (r.holder === lease.holder) Object.assign(r, { holder: undefined, until: undefined });
    },
  };
}
