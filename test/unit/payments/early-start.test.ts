/**
 * The key of a settlement begun before its purchase is ready (lambdas/payments/early-start.ts): kept for a purchase
 * that decides quickly, given back while a slow one decides (so the pool never waits on undecided work), given back
 * when told no, and taken anew when the early attempt found every key busy.
 */
import { describe, expect, it, vi } from 'vitest';
import { EARLY_HOLD_MS, whenDecided } from '../../../lambdas/payments/early-start.js';
import type { KeySender } from '../../../lambdas/payments/key-sender.js';

type Taken = Awaited<ReturnType<KeySender['take']>>;
const key = (name: string) => ({ ok: true, name }) as unknown as Taken;
const busy = { ok: false, reason: 'every settlement key is busy', broadcast: false, retryAfterSeconds: 1 } as Taken;
const noGas = { ok: false, reason: 'Every settlement key is below its gas floor', broadcast: false, unavailable: true } as Taken;
const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

function keys() {
  return { release: vi.fn(async () => {}) };
}

describe('A settlement begun early keeps its key only while the purchase decides quickly', () => {
  it('decided within the hold: sends with the early key, nothing given back or taken again', async () => {
    const k = keys();
    const retake = vi.fn(async () => key('late'));
    expect(await whenDecided(k, Promise.resolve(key('early')), after(10, true), retake)).toEqual(key('early'));
    expect(k.release).not.toHaveBeenCalled();
    expect(retake).not.toHaveBeenCalled();
  });

  it('undecided past the hold: the early key is given back at once, and a key is taken when it proceeds', async () => {
    const k = keys();
    const retake = vi.fn(async () => key('late'));
    const decided = whenDecided(k, Promise.resolve(key('early')), after(EARLY_HOLD_MS + 150, true), retake);
    await after(EARLY_HOLD_MS + 50, undefined);
    // Given back while the purchase still decides: another settlement can lease it now.
    expect(k.release).toHaveBeenCalledWith(key('early'));
    expect(retake).not.toHaveBeenCalled();
    expect(await decided).toEqual(key('late'));
    expect(retake).toHaveBeenCalledTimes(1);
  });

  it('told no (quickly, or after the hold): nothing is sent and the key is given back once', async () => {
    for (const wait of [5, EARLY_HOLD_MS + 50]) {
      const k = keys();
      const retake = vi.fn(async () => key('late'));
      expect(await whenDecided(k, Promise.resolve(key('early')), after(wait, false), retake)).toBeUndefined();
      expect(k.release).toHaveBeenCalledTimes(1);
      expect(retake).not.toHaveBeenCalled();
    }
  });

  it('a purchase that fails (its promise rejects) is a no', async () => {
    const k = keys();
    expect(await whenDecided(k, Promise.resolve(key('early')), Promise.reject(new Error('lock failed')), vi.fn())).toBeUndefined();
    expect(k.release).toHaveBeenCalledTimes(1);
  });

  it('every key busy at the early attempt: a key is taken (waiting) once it proceeds; no key with gas stays the answer', async () => {
    const retake = vi.fn(async () => key('late'));
    expect(await whenDecided(keys(), Promise.resolve(busy), Promise.resolve(true), retake)).toEqual(key('late'));
    const again = vi.fn(async () => key('late'));
    expect(await whenDecided(keys(), Promise.resolve(noGas), Promise.resolve(true), again)).toEqual(noGas);
    expect(again).not.toHaveBeenCalled();
  });
});
