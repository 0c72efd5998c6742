/**
 * The reference a user would pick instead of our service: an Express app with the official x402 v2 middleware
 * (`@x402/express`), one paid route `POST /agent/image` at $0.15 paying to the same payTo, whose handler answers 200
 * JSON at once, backed by an in-process `@x402/core` facilitator with `@x402/evm`'s exact scheme (facilitator side)
 * and a viem wallet that settles with its own funded key — built as the official facilitator examples build it
 * (coinbase/x402 typescript/examples: `createWalletClient({ account, chain: base, transport: http(url) })
 * .extend(publicActions)` wrapped by `toFacilitatorEvmSigner`), pointed at the local chain. Its receipt wait is viem's:
 * every `pollingInterval` ms, by default what viem derives from the chain (Base's 2 s block time: 1000 ms), or
 * `pollingIntervalMs` (4000 is viem's default for a chain it knows no block time of).
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import type { FacilitatorClient } from '@x402/core/server';
import type { SupportedResponse } from '@x402/core/types';
import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from '@x402/evm/exact/facilitator';
import { ExactEvmScheme as ExactEvmServerScheme } from '@x402/evm/exact/server';
import { createWalletClient, http, nonceManager, publicActions, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';

export const REFERENCE_NETWORK = 'eip155:8453' as const;

/** One settled payment of the reference, for the settlement bench (bench/settlement.ts): its own verification's time. */
export interface ReferenceTiming {
  transaction: string;
  /** The facilitator's verify, as the middleware called it before the route's handler (ms). */
  verifyMs?: number;
  /** When the middleware called the facilitator's settle (epoch ms). */
  settleCalledAt: number;
}

export interface ReferenceServer {
  url: string;
  /** The settled payments since the last call (drained). */
  timings(): ReferenceTiming[];
  facilitatorAddress: Address;
  /** The receipt polling interval its viem client runs with (ms). */
  pollingIntervalMs: number;
  stop(): Promise<void>;
}

/** Starts the reference on 127.0.0.1 (any free port). `setBalance` gives the facilitator key gas on the local chain. */
export async function startReference(options: {
  rpcUrl: string;
  payTo: Address;
  setBalance: (address: Address, wei: bigint) => Promise<unknown>;
  pollingIntervalMs?: number;
}): Promise<ReferenceServer> {
  const chain = { ...base, rpcUrls: { default: { http: [options.rpcUrl] } } };
  // The facilitator's own key, funded for gas; viem's nonce manager so concurrent settlements take distinct nonces.
  const account = privateKeyToAccount(generatePrivateKey() as Hex, { nonceManager });
  await options.setBalance(account.address, 10n ** 21n);
  const wallet = createWalletClient({
    account,
    chain,
    transport: http(options.rpcUrl, { retryCount: 0 }),
    ...(options.pollingIntervalMs ? { pollingInterval: options.pollingIntervalMs } : {}),
  }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) => wallet.readContract({ ...args, args: args.args ?? [] } as never),
    verifyTypedData: (args) => wallet.verifyTypedData(args as never),
    writeContract: (args) => wallet.writeContract({ ...args, args: args.args ?? [] } as never),
    sendTransaction: (args) => wallet.sendTransaction(args as never),
    waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt(args),
    getCode: (args) => wallet.getCode(args),
  });
  const facilitator = new x402Facilitator().register(REFERENCE_NETWORK, new ExactEvmFacilitatorScheme(signer));
  // In process: the resource server calls the facilitator object directly instead of over HTTP. Each call is timed
  // (two clock reads) so the settlement bench can tell the reference's own verification from the rest.
  const verifyMs = new Map<string, number>();
  let timings: ReferenceTiming[] = [];
  const nonceOf = (payload: { payload: Record<string, unknown> }) => String((payload.payload as { authorization?: { nonce?: string } }).authorization?.nonce);
  const facilitatorClient: FacilitatorClient = {
    verify: async (payload, requirements) => {
      const start = performance.now();
      try {
        return await facilitator.verify(payload, requirements);
      } finally {
        verifyMs.set(nonceOf(payload), performance.now() - start);
      }
    },
    settle: async (payload, requirements) => {
      const settleCalledAt = performance.timeOrigin + performance.now();
      const settled = await facilitator.settle(payload, requirements);
      const nonce = nonceOf(payload);
      if (settled.transaction) timings.push({ transaction: settled.transaction, verifyMs: verifyMs.get(nonce), settleCalledAt });
      verifyMs.delete(nonce);
      return settled;
    },
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
  const resourceServer = new x402ResourceServer(facilitatorClient).register(REFERENCE_NETWORK, new ExactEvmServerScheme());

  const app = express();
  app.use(express.json());
  app.use(
    paymentMiddleware(
      {
        'POST /agent/image': {
          accepts: { scheme: 'exact', price: '$0.15', network: REFERENCE_NETWORK, payTo: options.payTo },
          description: 'Generate an image',
          mimeType: 'application/json',
        },
      },
      resourceServer,
    ),
  );
  app.post('/agent/image', (req, res) => {
    res.status(200).json({ status: 'accepted', prompt: (req.body as { prompt?: string })?.prompt ?? null });
  });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    facilitatorAddress: account.address,
    pollingIntervalMs: wallet.pollingInterval,
    timings: () => {
      const drained = timings;
      timings = [];
      return drained;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
