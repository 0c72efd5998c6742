/**
 * The settlement response of a token-paid MCP tool (lambdas/protocols/mcp/payment-response.ts), checked with the
 * package's verifier: `_meta["x402/payment-response"]` carries the settlement as it is plus a receipt naming the
 * token's payer, network and charge; a signer that fails leaves the settlement without its receipt, never an error.
 */
import { describe, expect, it } from 'vitest';
import { OFFER_RECEIPT, verifyReceiptSignatureEIP712, type EIP712SignedReceipt } from '@x402/extensions/offer-receipt';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { PAYMENT_RESPONSE_META, settlementMeta } from '../../../lambdas/protocols/mcp/payment-response.js';

const account = privateKeyToAccount(generatePrivateKey());
const RESOURCE = 'https://api.test/create-music';
const SETTLED = { success: true, transaction: 'ch_0123', network: 'token', payer: 'buyer-7' } as const;

describe('settlementMeta', () => {
  it('puts the settlement under x402/payment-response with a receipt for the token charge', async () => {
    const meta = await settlementMeta(SETTLED, RESOURCE, { jobId: 'job-1', signer: async () => account });
    const response = meta[PAYMENT_RESPONSE_META];
    expect(response).toMatchObject(SETTLED);
    const receipt = (response.extensions![OFFER_RECEIPT] as { info: { receipt: EIP712SignedReceipt } }).info.receipt;
    const { signer, payload } = await verifyReceiptSignatureEIP712(receipt);
    expect(signer).toBe(account.address);
    expect(payload).toMatchObject({ resourceUrl: RESOURCE, payer: 'buyer-7', network: 'token', transaction: 'ch_0123' });
  });

  it('with a signer that fails, the settlement goes without its receipt', async () => {
    const broken = async (): Promise<never> => {
      throw new Error('Secrets Manager: AccessDenied');
    };
    expect(await settlementMeta(SETTLED, RESOURCE, { jobId: 'job-1', signer: broken })).toEqual({ [PAYMENT_RESPONSE_META]: SETTLED });
  });
});
