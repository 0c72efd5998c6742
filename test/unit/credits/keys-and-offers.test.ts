/** Workspace keys and the top-up's offer (docs/decisions/0013; spec Authentication 5, Limits "Top-up tier"). */
import { describe, expect, it } from 'vitest';
import { hashWorkspaceKey, newWorkspaceKey, readBearer } from '../../../lambdas/credits/keys.js';
import { DEFAULT_TOPUP_TIER, TOPUP_TIERS, topUpOffer, topUpTier } from '../../../lambdas/credits/offers.js';
import { usdcNumber } from '../../../lambdas/shared/money.js';

describe('workspace keys: a random UUID, stored as its SHA-256 only', () => {
  it('issues v4 UUIDs, each new', () => {
    const keys = new Set(Array.from({ length: 100 }, newWorkspaceKey));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('hashes a key to 64 hex characters, the same for either case, never the key itself', () => {
    const key = '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b';
    expect(hashWorkspaceKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashWorkspaceKey(key.toUpperCase())).toBe(hashWorkspaceKey(key));
    expect(hashWorkspaceKey(key)).not.toContain(key.slice(0, 8));
  });

  it('reads only `Authorization: Bearer <uuid>`: missing, malformed, or the key (lower-cased)', () => {
    expect(readBearer(undefined)).toEqual({ kind: 'missing' });
    expect(readBearer('  ')).toEqual({ kind: 'missing' });
    for (const value of ['Bearer', 'Bearer not-a-uuid', 'Basic dXNlcjpwYXNz', 'Bearer 3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b extra', '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b', 'Bearer 3f2b8c1e9a4d4e6f8b2a1c3d5e7f9a0b']) {
      expect(readBearer(value), value).toEqual({ kind: 'malformed' });
    }
    expect(readBearer('Bearer 3F2B8C1E-9A4D-4E6F-8B2A-1C3D5E7F9A0B')).toEqual({ kind: 'key', key: '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b' });
    expect(readBearer('bearer 3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b')).toMatchObject({ kind: 'key' });
  });
});

describe('top-up tiers: 1, 5 or 20 USDC, default 1', () => {
  it('names exactly the three tiers in base units, and nothing else', () => {
    expect(TOPUP_TIERS).toEqual({ 1: 1_000_000n, 5: 5_000_000n, 20: 20_000_000n });
    expect(topUpTier(undefined)).toBe(DEFAULT_TOPUP_TIER);
    expect(DEFAULT_TOPUP_TIER).toBe(1);
    for (const t of ['1', '5', '20']) expect(topUpTier(t)).toBe(Number(t));
    for (const t of ['7', '0', '2', '01', '1.0', '5 ', '', 'one', '-1', '1e1']) expect(topUpTier(t), t).toBeUndefined();
  });

  it('offers the tier\'s amount over x402 (v2 and v1), at the top-up route of the surface', () => {
    const offer = topUpOffer(5, 'http://127.0.0.1:3001');
    expect(offer).toMatchObject({ id: 'topup-5', amount: 5_000_000n, method: 'POST', accepts: ['x402'], legacyV1: true, resource: 'http://127.0.0.1:3001/api/gateway/topup?tier=5' });
    expect(offer.outputExample).toMatchObject({ creditsAdded: 5 });
  });

  it('shows credits as a USDC number, exact, signed for debits', () => {
    expect(usdcNumber(1_000_000n)).toBe(1);
    expect(usdcNumber(80_000n)).toBe(0.08);
    expect(usdcNumber(-80_000n)).toBe(-0.08);
    expect(usdcNumber(0n)).toBe(0);
    expect(usdcNumber(20_123_456n)).toBe(20.123456);
  });
});
