/**
 * A buyer's client that signs in with x402 `sign-in-with-x` as the package ships it: @x402/fetch over an
 * x402HTTPClient whose 402 hook is @x402/extensions' `createSIWxClientHook` (no payment scheme registered, so it can
 * only sign in, never pay), and the package's own pieces to build a sign-in by hand for the refusals.
 */
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { wrapFetchWithPayment } from '@x402/fetch';
import { createSIWxClientHook, createSIWxPayload, encodeSIWxHeader, SIGN_IN_WITH_X, type SIWxPayload } from '@x402/extensions/sign-in-with-x';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { FetchLike } from './buyer.js';

export function signingFetch(account: PrivateKeyAccount, base: FetchLike = fetch): FetchLike {
  const client = new x402HTTPClient(new x402Client()).onPaymentRequired(createSIWxClientHook(account));
  return wrapFetchWithPayment(base as typeof fetch, client) as FetchLike;
}

/** The sign-in declaration of a route's 402 (from PAYMENT-REQUIRED), asked for with `init`. */
export async function signInInfo(url: string, init: RequestInit = {}, base: FetchLike = fetch) {
  const response = await base(url, init);
  if (response.status !== 402) throw new Error(`expected a 402 from ${url}, got ${response.status}`);
  const challenge = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
  return challenge.extensions![SIGN_IN_WITH_X] as { info: Record<string, any>; supportedChains: { chainId: string; type: 'eip191' }[] };
}

/** A sign-in header for `declared` (the package's createSIWxPayload), signed by `signer`, changed by `edit` after signing. */
export async function signInHeader(
  declared: Awaited<ReturnType<typeof signInInfo>>,
  signer: PrivateKeyAccount,
  requestUrl: string,
  edit: (payload: SIWxPayload) => SIWxPayload = (p) => p,
): Promise<string> {
  const chain = declared.supportedChains[0];
  const payload = await createSIWxPayload({ ...(declared.info as any), chainId: chain.chainId, type: chain.type }, signer, requestUrl);
  return encodeSIWxHeader(edit(payload));
}
