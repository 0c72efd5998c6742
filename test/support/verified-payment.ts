/**
 * A fresh buyer funded on the embedded runtime's chain, and its authorization of `price` base units verified by the
 * payment core's verifier, as the component tests that drive a purchase by hand start one. Load after the embedded
 * runtime has set the configuration (the verifier reads it when first built).
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { LocalChain } from '../../lib/local/chain.js';
import type { PaymentRequirement, VerifiedPayment } from '../../lambdas/payments/types.js';
import { requirementFor, signedPayment } from '../unit/payments/fixtures.js';

export async function verifiedPayment(chain: Pick<LocalChain, 'fund' | 'usdcAddress' | 'payTo'>, price: bigint) {
  const { paymentBackend } = await import('../../lambdas/payments/backend.js');
  const buyer = privateKeyToAccount(generatePrivateKey());
  await chain.fund(buyer.address, 1_000_000n);
  const amount = price.toString();
  const requirement: PaymentRequirement = { ...requirementFor({ asset: chain.usdcAddress, payTo: chain.payTo }), amount, maxAmountRequired: amount };
  const verified = await paymentBackend().verifier.verify(await signedPayment(buyer, requirement), requirement);
  if (!verified.ok) throw new Error(verified.reason);
  const payment: VerifiedPayment = verified.payment;
  return { buyer, requirement, payment };
}
