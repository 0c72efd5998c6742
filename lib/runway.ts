/**
 * How much a settlement key's gas and the refund wallet's USDC must hold to last the warning an operator asked for
 * (docs/deploy.md "Gas and refund runway"). A fixed floor says nothing about time: at a thousand settlements an hour 2e13 wei is minutes.
 * The thresholds here follow the rate the operator expects, so an alarm means "this runs out within runwayHours".
 *
 * Everything is bigint base units (wei, USDC 1e-6); CloudWatch gets a Number only at the alarm (lib/monitoring.ts).
 */

/** Settlements a key below its floor could still need to finish: the in-flight ones, with room for a fee spike. */
export const FLOOR_SETTLEMENTS = 10n;

export interface GasRunwayInput {
  /** An explicit floor (wei) wins over the derived one (the key kept from before rates were configured). */
  settlerGasFloorWei?: bigint;
  /** What one settlement costs a key: receipt gasUsed × effectiveGasPrice + l1Fee on Base (wei). */
  gasPerSettlementWei: bigint;
  /** Settlements per hour at peak, refunds included: every one is paid by a settlement key. */
  expectedPaidPerHour: bigint;
  runwayHours: bigint;
}

export interface GasRunway {
  /** Below this a key takes no new settlement (the settler's own check). */
  floorWei: bigint;
  /** Below this the SettlerGasLow alarm fires: the floor plus runwayHours of settlements at the expected rate. */
  alarmWei: bigint;
}

/**
 * The floor is FLOOR_SETTLEMENTS settlements unless given; the alarm sits runwayHours of the expected rate above it,
 * because a key stops at its floor, not at zero.
 */
export function gasRunway(input: GasRunwayInput): GasRunway {
  const floorWei = input.settlerGasFloorWei ?? FLOOR_SETTLEMENTS * input.gasPerSettlementWei;
  return { floorWei, alarmWei: floorWei + input.expectedPaidPerHour * input.runwayHours * input.gasPerSettlementWei };
}

export interface RefundRunwayInput {
  /** An explicit floor (USDC base units) wins over the derived one. */
  refundWalletFloorBaseUnits?: bigint;
  expectedRefundsPerDay: bigint;
  runwayHours: bigint;
  /** The dearest product's price (base units): a refund returns at most one job's price. */
  highestPriceBaseUnits: bigint;
}

/** Below this the RefundWalletLow alarm fires: runwayHours of refunds at the expected rate, each at the dearest price, rounded up. */
export function refundWalletFloor(input: RefundRunwayInput): bigint {
  if (input.refundWalletFloorBaseUnits !== undefined) return input.refundWalletFloorBaseUnits;
  const needed = input.expectedRefundsPerDay * input.runwayHours * input.highestPriceBaseUnits;
  return (needed + 23n) / 24n;
}

/** "12.5" USDC as base units (12_500_000n); at most 6 decimals, no float on the way. */
export function usdcToBaseUnits(text: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text);
  if (!match) throw new Error(`not a USDC amount: ${text}`);
  return BigInt(match[1]) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0') || '0');
}
