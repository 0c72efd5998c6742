/** Money is bigint USDC base units (6 decimals) everywhere; these only format it for people. */

/** `$0.50` from 500000n: exact, no floating point. */
export function formatUsd(amount: bigint): string {
  const cents = amount / 10_000n;
  const remainder = amount % 10_000n;
  if (remainder !== 0n) {
    const whole = amount / 1_000_000n;
    const frac = (amount % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
    return `$${whole}.${frac.padEnd(2, '0')}`;
  }
  return `$${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/** Price in whole US cents (USDC is pegged 1:1); only exact for cent-aligned prices, which all ours are. */
export function priceUsdCents(amount: bigint): number {
  return Number(amount / 10_000n);
}

/** USDC base units as the JSON number of the spec's `totalCostUsdc` and `credits`: exact for amounts of 6 decimals. */
export function usdcNumber(amount: bigint): number {
  const sign = amount < 0n ? '-' : '';
  const abs = amount < 0n ? -amount : amount;
  return Number(`${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`);
}
