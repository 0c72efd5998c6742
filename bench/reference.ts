/**
 * The reference a user would pick instead of our service, measured side by side with our paid path on the same local
 * chain: an Express app with the official x402 v2 middleware (`@x402/express`), one paid route `POST /agent/image` at
 * $0.15 paying to the same payTo, whose handler answers 200 JSON at once, backed by an in-process `@x402/core`
 * facilitator with `@x402/evm`'s exact scheme (facilitator side) and a viem wallet that settles with its own funded
 * key. Both sides are paid by the same unmodified official client (bench/load.ts) and both settle on chain per
 * request. Prints a table per side, a ratio table (ours / reference) and the on-chain settlement count of each side.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import type { FacilitatorClient } from '@x402/core/server';
import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from '@x402/evm/exact/facilitator';
import { ExactEvmScheme as ExactEvmServerScheme } from '@x402/evm/exact/server';
import { createWalletClient, defineChain, http, nonceManager, numberToHex, publicActions, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { EmbeddedRuntime } from '../lib/local/runtime.js';
import {
  SourceAddresses,
  concurrent,
  freshBuyers,
  payingFetch,
  quiesce,
  sequential,
  settlementLedger,
  type Buyer,
  type LoadResult,
  type SequentialResult,
} from './load.js';

const NETWORK = 'eip155:8453' as const;
const PRICE = 150_000n; // $0.15 in USDC base units, the price of our agent_image
const SINGLE_N = Number(process.env.BENCH_SINGLE_N ?? 20);
const PHASES = [
  { concurrency: 4, perLane: Number(process.env.BENCH_C4_PER_LANE ?? 40), budgetMs: 30_000 },
  { concurrency: 16, perLane: Number(process.env.BENCH_C16_PER_LANE ?? 20), budgetMs: 30_000 },
];
const WARMUP = 3;

export interface ReferenceServer {
  url: string;
  facilitatorAddress: Address;
  stop(): Promise<void>;
}

/** Starts the reference on 127.0.0.1 (any free port). `setBalance` gives the facilitator key gas on the local chain. */
export async function startReference(options: {
  rpcUrl: string;
  payTo: Address;
  setBalance: (address: Address, wei: bigint) => Promise<unknown>;
}): Promise<ReferenceServer> {
  const chain = defineChain({
    id: 8453,
    name: 'Local eip155:8453',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  // The facilitator's own key, funded for gas; viem's nonce manager so concurrent settlements take distinct nonces.
  const account = privateKeyToAccount(generatePrivateKey() as Hex, { nonceManager });
  await options.setBalance(account.address, 10n ** 21n);
  const wallet = createWalletClient({ account, chain, transport: http(options.rpcUrl, { retryCount: 0 }), pollingInterval: 50 }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) => wallet.readContract({ ...args, args: args.args ?? [] } as never),
    verifyTypedData: (args) => wallet.verifyTypedData(args as never),
    writeContract: (args) => wallet.writeContract({ ...args, args: args.args ?? [] } as never),
    sendTransaction: (args) => wallet.sendTransaction(args as never),
    waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt(args),
    getCode: (args) => wallet.getCode(args),
  });
  const facilitator = new x402Facilitator().register(NETWORK, new ExactEvmFacilitatorScheme(signer));
  // In process: the resource server calls the facilitator object directly instead of over HTTP.
  const facilitatorClient: FacilitatorClient = {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => facilitator.getSupported(),
  };
  const resourceServer = new x402ResourceServer(facilitatorClient).register(NETWORK, new ExactEvmServerScheme());

  const app = express();
  app.use(express.json());
  app.use(
    paymentMiddleware(
      {
        'POST /agent/image': {
          accepts: { scheme: 'exact', price: '$0.15', network: NETWORK, payTo: options.payTo },
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
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface SideResult {
  name: string;
  expect: string;
  single: SequentialResult;
  phases: LoadResult[];
  okTotal: number;
  settlement: Awaited<ReturnType<ReturnType<typeof settlementLedger>['since']>>;
}

async function measureSide(
  name: string,
  expect: string,
  url: string,
  buyers: Buyer[],
  addresses: SourceAddresses,
  ledger: ReturnType<typeof settlementLedger>,
): Promise<SideResult> {
  const body = JSON.stringify({ prompt: 'benchmark lighthouse at dusk' });
  const lanes = buyers.map((b, i) => payingFetch(b, addresses.fetchFor(i)));
  const mark = await ledger.snapshot();
  const warm = await sequential(lanes[0], url, body, WARMUP);
  await quiesce();
  const single = await sequential(lanes[0], url, body, SINGLE_N);
  const phases: LoadResult[] = [];
  for (const phase of PHASES) {
    await quiesce();
    phases.push(await concurrent(lanes.slice(0, phase.concurrency), url, body, phase.perLane, phase.budgetMs));
  }
  const okTotal = warm.ok + single.ok + phases.reduce((s, p) => s + p.ok, 0);
  const settlement = await ledger.since(mark, PRICE, buyers.map((b) => b.address));
  return { name, expect, single, phases, okTotal, settlement };
}

const f = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

function printSide(r: SideResult): void {
  console.log(`\n${r.name} — success = ${r.expect}`);
  console.log('| load | paid ok / attempted | non-2xx | wall s | paid req/s | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(`| sequential (c=1) | ${r.single.ok} / ${r.single.n} | ${r.single.non2xx} | — | — | ${f(r.single.median)} (median) | ${f(r.single.p99)} |`);
  for (const p of r.phases) {
    console.log(
      `| c=${p.concurrency} | ${p.ok} / ${p.attempted}${p.timedOut ? ' (time budget hit)' : ''} | ${p.non2xx} | ${f(p.seconds, 2)} | ${f(p.throughput, 2)} | ${f(p.p50)} | ${f(p.p99)} |`,
    );
  }
  const errors = [...r.single.errors, ...r.phases.flatMap((p) => p.errors)];
  if (errors.length) console.log(`non-2xx / errors: ${errors.join('; ')}`);
  const s = r.settlement;
  console.log(
    `on chain: ${r.okTotal} successful paid requests (incl. ${WARMUP} warm-up); payTo +${s.delta} base units = ${s.paidByDelta} × price` +
      `${s.remainder ? ` + ${s.remainder}` : ''}; ${s.transfers} Transfer logs buyer→payTo (${s.wrongAmount} not of the price, ${s.otherTransfers} from others)` +
      ` → ${s.paidByDelta === r.okTotal && s.transfers === r.okTotal ? 'exactly one Transfer per paid request' : 'MISMATCH'}`,
  );
}

function printRatios(ours: SideResult, ref: SideResult): void {
  console.log('\nOurs / reference (throughput: >1 = ours faster; latency: <1 = ours faster)');
  console.log('| metric | ours | reference | ours/reference |');
  console.log('|---|---|---|---|');
  const row = (metric: string, a: number, b: number, d = 1) => console.log(`| ${metric} | ${f(a, d)} | ${f(b, d)} | ${f(a / b, 2)}× |`);
  row('single paid request, median ms (c=1)', ours.single.median, ref.single.median);
  ours.phases.forEach((p, i) => {
    const q = ref.phases[i];
    row(`throughput, paid req/s (c=${p.concurrency})`, p.throughput, q.throughput, 2);
    row(`p50 ms (c=${p.concurrency})`, p.p50, q.p50);
    row(`p99 ms (c=${p.concurrency})`, p.p99, q.p99);
  });
}

/** The side-by-side section of `npm run bench`; uses the already started embedded runtime and leaves it running. */
export async function compareWithReference(runtime: EmbeddedRuntime): Promise<void> {
  const { info, chain } = runtime;
  const payTo = info.payTo as Address;
  const lanesNeeded = Math.max(...PHASES.map((p) => p.concurrency));
  const perBuyer = PRICE * BigInt(WARMUP + SINGLE_N + Math.max(...PHASES.map((p) => p.perLane)) * 2 + 10);
  const ledger = settlementLedger(info.rpcUrl, info.usdcAddress as Address, payTo);
  const setBalance = (address: Address, wei: bigint) => chain.provider.request({ method: 'hardhat_setBalance', params: [address, numberToHex(wei)] });

  const reference = await startReference({ rpcUrl: info.rpcUrl, payTo, setBalance });
  const refAddresses = new SourceAddresses(11);
  const ourAddresses = new SourceAddresses(12);
  try {
    const refBuyers = await freshBuyers(lanesNeeded, chain.fund, perBuyer);
    const ourBuyers = await freshBuyers(lanesNeeded, chain.fund, perBuyer);
    console.log(
      `\nPaid path side by side: ours (embedded runtime, POST ${info.baseUrl}/agent/image, self-settled) vs reference ` +
        `(@x402/express + in-process @x402/core facilitator, @x402/evm exact, viem wallet; POST ${reference.url}/agent/image, $0.15).`,
    );
    console.log(
      `Same local chain (Hardhat EDR, automine), same payTo, same client: @x402/fetch + ExactEvmScheme, one fresh buyer per lane; ` +
        `latency = probe (402) + paid request; sequential n=${SINGLE_N}; ${PHASES.map((p) => `c=${p.concurrency}: ${p.perLane}/lane`).join(', ')}. ` +
        `Reference measured first; each measurement starts once this process is idle. Our 202 starts a render job that runs in this same process.`,
    );
    // The reference runs first so our background render jobs cannot slow it down.
    const ref = await measureSide('Reference: @x402/express + @x402/core facilitator (200 JSON)', '200', `${reference.url}/agent/image`, refBuyers, refAddresses, ledger);
    await quiesce(20_000);
    const ours = await measureSide('Ours: embedded runtime generation gateway (202 after settlement)', '202', `${info.baseUrl}/agent/image`, ourBuyers, ourAddresses, ledger);
    printSide(ours);
    printSide(ref);
    printRatios(ours, ref);
  } finally {
    await refAddresses.close();
    await ourAddresses.close();
    await reference.stop();
  }
}
