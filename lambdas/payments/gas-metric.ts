/**
 * The gas balance of each settlement key as a CloudWatch metric, in Embedded Metric Format: one JSON line on stdout
 * that Lambda's log pipeline turns into the metric `SettlerGasWei` (dimension `Settler`) in the stack's namespace
 * (`Paycall/<stack>`, lambdas/shared/metric-names.ts), with no SDK call and no extra grant. An alarm on it (or on
 * `SettlerBelowFloor`) tells an operator to fund a key before it runs dry.
 */
import { metricNamespace } from '../shared/metric-names.js';

export function gasMetric(address: string, wei: bigint, floorWei: bigint): void {
  const line = {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: metricNamespace(),
          Dimensions: [['Settler']],
          Metrics: [
            { Name: 'SettlerGasWei', Unit: 'None' },
            { Name: 'SettlerBelowFloor', Unit: 'Count' },
          ],
        },
      ],
    },
    Settler: address,
    // A float is fine for a metric (wei exceeds 2^53 above ~0.009 ETH; the alarm compares orders of magnitude).
    SettlerGasWei: Number(wei),
    SettlerBelowFloor: wei < floorWei ? 1 : 0,
  };
  // On Lambda stdout is the log stream CloudWatch reads the metric from; elsewhere (the embedded default, tests) the
  // line would only clutter a terminal, unless asked for.
  const wanted = process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined || process.env.PAYCALL_METRICS === 'stdout';
  if (wanted && process.env.LOG_LEVEL !== 'SILENT') process.stdout.write(`${JSON.stringify(line)}\n`);
}
