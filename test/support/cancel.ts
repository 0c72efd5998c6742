/**
 * What the cancellation component tests share (docs/decisions/0017): an embedded runtime started with a task gate and sweeps
 * by hand, a funded buyer paying with the official `@x402/fetch` client, the cancel request, a job's row, and a sweep
 * run as the sweeper function (its calls checked against its policy) late enough to take every refund owed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startEmbedded, type EmbeddedOptions, type EmbeddedRuntime } from '../../lib/local/runtime.js';
import { asFunction } from '../../lib/local/iam/enforce.js';
import { SWEEPER } from '../../lambdas/surfaces/routes.js';

/** An embedded runtime for a cancellation test, and its stop; the refund pass runs here as the sweeper's does. */
export async function cancelRuntime(name: string, options: Pick<EmbeddedOptions, 'beforeTask' | 'renderProviders' | 'blockIntervalMs' | 'preconfirmations'>): Promise<{ runtime: EmbeddedRuntime; stop: () => Promise<void> }> {
  const stateDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const runtime = await startEmbedded({ generationPort: 0, chainPort: 0, stateDir, log: () => {}, renderWaitMs: 50, sweepIntervalMs: 0, ...options });
  // With the sweeper's variable naming the refund wallet's secret (the template gives it to the sweeper and the refund task).
  const { REFUND_ENV } = await import('../../lambdas/payments/refund.js');
  process.env[REFUND_ENV.secretId] = 'paycall/refund-key';
  return {
    runtime,
    stop: async () => {
      await runtime.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** A new buyer funded with `funds` USDC base units, paying through `@x402/fetch` (up to $5 a payment). */
export async function fundedBuyer(runtime: EmbeddedRuntime, funds: bigint) {
  const account = privateKeyToAccount(generatePrivateKey());
  await runtime.chain.fund(account.address, funds);
  const pay = wrapFetchWithPaymentFromConfig(fetch, {
    schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(account) }],
    spendControls: { maxAmountPerPayment: '$5' },
  } as never);
  return { address: account.address, account, pay };
}

/** POST a cancel URL, with the cancel token as the bearer when given. */
export async function cancel(url: string, token?: string) {
  const response = await fetch(url, { method: 'POST', headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

export async function jobOf(jobId: string) {
  const { JobStore } = await import('../../lambdas/store/jobs.js');
  return new JobStore().get(jobId);
}

/** One sweep as the sweeper function, five minutes from now (past REFUND_RETRY_SECONDS for any refund owed now). */
export async function sweepLater() {
  const { sweep } = await import('../../lambdas/workflow/sweeper.js');
  const { sweepDeps } = await import('../../lambdas/workflow/sweep-deps.js');
  const later = new Date(Date.now() + 5 * 60_000);
  return asFunction(SWEEPER.id, () => sweep({ ...sweepDeps(), now: () => later }, 3600));
}
