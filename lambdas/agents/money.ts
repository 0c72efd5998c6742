/** USDC base units (6 decimals, bigint) as the JSON number of the spec's `totalCostUsdc`: exact for our prices. */
export function usdcNumber(amount: bigint): number {
  const whole = amount / 1_000_000n;
  const frac = (amount % 1_000_000n).toString().padStart(6, '0');
  return Number(`${whole}.${frac}`);
}
