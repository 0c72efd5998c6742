/** Builds a PAYMENT-SIGNATURE header by hand, with the official x402 client, for replay and race tests. */
import { x402Client } from '@x402/core/client';
import { encodePaymentSignatureHeader, decodePaymentRequiredHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import type { FetchLike } from './buyer.js';

export async function challengeOf(f: FetchLike, url: string, body = '{}'): Promise<ReturnType<typeof decodePaymentRequiredHeader>> {
  const response = await f(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  if (response.status !== 402) throw new Error(`expected 402, got ${response.status}`);
  return decodePaymentRequiredHeader(response.headers.get('payment-required')!);
}

export async function signedHeader(privateKey: Hex, challenge: ReturnType<typeof decodePaymentRequiredHeader>): Promise<string> {
  const client = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(privateKey)));
  return encodePaymentSignatureHeader(await client.createPaymentPayload(challenge));
}
