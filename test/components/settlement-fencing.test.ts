/**
 * A settlement key's lease is a fence (docs/decisions/0005, "Fencing" and "Rejections"), on the local chain and
 * DynamoDB Local with one key, so every settlement contends for the same nonce sequence:
 * - a holder whose node is slow gives the key up before its lease lapses and sends nothing;
 * - a holder whose lease was taken over (a paused instance, a skewed clock) finds out before the broadcast and
 *   sends nothing; the newer holder's send lands with the next nonce, no collision;
 * - a broadcast the node refuses leaves the nonce free for the next settlement at once, and answers "nothing moved";
 * - a broadcast with no answer inside the lease stays "maybe sent" (unknown outcome), recorded while still held.
 * The slow or refusing node is a JSON-RPC proxy on loopback in front of the chain (test/support/rpc-proxy.ts).
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { createPublicClient, Hex } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LocalChain } from '../../lib/local/chain.js';
import type { LocalDynamo } from '../../lib/local/dynamodb.js';
import { startSettlementParts, type SettlementParts } from '../support/settlement-parts.js';
import { SelfSettler, type SelfSettlerOptions } from '../../lambdas/payments/settle.js';
import type { VerifiedPayment } from '../../lambdas/payments/types.js';
import { usdcAbi } from '../../lambdas/payments/usdc-abi.js';
import { startRpcProxy, type RpcProxy } from '../support/rpc-proxy.js';

const LEASES_TABLE = 'settler-fencing-test';

let parts: SettlementParts;
let chain: LocalChain;
let dynamo: LocalDynamo;
let proxy: RpcProxy;
let reader: ReturnType<typeof createPublicClient>;
let Leases: typeof import('../../lambdas/store/settler-leases.js').DynamoSettlerLeases;
let key: Hex;

beforeAll(async () => {
  parts = await startSettlementParts('settle-fencing', { settlerCount: 1, leasesTable: LEASES_TABLE });
  ({ chain, dynamo, reader, Leases } = parts);
  proxy = await startRpcProxy(chain.rpcUrl);
  key = chain.settlerAddresses[0];
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  await parts?.stop();
});

beforeEach(() => proxy.clear());

/** One "instance": its own settler and leases client, talking to the chain directly or through the proxy. */
function instance(options: { viaProxy?: boolean; now?: () => number } & Partial<Pick<SelfSettlerOptions, 'leaseMs' | 'publicClient'>> = {}) {
  return new SelfSettler({
    config: { chainId: chain.chainId, rpcUrl: options.viaProxy ? proxy.url : chain.rpcUrl, settlerKeyFile: chain.settlerKeyFile },
    leases: new Leases(LEASES_TABLE, options.now),
    leaseMs: options.leaseMs,
    publicClient: options.publicClient,
  });
}

const payment = () => parts.payment();

const count = () => reader.getTransactionCount({ address: key });
const authorizationUsed = (p: VerifiedPayment) =>
  reader.readContract({ address: chain.usdcAddress, abi: usdcAbi, functionName: 'authorizationState', args: [p.payer, p.payload.payload.authorization.nonce as Hex] });
async function leaseRow() {
  const { Item } = await dynamo.client.send(new GetItemCommand({ TableName: LEASES_TABLE, Key: { pk: { S: key.toLowerCase() } }, ConsistentRead: true }));
  return { holder: Item?.holder?.S, lastNonce: Item?.lastNonce?.N === undefined ? undefined : Number(Item.lastNonce.N) };
}
async function nonceOf(result: Awaited<ReturnType<SelfSettler['settle']>>): Promise<number> {
  if (!result.ok) throw new Error(result.reason);
  return (await reader.getTransaction({ hash: result.transaction as Hex })).nonce;
}

