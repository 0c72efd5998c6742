/**
 * Which keys have gas (lambdas/payments/gas-balances.ts): a key never read waits for its first reading; a key read
 * before is judged on it while it is read again, off the lease's path; a key forgotten (the node refused it for want
 * of gas) waits for a fresh reading; one reading per key at a time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { GAS_CHECK_MS, GasBalances } from '../../../lambdas/payments/gas-balances.js';
import type { Signer } from '../../../lambdas/payments/key-sender.js';

const signer = (n: number) => ({ account: privateKeyToAccount(`0x${String(n).padStart(64, '0')}`) }) as unknown as Signer;
const pool = [signer(1), signer(2)];

/** A balance reader answering from `balances`, each reading held until `release` is called. */
function reader(balances: Map<string, bigint>) {
  const held: (() => void)[] = [];
  const getBalance = vi.fn(({ address }: { address: string }) => new Promise<bigint>((resolve) => held.push(() => resolve(balances.get(address) ?? 0n))));
  return { getBalance, release: () => held.splice(0).forEach((go) => go()) };
}

/** Keys with these balances, already read once (the first reading released), floor 5 wei. */
async function read(balances: Map<string, bigint>) {
  const r = reader(balances);
  const gas = new GasBalances(r, 5n);
  const first = gas.fuelled(pool);
  await Promise.resolve();
  r.release();
  return { r, gas, first: await first };
}

afterEach(() => vi.useRealTimers());

describe('Which settlement keys have gas', () => {
  it('a key never read waits for its first reading; below the floor it is not offered', async () => {
    const balances = new Map([[pool[0].account.address, 10n], [pool[1].account.address, 1n]]);
    const r = reader(balances);
    const gas = new GasBalances(r, 5n);
    const first = gas.fuelled(pool);
    await Promise.resolve();
    expect(r.getBalance).toHaveBeenCalledTimes(2);
    r.release();
    expect(await first).toEqual([pool[0]]);
  });

  it('a stale reading is used while the key is read again (the lease does not wait); the new reading counts next', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const balances = new Map([[pool[0].account.address, 10n], [pool[1].account.address, 10n]]);
    const { r, gas, first } = await read(balances);
    expect(first).toEqual(pool);
    vi.setSystemTime(Date.now() + GAS_CHECK_MS + 1);
    balances.set(pool[1].account.address, 1n);
    // Answered at once on the last readings, both read again meanwhile (held: the answer did not wait for them).
    expect(await gas.fuelled(pool)).toEqual(pool);
    expect(r.getBalance).toHaveBeenCalledTimes(4);
    // One reading per key at a time: asking again while they are held reads nothing more.
    expect(await gas.fuelled(pool)).toEqual(pool);
    expect(r.getBalance).toHaveBeenCalledTimes(4);
    r.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await gas.fuelled(pool)).toEqual([pool[0]]);
  });

  it('a key forgotten (refused for want of gas) waits for a fresh reading before it is offered again', async () => {
    const balances = new Map([[pool[0].account.address, 10n], [pool[1].account.address, 10n]]);
    const { r, gas } = await read(balances);
    gas.forget(pool[1].account.address);
    balances.set(pool[1].account.address, 0n);
    const next = gas.fuelled(pool);
    await Promise.resolve();
    expect(r.getBalance).toHaveBeenCalledTimes(3);
    r.release();
    expect(await next).toEqual([pool[0]]);
  });
});
