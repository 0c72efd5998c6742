/**
 * Determinism: every render is a pure function of its request. A SHA-256 of the request fields seeds a small
 * PRNG, so the same request always yields the same bytes and a retried render task rewrites identical files.
 */
import { createHash } from 'node:crypto';

export type Rng = () => number;

/** 32-bit seed from any mix of request fields; undefined and '' hash differently on purpose. */
export function seedFrom(...parts: (string | number | boolean | undefined)[]): number {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${typeof part}:${String(part)}\u0000`);
  return hash.digest().readUInt32BE(0);
}

/** mulberry32: tiny, fast and good enough for art; not for anything secret. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function between(r: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * r();
}

export function intBetween(r: Rng, lo: number, hi: number): number {
  return Math.floor(between(r, lo, hi + 1));
}

export function pick<T>(r: Rng, items: readonly T[]): T {
  return items[Math.floor(r() * items.length) % items.length];
}
