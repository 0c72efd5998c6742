/**
 * A key is held only while its nonce is chosen (docs/decisions/0005): the broadcast happens after the key is given
 * back, so the sequence must stay whole when a committed nonce never reaches the node. On the local chain with its
 * blocks mined by hand (a transaction after a gap waits in the pool, as on Base) and DynamoDB Local, one key:
 * - a broadcast the node refused after another instance committed the next nonce leaves a gap, filled at once by a
 *   no-op transfer to the key itself, and the other instance's payment lands;
 * - a nonce whose sender went silent past its deadline and never reached the node is filled by the next payment;
 * - several instances on one key never send one nonce twice.
 * The refusing or silent node is a JSON-RPC proxy on loopback in front of the chain (test/support/rpc-proxy.ts).
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { createPublicClient, Hex } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LocalChain } from '../../lib/local/chain.js';
import { startSettlementParts, type SettlementParts } from '../support/settlement-parts.js';
import { SelfSettler, type SelfSettlerOptions } from '../../lambdas/payments/settle.js';
import type { VerifiedPayment } from '../../lambdas/payments/types.js';
import { usdcAbi } from '../../lambdas/payments/usdc-abi.js';
import { startRpcProxy, type RpcProxy } from '../support/rpc-proxy.js';

const LEASES_TABLE = 'settler-gaps-test';

let parts: SettlementParts;
let chain: LocalChain;
let proxy: RpcProxy;
let reader: ReturnType<typeof createPublicClient>;
let Leases: typeof import('../../lambdas/store/settler-leases.js').DynamoSettlerLeases;
let key: Hex;

beforeAll(async () => {
  parts = await startSettlementParts('settle-gaps', { settlerCount: 1, leasesTable: LEASES_TABLE });
  ({ chain, reader, Leases } = parts);
  proxy = await startRpcProxy(chain.rpcUrl);
  key = chain.settlerAddresses[0];
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  await parts?.stop();
});

beforeEach(() => proxy.clear());

function instance(options: { viaProxy?: boolean } & Partial<Pick<SelfSettlerOptions, 'leaseMs'>> = {}) {
  return new SelfSettler({
    config: { chainId: chain.chainId, rpcUrl: options.viaProxy ? proxy.url : chain.rpcUrl, settlerKeyFile: chain.settlerKeyFile, receiptPollMs: 50 },
    leases: new Leases(LEASES_TABLE),
    leaseMs: options.leaseMs,
  });
}

const payment = () => parts.payment();

const rpc = (method: string, ...params: unknown[]) => chain.provider.request({ method, params });
const mined = () => reader.getTransactionCount({ address: key });
const pending = () => reader.getTransactionCount({ address: key, blockTag: 'pending' });
const authorizationUsed = (p: VerifiedPayment) =>
  reader.readContract({ address: chain.usdcAddress, abi: usdcAbi, functionName: 'authorizationState', args: [p.payer, p.payload.payload.authorization.nonce as Hex] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) if (await check()) return;
  else await sleep(25);
  throw new Error(`timed out waiting for ${what}`);
}

/** Mines a block whenever something is pending, until `done` settles. */
async function mineUntil<T>(done: Promise<T>): Promise<T> {
  let finished = false;
  void done.finally(() => (finished = true));
  while (!finished) {
    // A slow answer on a loaded machine is asked again on the next turn, not a failure of the settlement under test.
    const behind = await Promise.all([pending(), mined()]).then(([p, m]) => p > m, () => false);
    if (behind) await rpc('evm_mine');
    await sleep(100);
  }
  return done;
}

/** Runs `step` with blocks mined only by `evm_mine` (the payments are funded before, on automine). */
async function manualBlocks<T>(step: () => Promise<T>): Promise<T> {
  await rpc('evm_setAutomine', false);
  try {
    return await step();
  } finally {
    await rpc('evm_setAutomine', true);
  }
}

