/**
 * The service's business metrics (namespace and names in metric-names.ts) as CloudWatch Embedded Metric Format lines
 * written by Powertools Metrics: Lambda's log pipeline turns each line into metrics, with no SDK call and no grant.
 * They go to the stack's own namespace (PAYCALL_METRICS_NAMESPACE, read at cold start), `Paycall` where none is set.
 *
 * - One Metrics instance per process, its `service` dimension the function (service.ts: POWERTOOLS_SERVICE_NAME,
 *   else the Lambda function's name). A plain count waits in it for the end of the invocation, when flushMetrics()
 *   writes one line: the HTTP frame's metricsFlush() does that for every HTTP entry; the workflow tasks and the
 *   sweeper call it themselves. A count with a breakdown (per product, per product and provider) is written at once on a line of its
 *   own, because one EMF line gives all its metrics the same dimensions.
 * - Each data point is published under exactly one dimension set: the alarms and graphs (lib/monitoring.ts) sum a
 *   name over the whole namespace, so a second set would count it twice.
 * - Written only where someone reads it, the rule of gas-metric.ts: on Lambda, or off it when PAYCALL_METRICS=stdout;
 *   never under LOG_LEVEL=SILENT (the test suites). Elsewhere nothing is even buffered. POWERTOOLS_METRICS_DISABLED
 *   and POWERTOOLS_DEV still switch Powertools off.
 * - A metric never fails the work it counts: every call here swallows its own errors.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MetricUnit as Unit } from '@aws-lambda-powertools/metrics/types';
import type { MiddlewareObj } from '@middy/core';
import { METRIC_DIMENSIONS, METRIC_NAMES, metricNamespace, type MetricName } from './metric-names.js';
import type { HttpEvent, HttpResult } from './http.js';
import { SERVICE_NAME } from './service.js';

/** The render provider's name (RenderProvider.name), the second dimension of the render metrics. */
export const PROVIDER = 'provider';

const metrics = new Metrics({ namespace: metricNamespace(), serviceName: SERVICE_NAME });

/** Whether metrics are written here (so a caller can skip the work of one, such as a read). */
export function wanted(): boolean {
  const env = process.env;
  return (env.AWS_LAMBDA_FUNCTION_NAME !== undefined || env.PAYCALL_METRICS === 'stdout') && env.LOG_LEVEL !== 'SILENT';
}

function quietly(work: () => void): void {
  try {
    if (wanted()) work();
  } catch {
    // A metric that cannot be written is lost; the answer, the payment and the job are not.
  }
}

/** Adds `value` (default 1) to a metric whose only dimension is `service`; written by the next flushMetrics(). */
export function count(name: MetricName, value = 1): void {
  quietly(() => metrics.addMetric(name, MetricUnit.Count, value));
}

/** Writes one metric now, with `dimensions` besides `service`. */
export function countBy(name: MetricName, dimensions: Record<string, string>, value = 1, unit: Unit = MetricUnit.Count): void {
  quietly(() => {
    const line = metrics.singleMetric();
    for (const [key, label] of Object.entries(dimensions)) line.addDimension(key, label || 'unknown');
    line.addMetric(name, unit, value);
  });
}

/**
 * A paid request that settled: PaidRequests 1 and RevenueBaseUnits `amount`, per product. The revenue is a count of
 * USDC base units (1 USDC = 1,000,000); Number() is exact below 2^53 base units (9 billion USDC per request).
 */
export function countPaid(product: string, amount: bigint): void {
  countBy(METRIC_NAMES.paidRequests, { [METRIC_DIMENSIONS.product]: product });
  countBy(METRIC_NAMES.revenueBaseUnits, { [METRIC_DIMENSIONS.product]: product }, Number(amount));
}

const RENDER_OUTCOMES = {
  completed: METRIC_NAMES.rendersCompleted,
  failed: METRIC_NAMES.rendersFailed,
  refused: METRIC_NAMES.rendersRefused,
} as const;

/**
 * A render that ended, per product and provider; a completed one with its seconds from purchase to asset. `refused`
 * is a render the model refused for its content: a failed job for the buyer, counted apart from the failures.
 */
export function countRender(outcome: keyof typeof RENDER_OUTCOMES, labels: { product: string; provider: string }, seconds?: number): void {
  const dimensions = { [METRIC_DIMENSIONS.product]: labels.product, [PROVIDER]: labels.provider };
  countBy(RENDER_OUTCOMES[outcome], dimensions);
  if (outcome === 'completed' && seconds !== undefined && Number.isFinite(seconds) && seconds >= 0) {
    countBy(METRIC_NAMES.renderSeconds, dimensions, seconds, MetricUnit.Seconds);
  }
}

/** A refund's outcome, per product: sent (with its amount), failed (to be retried), or owed by hand. */
export function countRefund(outcome: 'refunded' | 'failed' | 'owed', product: string, amount?: bigint): void {
  const dimensions = { [METRIC_DIMENSIONS.product]: product };
  if (outcome === 'refunded') {
    countBy(METRIC_NAMES.refundsSent, dimensions);
    if (amount !== undefined) countBy(METRIC_NAMES.refundedBaseUnits, dimensions, Number(amount));
  } else countBy(outcome === 'failed' ? METRIC_NAMES.refundsFailed : METRIC_NAMES.refundsOwed, dimensions);
}

/** Writes the counts of this invocation (one line), if there are any. Every entry calls it as it ends. */
export function flushMetrics(): void {
  try {
    // Powertools logs a warning for an empty flush, and most invocations count nothing.
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  } catch {
    // As in quietly(): a lost line, never a failed invocation.
  }
}

/**
 * The HTTP entries' metrics middleware, outermost in the frame so it sees the answer as sent: counts a 402 or a 429
 * (whoever produced it: a presenter or a handler) and flushes the invocation's counts.
 */
export function metricsFlush(): MiddlewareObj<HttpEvent, HttpResult> {
  const settle = (request: { response?: HttpResult | null }) => {
    const status = request.response?.statusCode;
    if (status === 402) count(METRIC_NAMES.http402);
    if (status === 429) count(METRIC_NAMES.http429);
    flushMetrics();
  };
  return { name: 'metrics', after: settle, onError: settle };
}
