import { afterEach, describe, expect, it, vi } from 'vitest';
import { gasMetric } from '../../../lambdas/payments/gas-metric.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('Settler gas balance metric (CloudWatch Embedded Metric Format)', () => {
  it('on Lambda writes one EMF line: namespace Paycall, dimension Settler, SettlerGasWei and SettlerBelowFloor', () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'AgentImage');
    vi.stubEnv('LOG_LEVEL', 'INFO');
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    gasMetric('0xabc', 5n, 10n);
    const line = JSON.parse(String(write.mock.calls[0][0]));
    expect(line._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'Paycall', Dimensions: [['Settler']] });
    expect(line).toMatchObject({ Settler: '0xabc', SettlerGasWei: 5, SettlerBelowFloor: 1 });
  });

  it('stays quiet off Lambda unless PAYCALL_METRICS=stdout', () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', undefined as unknown as string);
    vi.stubEnv('LOG_LEVEL', 'INFO');
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    gasMetric('0xabc', 50n, 10n);
    expect(write).not.toHaveBeenCalled();
    vi.stubEnv('PAYCALL_METRICS', 'stdout');
    gasMetric('0xabc', 50n, 10n);
    expect(JSON.parse(String(write.mock.calls[0][0]))).toMatchObject({ SettlerBelowFloor: 0 });
  });
});
