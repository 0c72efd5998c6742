/**
 * A paid image purchase whose transfer is broadcast but not mined by the request's deadline (automine paused), as
 * the component tests of the unknown-outcome path start it: the job is `reserved`, its outcome unknown. Mine with
 * `rpc('evm_mine')` to land it. Load after the embedded runtime has set the configuration.
 */
import { createPublicClient, http } from 'viem';
import type { EmbeddedRuntime } from '../../lib/local/runtime.js';
import { verifiedPayment } from './verified-payment.js';

export async function purchaseWithPendingTransfer({ info, chain }: Pick<EmbeddedRuntime, 'info' | 'chain'>) {
  const { purchaseJob } = await import('../../lambdas/jobs/purchase.js');
  const { purchaseDeps } = await import('../../lambdas/jobs/deps.js');
  const { buyer, requirement, payment } = await verifiedPayment(chain, 150_000n);

  const reader = createPublicClient({ transport: http(info.rpcUrl, { retryCount: 0 }) });
  const rpc = (method: string, params: unknown[] = []) => reader.request({ method, params } as never);
  await rpc('evm_setAutomine', [false]);
  try {
    const purchase = await purchaseJob(purchaseDeps(), {
      product: 'agent_image',
      request: { prompt: 'a lighthouse at dusk', aspectRatio: '1:1', outputFormat: 'png' },
      payment,
      blockingWaitMs: 0,
      deadline: Date.now(), // no time left to wait for the receipt
    });
    return { purchase, buyer, rpc, payment, requirement };
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
}
