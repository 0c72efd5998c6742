import { afterEach, describe, expect, it, vi } from 'vitest';
import { gasMetric, refundWalletMetric } from '../../../lambdas/payments/gas-metric.js';
import { METRICS_NAMESPACE_ENV } from '../../../lambdas/shared/metric-names.js';

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

describe("The refund wallet's USDC balance metric", () => {
  it("writes one EMF line in the stack's namespace: dimension RefundWallet, RefundWalletBaseUnits in base units", () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'RefundPayment');
    vi.stubEnv('LOG_LEVEL', 'INFO');
    vi.stubEnv(METRICS_NAMESPACE_ENV, 'Paycall/Prod');
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    // 49.9 USDC = 49_900_000 base units, exact as a Number.
    refundWalletMetric('0xdef', 49_900_000n);
    expect(write).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(write.mock.calls[0][0]));
    expect(line._aws.CloudWatchMetrics).toEqual([
      { Namespace: 'Paycall/Prod', Dimensions: [['RefundWallet']], Metrics: [{ Name: 'RefundWalletBaseUnits', Unit: 'None' }] },
    ]);
    expect(line).toMatchObject({ RefundWallet: '0xdef', RefundWalletBaseUnits: 49_900_000 });
  });

  it('stays quiet off Lambda unless PAYCALL_METRICS=stdout', () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', undefined as unknown as string);
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    refundWalletMetric('0xdef', 1n);
    expect(write).not.toHaveBeenCalled();
  });
});
