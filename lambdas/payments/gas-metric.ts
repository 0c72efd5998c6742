/**
 * The balances that keep money moving, as CloudWatch metrics in Embedded Metric Format: one JSON line on stdout that
 * Lambda's log pipeline turns into a metric in the stack's namespace (`Paycall/<stack>`,
 * lambdas/shared/metric-names.ts), with no SDK call and no extra grant.
 *
 * - `SettlerGasWei` (and `SettlerBelowFloor`), dimension `Settler`: each settlement key's gas, read by the settler.
 * - `RefundWalletBaseUnits`, dimension `RefundWallet`: the refund wallet's USDC, read after each refund attempt.
 *
 * Alarms on them (lib/monitoring.ts, thresholds from lib/runway.ts) tell an operator to fund a key or the wallet
 * before it runs dry.
 */
import { METRIC_DIMENSIONS, METRIC_NAMES, metricNamespace } from '../shared/metric-names.js';

export function gasMetric(address: string, wei: bigint, floorWei: bigint): void {
  emit(METRIC_DIMENSIONS.settler, address, [
    { Name: METRIC_NAMES.settlerGasWei, Unit: 'None' },
    { Name: METRIC_NAMES.settlerBelowFloor, Unit: 'Count' },
  ], {
    // A float is fine for a metric (wei exceeds 2^53 above ~0.009 ETH; the alarm compares orders of magnitude).
    [METRIC_NAMES.settlerGasWei]: Number(wei),
    [METRIC_NAMES.settlerBelowFloor]: wei < floorWei ? 1 : 0,
  });
}

/** The refund wallet's USDC in base units (exact as a Number up to ~9e9 USDC). */
export function refundWalletMetric(address: string, baseUnits: bigint): void {
  emit(METRIC_DIMENSIONS.refundWallet, address, [{ Name: METRIC_NAMES.refundWalletBaseUnits, Unit: 'None' }], {
    [METRIC_NAMES.refundWalletBaseUnits]: Number(baseUnits),
  });
}

function emit(dimension: string, value: string, metrics: { Name: string; Unit: string }[], values: Record<string, number>): void {
  // On Lambda stdout is the log stream CloudWatch reads the metric from; elsewhere (the embedded default, tests) the
  // line would only clutter a terminal, unless asked for.
  const wanted = process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined || process.env.PAYCALL_METRICS === 'stdout';
  if (!wanted || process.env.LOG_LEVEL === 'SILENT') return;
  const line = {
    _aws: { Timestamp: Date.now(), CloudWatchMetrics: [{ Namespace: metricNamespace(), Dimensions: [[dimension]], Metrics: metrics }] },
    [dimension]: value,
    ...values,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