describe('Settlement key lease: the held section stays inside the lease', () => {
  it('a holder whose node is slow to give the nonce gives the key up inside its lease and sends nothing; the next holder takes the next nonce', async () => {
    const [slow, next] = [await payment(), await payment()];
    const before = await count();
    // The node answers the nonce read 5 s late (after having read it): past the slow holder's 4 s lease.
    proxy.on('eth_getTransactionCount', { delayMs: 5_000, times: 1 });
    const started = Date.now();
    const slowResult = instance({ viaProxy: true, leaseMs: 4_000 }).settle(slow);
    // Another instance comes for the key once the slow holder's lease would have lapsed.
    await new Promise((resolve) => setTimeout(resolve, 4_300));
    const nextResult = await instance().settle(next);

    const refused = await slowResult;
    expect(refused).toMatchObject({ ok: false, broadcast: false, unavailable: true, reason: expect.stringMatching(/^Settlement failed while preparing the transaction: .*timed out/) });
    expect(proxy.seen).not.toContain('eth_sendRawTransaction');
    expect(await nonceOf(nextResult)).toBe(before);
    // Let the late answer arrive: the slow holder still sends nothing.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 5_500 - Date.now())));
    expect(proxy.seen).not.toContain('eth_sendRawTransaction');
    expect(await count()).toBe(before + 1);
    expect(await authorizationUsed(slow)).toBe(false);
    expect(await leaseRow()).toEqual({ holder: undefined, lastNonce: before });
  }, 20_000);

  it('the key is leased while the gas is estimated; a doomed authorization, refused by the estimate, gives the key back at once and sends nothing', async () => {
    const spent = await payment();
    const first = await instance().settle(spent);
    expect(first.ok).toBe(true);
    const before = await count();
    // The same authorization again: its estimate reverts (used), by which time the key was leased beside it.
    proxy.on('eth_estimateGas', { delayMs: 300, times: 1 });
    const again = await instance({ viaProxy: true }).settle(spent);
    expect(again).toMatchObject({ ok: false, broadcast: false, reason: expect.stringMatching(/^Settlement refused before broadcast/) });
    expect(proxy.seen).not.toContain('eth_sendRawTransaction');
    expect(await leaseRow()).toMatchObject({ holder: undefined });
    // The next settlement takes the key at once (a held lease would make it wait for the lease to lapse).
    const started = Date.now();
    expect(await nonceOf(await instance().settle(await payment()))).toBe(before);
    expect(Date.now() - started).toBeLessThan(3_000);
  }, 20_000);

  it('a holder whose lease was taken over while it read the nonce does not broadcast; the newer holder sends with no nonce collision', async () => {
    const [old, newer] = [await payment(), await payment()];
    const before = await count();
    let newerResult: Awaited<ReturnType<SelfSettler['settle']>> | undefined;
    // While the old holder reads the nonce, an instance whose clock runs a minute ahead (or the old holder paused
    // past its lease) sees the lease lapsed, takes the key, and settles with the nonce the old holder just read.
    const takeover = instance({ now: () => Date.now() + 60_000 });
    const oldHolder = instance({
      publicClient: {
        ...reader,
        getTransactionCount: async (args: Parameters<typeof reader.getTransactionCount>[0]) => {
          const pending = await reader.getTransactionCount(args);
          newerResult = await takeover.settle(newer);
          return pending;
        },
      } as never,
    });
    const result = await oldHolder.settle(old);

    expect(result).toMatchObject({ ok: false, broadcast: false, unavailable: true, reason: expect.stringMatching(/lease was lost before the broadcast/) });
    expect(await nonceOf(newerResult!)).toBe(before);
    expect(await count()).toBe(before + 1);
    expect(await authorizationUsed(old)).toBe(false);
    // The key is free, and the next send takes the next nonce.
    expect(await nonceOf(await instance().settle(old))).toBe(before + 1);
  });

  it('a broadcast with no answer inside the lease is aborted there and stays maybe-sent, its nonce recorded while the lease is held', async () => {
    const p = await payment();
    const before = await count();
    // The node takes the transaction (it is mined) but its answer comes 6 s later, past the 4 s lease.
    proxy.on('eth_sendRawTransaction', { delayMs: 6_000, times: 1 });
    const started = Date.now();
    const result = await instance({ viaProxy: true, leaseMs: 4_000 }).settle(p);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(result).toMatchObject({ ok: false, broadcast: true, reason: expect.stringMatching(/^Settlement failed while sending transaction 0x[0-9a-f]{64}/) });
    expect(await leaseRow()).toEqual({ holder: undefined, lastNonce: before });
    // Money moved: this is why the payment stays unknown-outcome, reconciled against the chain.
    expect(await authorizationUsed(p)).toBe(true);
    expect(await count()).toBe(before + 1);
    expect(await nonceOf(await instance().settle(await payment()))).toBe(before + 1);
  });
});

