/**
 * Refund runway (docs/deploy.md "Gas and refund runway"): after each refund attempt the refund wallet's USDC is published (RefundWalletBaseUnits, dimension
 * RefundWallet, the stack's namespace), the metric the RefundWalletLow alarm reads; a failed read never fails the
 * refund. The chain is stubbed here; test/components/refunds.test.ts refunds on the embedded chain.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { METRICS_NAMESPACE_ENV } from '../../../lambdas/shared/metric-names.js';

vi.mock('../../../lambdas/payments/reconcile.js', async (original) => ({
  ...(await original<typeof import('../../../lambdas/payments/reconcile.js')>()),
  authorizationUsed: vi.fn(async () => false),
}));

const REFUND_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const;
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const PAYER = '0x1111111111111111111111111111111111111111' as const;

beforeEach(() => {
  vi.stubEnv('USDC_ADDRESS', USDC);
  vi.stubEnv('PAY_TO_ADDRESS', '0x2222222222222222222222222222222222222222');
  vi.stubEnv('RPC_URL', 'http://127.0.0.1:1');
  vi.stubEnv('SETTLER_KEY_FILE', '/nonexistent');
  vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'RefundPayment');
  vi.stubEnv('LOG_LEVEL', 'INFO');
  vi.stubEnv(METRICS_NAMESPACE_ENV, 'Paycall/Prod');
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

async function refunder(balanceOf: (asset: string, owner: string) => Promise<bigint>, ok = true) {
  const { ChainRefunder } = await import('../../../lambdas/payments/refund.js');
  const settle = vi.fn(async () =>
    ok ? { ok: true as const, transaction: `0x${'ab'.repeat(32)}` as const } : { ok: false as const, reason: 'transfer amount exceeds balance', broadcast: false },
  );
  return new ChainRefunder({ settler: { settle } as any, refundKey: async () => REFUND_KEY, balanceOf: balanceOf as any, now: () => 1_700_000_000_000 });
}

describe("The refund wallet's USDC is published after each refund attempt", () => {
  it('reads balanceOf(refund wallet) on the USDC contract and writes it in base units', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const wallet = privateKeyToAccount(REFUND_KEY).address;
    const balanceOf = vi.fn(async () => 49_850_000n);
    const result = await (await refunder(balanceOf)).refund({ jobId: 'job-1', payer: PAYER, amount: 150_000n });
    expect(result.ok).toBe(true);
    expect(balanceOf).toHaveBeenCalledWith(USDC, wallet);
    const lines = write.mock.calls.map(([chunk]) => JSON.parse(String(chunk)));
    expect(lines).toHaveLength(1);
    expect(lines[0]._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'Paycall/Prod', Dimensions: [['RefundWallet']] });
    expect(lines[0]).toMatchObject({ RefundWallet: wallet, RefundWalletBaseUnits: 49_850_000 });
  });

  it('publishes it after a refused refund too (the wallet short of USDC is when it matters)', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const result = await (await refunder(async () => 20_000n, false)).refund({ jobId: 'job-2', payer: PAYER, amount: 150_000n });
    expect(result).toMatchObject({ ok: false, retry: false });
    expect(JSON.parse(String(write.mock.calls[0][0]))).toMatchObject({ RefundWalletBaseUnits: 20_000 });
  });

  it('a failed balance read publishes nothing and leaves the refund as it was', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const result = await (await refunder(async () => Promise.reject(new Error('rpc down')))).refund({ jobId: 'job-3', payer: PAYER, amount: 150_000n });
    expect(result.ok).toBe(true);
    expect(write).not.toHaveBeenCalled();
  });
});

describe('usdcBalance', () => {
  it('is one eth_call of balanceOf(owner) on the token, decoded as a uint256', async () => {
    const { usdcBalance } = await import('../../../lambdas/payments/refund.js');
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result: `0x${(49_900_000).toString(16).padStart(64, '0')}` }), { headers: { 'content-type': 'application/json' } }),
    );
    expect(await usdcBalance('http://rpc.test', USDC, PAYER)).toBe(49_900_000n);
    const body = JSON.parse(String(fetch.mock.calls[0][1]?.body));
    // balanceOf(address) is selector 0x70a08231.
    expect(body).toMatchObject({ method: 'eth_call', params: [{ to: USDC, data: `0x70a08231${PAYER.slice(2).padStart(64, '0')}` }, 'latest'] });
  });
});
