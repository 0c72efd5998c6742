/**
 * The metrics are the stack's own. Every function is given its stack's namespace
 * (PAYCALL_METRICS_NAMESPACE = `Paycall/<stack name>`, lib/paycall-stack.ts) and writes every metric under it,
 * read once at cold start; without one (unit tests, the bench) the namespace stays `Paycall`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { METRICS_NAMESPACE_ENV, metricNamespace, stackMetricNamespace } from '../../../lambdas/shared/metric-names.js';
import { captureMetrics } from './emf.js';

type MetricsModule = typeof import('../../../lambdas/shared/metrics.js');

/** metrics.ts as a function's cold start loads it, with `namespace` (or none) in its environment. */
async function coldStart(namespace: string | undefined): Promise<MetricsModule> {
  vi.stubEnv(METRICS_NAMESPACE_ENV, namespace as string);
  vi.resetModules();
  return import('../../../lambdas/shared/metrics.js');
}

let metrics: ReturnType<typeof captureMetrics>;
beforeEach(() => {
  metrics = captureMetrics();
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("Metrics are written under the stack's namespace", () => {
  it('a stack names its namespace after itself', () => {
    expect(stackMetricNamespace('PaycallGeneration')).toBe('Paycall/PaycallGeneration');
    expect(metricNamespace({ [METRICS_NAMESPACE_ENV]: 'Paycall/Staging' })).toBe('Paycall/Staging');
    expect(metricNamespace({})).toBe('Paycall');
    expect(metricNamespace({ [METRICS_NAMESPACE_ENV]: '' })).toBe('Paycall');
  });

  it('every kind of metric (a per-invocation count, a per-product count, a render outcome) goes to the configured namespace', async () => {
    const { count, countPaid, countRender, flushMetrics } = await coldStart('Paycall/Staging');
    countPaid('agent_image', 150000n);
    countRender('refused', { product: 'agent_image', provider: 'bedrock-stability' });
    count('Http402');
    flushMetrics();
    const emitted = metrics.emitted();
    expect(emitted.map((m) => m.name)).toEqual(['PaidRequests', 'RevenueBaseUnits', 'RendersRefused', 'Http402']);
    for (const metric of emitted) expect(metric.namespace, metric.name).toBe('Paycall/Staging');
  });

  it('the gas balance line too', async () => {
    vi.stubEnv(METRICS_NAMESPACE_ENV, 'Paycall/Staging');
    const { gasMetric } = await import('../../../lambdas/payments/gas-metric.js');
    gasMetric('0x1111111111111111111111111111111111111111', 5n, 10n);
    expect(metrics.lines().map((line) => line._aws.CloudWatchMetrics[0].Namespace)).toEqual(['Paycall/Staging']);
  });

  it('without the variable (unit tests, the bench) the namespace is Paycall', async () => {
    const { countPaid } = await coldStart(undefined);
    countPaid('agent_image', 150000n);
    expect(new Set(metrics.emitted().map((m) => m.namespace))).toEqual(new Set(['Paycall']));
  });
});
