/**
 * What the refund component tests share: reading the local chain (balances, Transfer logs), waiting for a job's
 * state, and a paid job whose render fails, bought through the purchase use case on whichever network the embedded
 * runtime's chain stands in for.
 */
import { createPublicClient, http, parseAbi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { EmbeddedRuntime } from '../../lib/local/runtime.js';
import type { PaymentRequirement } from '../../lambdas/payments/types.js';
import { requirementFor, signedPayment } from '../unit/payments/fixtures.js';

const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)', 'event Transfer(address indexed from, address indexed to, uint256 value)']);

export function chainReader(runtime: EmbeddedRuntime) {
  const reader = createPublicClient({ transport: http(runtime.info.rpcUrl, { retryCount: 0 }) });
  return {
    balanceOf: (address: Hex) => reader.readContract({ address: runtime.chain.usdcAddress, abi: erc20, functionName: 'balanceOf', args: [address] }),
    /** Every USDC Transfer to an address. */
    async transfersTo(address: Hex) {
      const logs = await reader.getContractEvents({ address: runtime.chain.usdcAddress, abi: erc20, eventName: 'Transfer', args: { to: address }, fromBlock: 0n });
      return logs.map((log) => ({ from: log.args.from!, value: log.args.value!, transaction: log.transactionHash }));
    },
  };
}

export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * A paid image job whose render fails: bought through the purchase use case (real verification and settlement) with
 * a request the HTTP layer would have refused, which the local synthesiser cannot render — a stand-in for any
 * provider failure after payment. The buyer signs `requirement` (default: Base's terms on the local chain).
 */
export async function paidJobThatFails(runtime: EmbeddedRuntime, requirement?: PaymentRequirement, webhook?: { url: string; base: string }): Promise<{ jobId: string; buyer: Hex }> {
  const { purchaseJob } = await import('../../lambdas/jobs/purchase.js');
  const { purchaseDeps } = await import('../../lambdas/jobs/deps.js');
  const { paymentBackend } = await import('../../lambdas/payments/backend.js');
  const buyer = privateKeyToAccount(generatePrivateKey());
  await runtime.chain.fund(buyer.address, 1_000_000n);
  const terms = requirement ?? { ...requirementFor({ asset: runtime.chain.usdcAddress, payTo: runtime.chain.payTo }), amount: '150000', maxAmountRequired: '150000' };
  const verified = await paymentBackend().verifier.verify(await signedPayment(buyer, terms), terms);
  if (!verified.ok) throw new Error(verified.reason);
  const purchase = await purchaseJob(purchaseDeps(), {
    product: 'agent_image',
    request: { prompt: 'a lighthouse', aspectRatio: 'not-a-ratio', outputFormat: 'png' },
    payment: verified.payment,
    blockingWaitMs: 0,
    deadline: Date.now() + 20_000,
    ...(webhook ? { webhook } : {}),
  });
  if (purchase.type !== 'accepted') throw new Error(`purchase ${purchase.type}`);
  return { jobId: purchase.job.jobId, buyer: buyer.address };
}
