/**
 * Payment fixtures signed the way real buyers sign: with @x402/evm's ExactEvmScheme (the scheme @x402/fetch
 * registers), wrapped into a v2 payload exactly as x402Client does, then decoded with the service's own schema.
 */
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount, generatePrivateKey, type PrivateKeyAccount } from 'viem/accounts';
import type { Address, Hex } from 'viem';
import type { PaymentRequirement } from '../../../lambdas/payments/types.js';
import { paymentPayloadSchema, type PaymentPayload } from '../../../lambdas/payments/payload-schema.js';

export const BASE_USDC: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const PAY_TO: Address = '0x1111111111111111111111111111111111111111';

export function requirementFor(overrides: Partial<PaymentRequirement> = {}): PaymentRequirement {
  return {
    scheme: 'exact',
    network: 'eip155:8453',
    maxAmountRequired: '500000',
    amount: '500000',
    asset: BASE_USDC,
    payTo: PAY_TO,
    maxTimeoutSeconds: 300,
    resource: 'http://127.0.0.1:3000/create-music',
    description: 'create_music',
    mimeType: 'application/json',
    extra: { name: 'USD Coin', version: '2', decimals: 6, priceUsd: '$0.50' },
    ...overrides,
  };
}

/** Anything with an address and signTypedData, e.g. a viem account or a deliberately lying signer. */
export type TestSigner = Pick<PrivateKeyAccount, 'address' | 'signTypedData'>;

export function newBuyer(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

/** The JSON a client would base64 into PAYMENT-SIGNATURE. */
export async function wirePayment(signer: TestSigner, requirement: PaymentRequirement): Promise<Record<string, any>> {
  const scheme = new ExactEvmScheme(signer as never);
  const partial = await scheme.createPaymentPayload(2, requirement as never);
  return JSON.parse(
    JSON.stringify({
      x402Version: partial.x402Version,
      payload: partial.payload,
      resource: { url: requirement.resource },
      accepted: requirement,
    }),
  );
}

/** Decode as the x402 middleware does (zod schema, uint strings to bigint). */
export function decode(wire: unknown): PaymentPayload {
  return paymentPayloadSchema.parse(wire);
}

export async function signedPayment(signer: TestSigner, requirement: PaymentRequirement): Promise<PaymentPayload> {
  return decode(await wirePayment(signer, requirement));
}

/** A signer that claims `claimed` as its address but signs with `actual`'s key. */
export function impostor(actual: PrivateKeyAccount, claimed: Address): TestSigner {
  return { address: claimed, signTypedData: (args) => actual.signTypedData(args) };
}

/** Signs an authorization with explicit times, for windows the x402 client never produces. */
export async function signWithTimes(
  account: PrivateKeyAccount,
  requirement: PaymentRequirement,
  validAfter: bigint,
  validBefore: bigint,
  nonce: Hex = `0x${'ab'.repeat(32)}`,
): Promise<PaymentPayload> {
  const authorization = {
    from: account.address,
    to: requirement.payTo,
    value: BigInt(requirement.amount),
    validAfter,
    validBefore,
    nonce,
  };
  const signature = await account.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: requirement.asset },
    types: {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  });
  return decode({
    x402Version: 2,
    resource: { url: requirement.resource },
    accepted: requirement,
    payload: {
      signature,
      authorization: {
        ...authorization,
        value: authorization.value.toString(),
        validAfter: validAfter.toString(),
        validBefore: validBefore.toString(),
      },
    },
  });
}