describe('A key held only to choose the nonce: the sequence stays whole', () => {
  it('a refused broadcast after another instance committed the next nonce is filled by a no-op, and the later payment lands', async () => {
    const [refusedPayment, later] = [await payment(), await payment()];
    const before = await mined();
    // The node answers the first broadcast after 600 ms with a 429 (nothing entered its pool); meanwhile another
    // instance leases the key, commits the next nonce and sends: its transfer waits in the pool behind the gap.
    proxy.on('eth_sendRawTransaction', { delayMs: 600, httpStatus: 429, times: 1 });
    const { refused, landed } = await manualBlocks(async () => {
      const refusing = instance({ viaProxy: true }).settle(refusedPayment);
      await until(async () => proxy.seen.includes('eth_sendRawTransaction'), 'the first broadcast');
      const laterResult = instance().settle(later);
      const refused = await refusing;
      return { refused, landed: await mineUntil(laterResult) };
    });
    expect(refused).toMatchObject({ ok: false, broadcast: false, retryAfterSeconds: 1 });
    expect(await authorizationUsed(refusedPayment)).toBe(false);
    if (!landed.ok) throw new Error(landed.reason);
    const sent = await reader.getTransaction({ hash: landed.transaction as Hex });
    expect(sent.nonce).toBe(before + 1);
    // The gap below it holds the no-op: nothing to anyone, from the key to itself.
    const block = await reader.getBlock({ blockNumber: sent.blockNumber!, includeTransactions: true });
    const filler = block.transactions.find((tx) => typeof tx !== 'string' && tx.nonce === before);
    expect(filler).toMatchObject({ from: key.toLowerCase(), to: key.toLowerCase(), value: 0n });
    expect(await mined()).toBe(before + 2);
  }, 30_000);

  it('a nonce whose sender went silent past its deadline, never reaching the node, is filled by the next payment', async () => {
    const [silent, next] = [await payment(), await payment()];
    const before = await mined();
    // The broadcast never reaches the node and is never answered: the sender gives up at its deadline (maybe sent).
    proxy.on('eth_sendRawTransaction', { forward: false, delayMs: 8_000, times: 1 });
    const gaveUp = await instance({ viaProxy: true, leaseMs: 3_500 }).settle(silent);
    expect(gaveUp).toMatchObject({ ok: false, broadcast: true });
    expect(await pending()).toBe(before);
    // Past that deadline and the margin, the next payment takes the nonce nobody sent.
    await sleep(2_100);
    const result = await instance().settle(next);
    if (!result.ok) throw new Error(result.reason);
    expect((await reader.getTransaction({ hash: result.transaction as Hex })).nonce).toBe(before);
    expect(await authorizationUsed(silent)).toBe(false);
  }, 30_000);

  it('six instances settling eighteen payments on one key: every nonce used exactly once, none skipped', async () => {
    const payments = await Promise.all(Array.from({ length: 18 }, () => payment()));
    const before = await mined();
    const settlers = Array.from({ length: 6 }, () => instance());
    const results = await manualBlocks(() => mineUntil(Promise.all(payments.map((p, i) => settlers[i % 6].settle(p)))));
    const nonces: number[] = [];
    for (const result of results) {
      if (!result.ok) throw new Error(result.reason);
      nonces.push((await reader.getTransaction({ hash: result.transaction as Hex })).nonce);
    }
    expect(nonces.sort((a, b) => a - b)).toEqual(Array.from({ length: 18 }, (_, i) => before + i));
  }, 60_000);
});

describe('A settlement begun beside the purchase lock (proceed)', () => {
  const leaseRow = async () => (await parts.dynamo.client.send(new GetItemCommand({ TableName: LEASES_TABLE, Key: { pk: { S: key.toLowerCase() } }, ConsistentRead: true }))).Item;

  it('leases the free key at once and sends only when told; told no, it gives the key back and sends nothing', async () => {
    const [abandoned, paid] = [await payment(), await payment()];
    const before = await mined();
    let go!: (proceed: boolean) => void;
    const settling = instance().settle(abandoned, { proceed: new Promise<boolean>((resolve) => (go = resolve)) });
    await until(async () => (await leaseRow())?.holder?.S !== undefined, 'the early lease');
    go(false);
    expect(await settling).toEqual({ ok: false, reason: 'Settlement abandoned before broadcast', broadcast: false });
    expect((await leaseRow())?.holder).toBeUndefined();
    expect(await mined()).toBe(before);
    expect(await authorizationUsed(abandoned)).toBe(false);

    const later = instance().settle(paid, { proceed: sleep(300).then(() => true) });
    const result = await later;
    if (!result.ok) throw new Error(result.reason);
    expect((await reader.getTransaction({ hash: result.transaction as Hex })).nonce).toBe(before);
  });

  it('when the key is busy at that moment it does not queue early: it waits for a key once told to proceed', async () => {
    const [first, second] = [await payment(), await payment()];
    const before = await mined();
    let go!: (proceed: boolean) => void;
    // The first holds the only key (leased early, not yet told); the second, begun early too, finds it busy.
    const holding = instance().settle(first, { proceed: new Promise<boolean>((resolve) => (go = resolve)) });
    await until(async () => (await leaseRow())?.holder?.S !== undefined, 'the first lease');
    const waiting = instance().settle(second, { proceed: Promise.resolve(true) });
    await sleep(200);
    go(true);
    const results = await Promise.all([holding, waiting]);
    const nonces = await Promise.all(results.map(async (r) => (r.ok ? (await reader.getTransaction({ hash: r.transaction as Hex })).nonce : -1)));
    expect(nonces.sort()).toEqual([before, before + 1]);
  });
});
