/**
 * Gas runway (docs/deploy.md "Gas and refund runway"): the settler's floor and the alarms' thresholds follow the rate the operator expects
 * (lib/runway.ts), read from context and checked by lib/config.ts with errors that name the key.
 */
import { describe, expect, it } from 'vitest';
import { parseStackConfig, StackConfigError } from '../../../lib/config.js';
import { FLOOR_SETTLEMENTS, gasRunway, refundWalletFloor, usdcToBaseUnits } from '../../../lib/runway.js';

describe('the settler gas floor and its alarm follow the expected rate', () => {
  it('derives the floor from ten settlements and the alarm from runwayHours of the rate above it', () => {
    // floor = 10 × 2e12 = 2e13 wei; alarm = 2e13 + 1000/h × 24 h × 2e12 = 2e13 + 4.8e16 = 4.802e16 wei.
    expect(FLOOR_SETTLEMENTS).toBe(10n);
    expect(gasRunway({ gasPerSettlementWei: 2_000_000_000_000n, expectedPaidPerHour: 1000n, runwayHours: 24n })).toEqual({
      floorWei: 20_000_000_000_000n,
      alarmWei: 48_020_000_000_000_000n,
    });
  });

  it('keeps an explicit settlerGasFloorWei and puts the runway above it', () => {
    // floor 5e14 (given); alarm = 5e14 + 50/h × 48 h × 1.5e12 = 5e14 + 3.6e15 = 4.1e15 wei.
    expect(
      gasRunway({ settlerGasFloorWei: 500_000_000_000_000n, gasPerSettlementWei: 1_500_000_000_000n, expectedPaidPerHour: 50n, runwayHours: 48n }),
    ).toEqual({ floorWei: 500_000_000_000_000n, alarmWei: 4_100_000_000_000_000n });
  });

  it('at no expected traffic alarms at the floor itself', () => {
    expect(gasRunway({ gasPerSettlementWei: 3n, expectedPaidPerHour: 0n, runwayHours: 24n })).toEqual({ floorWei: 30n, alarmWei: 30n });
  });
});

describe('the refund wallet floor follows the expected refunds', () => {
  it('is runwayHours of expectedRefundsPerDay refunds at the dearest price, rounded up to a base unit', () => {
    // 10/day × 24 h × 4.99 USDC / 24 = 49.9 USDC = 49_900_000 base units.
    expect(refundWalletFloor({ expectedRefundsPerDay: 10n, runwayHours: 24n, highestPriceBaseUnits: 4_990_000n })).toBe(49_900_000n);
    // 1/day × 1 h × 0.5 USDC / 24 = 20_833.33… → 20_834 (never under what the runway needs).
    expect(refundWalletFloor({ expectedRefundsPerDay: 1n, runwayHours: 1n, highestPriceBaseUnits: 500_000n })).toBe(20_834n);
  });

  it('keeps an explicit floor', () => {
    expect(refundWalletFloor({ refundWalletFloorBaseUnits: 7n, expectedRefundsPerDay: 10n, runwayHours: 24n, highestPriceBaseUnits: 4_990_000n })).toBe(7n);
  });

  it('reads USDC amounts without a float', () => {
    expect(usdcToBaseUnits('12.5')).toBe(12_500_000n);
    expect(usdcToBaseUnits('0.000001')).toBe(1n);
    expect(usdcToBaseUnits('100')).toBe(100_000_000n);
    expect(() => usdcToBaseUnits('1.2345678')).toThrow();
  });
});

describe('context keys of the runway (lib/config.ts)', () => {
  it('defaults: 2e12 wei a settlement, 100 settlements an hour, 24 hours, 10 refunds a day', () => {
    const config = parseStackConfig({});
    expect(config).toMatchObject({ gasPerSettlementWei: '2000000000000', expectedPaidPerHour: 100, runwayHours: 24, expectedRefundsPerDay: 10 });
    // floor 10 × 2e12 = 2e13 (the old fixed default); alarm 2e13 + 100 × 24 × 2e12 = 2e13 + 4.8e15 = 4.82e15 wei.
    expect(config.settlerGasFloorWei).toBe('20000000000000');
    expect(config.settlerGasAlarmWei).toBe(4_820_000_000_000_000n);
    // 10 × 24 × 4_990_000 (agent_video, the dearest) / 24 = 49_900_000 base units (49.9 USDC).
    expect(config.refundWalletFloorBaseUnits).toBe(49_900_000n);
  });

  it('follows the context, as -c strings', () => {
    const config = parseStackConfig({ gasPerSettlementWei: '1000000000000', expectedPaidPerHour: '2000', runwayHours: '12', expectedRefundsPerDay: '48' });
    // floor 10 × 1e12 = 1e13; alarm 1e13 + 2000 × 12 × 1e12 = 1e13 + 2.4e16 = 2.401e16 wei.
    expect(config.settlerGasFloorWei).toBe('10000000000000');
    expect(config.settlerGasAlarmWei).toBe(24_010_000_000_000_000n);
    // 48/day × 12 h × 4_990_000 / 24 = 119_760_000 (119.76 USDC).
    expect(config.refundWalletFloorBaseUnits).toBe(119_760_000n);
  });

  it('lets settlerGasFloorWei and refundWalletFloorUsdc win', () => {
    const config = parseStackConfig({ settlerGasFloorWei: '300', refundWalletFloorUsdc: '250.75', expectedPaidPerHour: 0 });
    expect(config.settlerGasFloorWei).toBe('300');
    expect(config.settlerGasAlarmWei).toBe(300n);
    expect(config.refundWalletFloorBaseUnits).toBe(250_750_000n);
  });

  it.each([
    ['gasPerSettlementWei', '0', 'must be a whole number of wei above 0'],
    ['gasPerSettlementWei', '1e12', 'must be a whole number of wei above 0'],
    ['expectedPaidPerHour', '-1', ''],
    ['expectedPaidPerHour', '1.5', ''],
    ['runwayHours', '0', ''],
    ['runwayHours', '10000', ''],
    ['expectedRefundsPerDay', 'many', ''],
    ['refundWalletFloorUsdc', '12.3456789', 'must be an amount of USDC'],
    ['refundWalletFloorUsdc', '-5', 'must be an amount of USDC'],
    ['settlerGasFloorWei', '2e13', 'must be a whole number of wei'],
  ])('%s=%s is refused, naming the key', (key, value, message) => {
    expect(() => parseStackConfig({ [key]: value })).toThrow(StackConfigError);
    expect(() => parseStackConfig({ [key]: value })).toThrow(new RegExp(`context key "${key}" .*${message}`));
  });
});
