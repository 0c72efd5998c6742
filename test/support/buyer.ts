/**
 * A buyer as the spec imagines one: an unmodified x402 client (`@x402/fetch` + a viem local account). Each test
 * file talks from its own loopback address so the per-client probe rate limit of one file does not touch another.
 */
import { Agent } from 'undici';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { fundFromState } from '../../bin/fund.js';
import { createPublicClient, http, parseAbi, type Hex } from 'viem';
import { inject } from 'vitest';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Plain fetch bound to a loopback source address (127.0.0.0/8 all reaches the server on 127.0.0.1). */
export function fetchFrom(sourceIp: string): FetchLike {
  const dispatcher = new Agent({ localAddress: sourceIp });
  return (input, init) => fetch(input, { ...init, dispatcher } as RequestInit);
}

export function payingFetch(privateKey: Hex, sourceIp: string): FetchLike {
  const account = privateKeyToAccount(privateKey);
  return wrapFetchWithPaymentFromConfig(fetchFrom(sourceIp) as typeof fetch, {
    schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(account) }],
    // The client's default cap is $1 per payment; a video costs $4.99, so a buyer raises it (as a real one would).
    spendControls: { maxAmountPerPayment: '$5' },
  }) as FetchLike;
}

export function runtime() {
  return inject('runtime');
}

const erc20 = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

/** Every USDC Transfer out of an address, read from the chain's logs. */
export async function transfersFrom(address: Hex): Promise<{ to: Hex; value: bigint }[]> {
  const info = runtime();
  const client = createPublicClient({ transport: http(info.rpcUrl, { retryCount: 0 }) });
  const logs = await client.getContractEvents({ address: info.usdcAddress, abi: erc20, eventName: 'Transfer', args: { from: address }, fromBlock: 0n });
  return logs.map((l) => ({ to: l.args.to!, value: l.args.value! }));
}

export async function usdcBalance(address: Hex): Promise<bigint> {
  const info = runtime();
  const client = createPublicClient({ transport: http(info.rpcUrl, { retryCount: 0 }) });
  return client.readContract({ address: info.usdcAddress, abi: erc20, functionName: 'balanceOf', args: [address] });
}

/** Polls a poll URL until `done(body)` or the deadline; returns the last body. */
export async function pollUntil(
  f: FetchLike,
  url: string,
  done: (body: any) => boolean,
  timeoutMs = 60_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await f(url);
    const body = await response.json();
    if (done(body) || Date.now() > deadline) return body;
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function download(f: FetchLike, url: string): Promise<{ status: number; contentType: string; bytes: Buffer }> {
  const response = await f(url);
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', bytes: Buffer.from(await response.arrayBuffer()) };
}

/** A new buyer funded through the fund command's code (`npm run fund`), so parallel files never share a balance. */
export async function freshBuyer(usdcBaseUnits = 20_000_000n): Promise<{ address: Hex; privateKey: Hex }> {
  const privateKey = generatePrivateKey();
  const address = privateKeyToAccount(privateKey).address;
  await fundFromState(inject('stateDir'), address, usdcBaseUnits);
  return { address, privateKey };
}
