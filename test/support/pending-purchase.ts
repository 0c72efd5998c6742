/**
 * A paid image purchase whose transfer is broadcast but not mined by the request's deadline (automine paused), as
 * the component tests of the unknown-outcome path start it: the job is `reserved`, its outcome unknown. Mine with
 * `rpc('evm_mine')` to land it. Load after the embedded runtime has set the configuration.
 */
import { createPublicClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { EmbeddedRuntime } from '../../lib/local/runtime.js';
import { requirementFor, signedPayment } from '../unit/payments/fixtures.js';

export async function purchaseWithPendingTransfer({ info, chain }: Pick<EmbeddedRuntime, 'info' | 'chain'>) {
  const { purchaseJob } = await import('../../lambdas/jobs/purchase.js');
  const { purchaseDeps } = await import('../../lambdas/jobs/deps.js');
  const { paymentBackend } = await import('../../lambdas/payments/backend.js');

  const buyer = privateKeyToAccount(generatePrivateKey());
  await chain.fund(buyer.address, 1_000_000n);
  const requirement = { ...requirementFor({ asset: chain.usdcAddress, payTo: chain.payTo }), amount: '150000', maxAmountRequired: '150000' };
  const verified = await paymentBackend().verifier.verify(await signedPayment(buyer, requirement), requirement);
  if (!verified.ok) throw new Error(verified.reason);

  const reader = createPublicClient({ transport: http(info.rpcUrl, { retryCount: 0 }) });
  const rpc = (method: string, params: unknown[] = []) => reader.request({ method, params } as never);
  await rpc('evm_setAutomine', [false]);
  try {
    const purchase = await purchaseJob(purchaseDeps(), {
      product: 'agent_image',
      request: { prompt: 'a lighthouse at dusk', aspectRatio: '1:1', outputFormat: 'png' },
      payment: verified.payment,
      blockingWaitMs: 0,
      deadline: Date.now(), // no time left to wait for the receipt
    });
    return { purchase, buyer, rpc, payment: verified.payment, requirement };
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
}