describe('Settlement key lease: a broadcast the node refused leaves the nonce free', () => {
  const refusals = [
    {
      name: 'nonce too low',
      rule: { error: { code: -32000, message: 'nonce too low: next nonce 7, tx nonce 6' } },
      answer: { broadcast: false, retryAfterSeconds: 1 },
    },
    { name: 'HTTP 429 (rate limited)', rule: { httpStatus: 429 }, answer: { broadcast: false, retryAfterSeconds: 1 } },
    {
      name: 'insufficient funds for gas',
      rule: { error: { code: -32000, message: 'insufficient funds for gas * price + value: balance 0, tx cost 1' } },
      answer: { broadcast: false, unavailable: true },
    },
  ];
  for (const { name, rule, answer } of refusals) {
    it(`${name}: nothing moved, the payment is refused, and the next settlement takes the same nonce at once`, async () => {
      const [refusedPayment, next] = [await payment(), await payment()];
      const before = await count();
      proxy.on('eth_sendRawTransaction', { ...rule, times: 1 });
      const result = await instance({ viaProxy: true }).settle(refusedPayment);
      expect(result).toEqual({ ok: false, reason: expect.stringMatching(/^Settlement transaction refused by the node/), ...answer });
      // The node was asked whether it knows the transaction before the refusal was believed.
      expect(proxy.seen).toContain('eth_getTransactionByHash');
      expect(await leaseRow()).toMatchObject({ holder: undefined });
      expect(await authorizationUsed(refusedPayment)).toBe(false);
      expect(await count()).toBe(before);
      const started = Date.now();
      expect(await nonceOf(await instance().settle(next))).toBe(before);
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  }

  it('a refusal for a transaction the node does know (it entered before the answer said otherwise) counts as sent', async () => {
    const p = await payment();
    const before = await count();
    proxy.on('eth_sendRawTransaction', { forward: true, error: { code: -32000, message: 'nonce too low' }, times: 1 });
    const result = await instance({ viaProxy: true }).settle(p);
    expect(await nonceOf(result)).toBe(before);
    expect(await authorizationUsed(p)).toBe(true);
    expect(await leaseRow()).toEqual({ holder: undefined, lastNonce: before });
  });
});

describe('The settler says when the node took the transfer (work beside the block wait)', () => {
  const rpc = (method: string, ...params: unknown[]) => chain.provider.request({ method, params });

  it('once, with the transfer in the pool and its block not yet made; the receipt is then awaited as before', async () => {
    const p = await payment();
    const before = await count();
    await rpc('evm_setAutomine', false);
    try {
      let calls = 0;
      let atHook: Promise<number[]> | undefined;
      const settling = instance().settle(p, {
        onBroadcast: () => {
          calls += 1;
          atHook = Promise.all([reader.getTransactionCount({ address: key, blockTag: 'pending' }), count()]);
        },
      });
      for (let i = 0; i < 1000 && calls === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      // Sent (the pending count took it), not mined (the latest did not).
      expect(await atHook).toEqual([before + 1, before]);
      await rpc('evm_mine');
      expect(await nonceOf(await settling)).toBe(before);
      expect(calls).toBe(1);
    } finally {
      await rpc('evm_setAutomine', true);
    }
  });

  it('never when nothing was sent: a doomed authorization (the estimate reverts), a broadcast the node refused', async () => {
    const used = await payment();
    expect(await instance().settle(used)).toMatchObject({ ok: true });
    let calls = 0;
    const onBroadcast = () => void (calls += 1);
    expect(await instance().settle(used, { onBroadcast })).toMatchObject({ ok: false, broadcast: false, reason: expect.stringMatching(/^Settlement refused before broadcast/) });
    proxy.on('eth_sendRawTransaction', { error: { code: -32000, message: 'nonce too low: next nonce 7, tx nonce 6' }, times: 1 });
    expect(await instance({ viaProxy: true }).settle(await payment(), { onBroadcast })).toMatchObject({ ok: false, broadcast: false, reason: expect.stringMatching(/^Settlement transaction refused by the node/) });
    expect(calls).toBe(0);
  });
});
