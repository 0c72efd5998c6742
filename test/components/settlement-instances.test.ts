/**
 * Settlement scales past one process (docs/decisions/0005): four settler instances — separate SelfSettler objects
 * with nothing shared in memory, as four Lambda instances would be — settle 16 concurrent buyers through one pool
 * of four keys, coordinated only by the key leases in DynamoDB Local, on the local chain. Every payment settles,
 * and per key the nonces used are exactly the next ones: none reused, none skipped.
 */
import { createPublicClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalChain } from '../../lib/local/chain.js';
import type { LocalDynamo } from '../../lib/local/dynamodb.js';
import { startSettlementParts, type SettlementParts } from '../support/settlement-parts.js';
import { SelfSettler } from '../../lambdas/payments/settle.js';
import type { PaymentRequirement, VerifiedPayment } from '../../lambdas/payments/types.js';
import type { ViemPaymentVerifier } from '../../lambdas/payments/verify.js';
import { newBuyer, signedPayment } from '../unit/payments/fixtures.js';

const LEASES_TABLE = 'settler-leases-test';

let parts: SettlementParts;
let chain: LocalChain;
let dynamo: LocalDynamo;
let requirement: PaymentRequirement;
let verifier: ViemPaymentVerifier;
let reader: ReturnType<typeof createPublicClient>;
let Leases: typeof import('../../lambdas/store/settler-leases.js').DynamoSettlerLeases;

beforeAll(async () => {
  parts = await startSettlementParts('settle-instances', { settlerCount: 4, leasesTable: LEASES_TABLE });
  ({ chain, dynamo, requirement, verifier, reader, Leases } = parts);
}, 120_000);

afterAll(async () => {
  await parts?.stop();
});

/** One "instance": its own settler object and its own leases client, sharing only DynamoDB and the chain. */
function instance(options: { gasFloorWei?: bigint; keyWaitMs?: number } = {}): SelfSettler {
  return new SelfSettler({
    config: { chainId: chain.chainId, rpcUrl: chain.rpcUrl, settlerKeyFile: chain.settlerKeyFile, gasFloorWei: options.gasFloorWei },
    leases: new Leases(LEASES_TABLE),
    keyWaitMs: options.keyWaitMs,
  });
}

async function buyersWithPayments(count: number): Promise<VerifiedPayment[]> {
  const buyers = Array.from({ length: count }, () => newBuyer());
  for (const buyer of buyers) await chain.fund(buyer.address, 1_000_000n);
  return Promise.all(
    buyers.map(async (buyer) => {
      const result = await verifier.verify(await signedPayment(buyer, requirement), requirement);
      if (!result.ok) throw new Error(result.reason);
      return result.payment;
    }),
  );
}

const nonces = () => Promise.all(chain.settlerAddresses.map((address) => reader.getTransactionCount({ address })));

describe('Settlement that scales past one process', () => {
  it('16 concurrent buyers over 4 instances and 4 keys: every payment settles, no nonce reused or skipped', async () => {
    const payments = await buyersWithPayments(16);
    const instances = [instance(), instance(), instance(), instance()];
    const before = await nonces();
    const payToBefore = await chain.balanceOf(chain.payTo);

    const results = await Promise.all(payments.map((payment, i) => instances[i % 4].settle(payment)));
    for (const result of results) expect(result, JSON.stringify(result)).toMatchObject({ ok: true });

    const hashes = results.map((r) => (r as { transaction: Hex }).transaction);
    expect(new Set(hashes).size).toBe(16);
    const transactions = await Promise.all(hashes.map((hash) => reader.getTransaction({ hash })));
    const after = await nonces();
    chain.settlerAddresses.forEach((address, k) => {
      const used = transactions.filter((t) => t.from.toLowerCase() === address.toLowerCase()).map((t) => t.nonce).sort((a, b) => a - b);
      // Exactly the nonces from the key's count before to its count after: contiguous, each once.
      expect(used).toEqual(Array.from({ length: after[k] - before[k] }, (_, i) => before[k] + i));
    });
    expect(after.reduce((a, b) => a + b, 0) - before.reduce((a, b) => a + b, 0)).toBe(16);
    expect(await chain.balanceOf(chain.payTo)).toBe(payToBefore + 16n * BigInt(requirement.amount));
  });

  it('answers back-pressure (402 Retry-After) when every key stays busy past the wait budget; nothing is sent', async () => {
    const [payment] = await buyersWithPayments(1);
    const squatter = new Leases(LEASES_TABLE);
    const held = await Promise.all(chain.settlerAddresses.map((address) => squatter.acquire(address, 'squatter', 60_000)));
    try {
      const before = await nonces();
      expect(await instance({ keyWaitMs: 200 }).settle(payment)).toEqual({
        ok: false,
        reason: 'Settlement is back-pressured: every settlement key is busy',
        broadcast: false,
        retryAfterSeconds: 1,
      });
      expect(await nonces()).toEqual(before);
    } finally {
      for (const lease of held) if (lease) await squatter.release(lease);
    }
    // Released, the same payment settles.
    expect(await instance().settle(payment)).toMatchObject({ ok: true });
  });

  it('refuses new work as unavailable (503) when every key is below its gas floor, before anything is sent', async () => {
    const [payment] = await buyersWithPayments(1);
    const before = await nonces();
    expect(await instance({ gasFloorWei: 10n ** 30n }).settle(payment)).toEqual({
      ok: false,
      reason: 'Every settlement key is below its gas floor',
      broadcast: false,
      unavailable: true,
    });
    expect(await nonces()).toEqual(before);
  });

  it("takes the chain's count when the key was used outside the leases (the chain is ahead of the lease record)", async () => {
    const [first, second] = await buyersWithPayments(2);
    const settler = instance();
    expect(await settler.settle(first)).toMatchObject({ ok: true });
    // Every key sends a transaction the leases never saw (an operator topping up, another tool).
    const { readFile } = await import('node:fs/promises');
    const keys = (await readFile(chain.settlerKeyFile, 'utf8')).trim().split('\n') as Hex[];
    const { createWalletClient } = await import('viem');
    const { localChainDefinition } = await import('../../lib/local/chain.js');
    for (const key of keys) {
      const wallet = createWalletClient({ account: privateKeyToAccount(key), chain: localChainDefinition(chain.rpcUrl), transport: http(chain.rpcUrl, { retryCount: 0 }) });
      await reader.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: wallet.account.address, value: 0n }) });
    }
    const before = await nonces();
    const result = await settler.settle(second);
    expect(result).toMatchObject({ ok: true });
    const sent = await reader.getTransaction({ hash: (result as { transaction: Hex }).transaction });
    const k = chain.settlerAddresses.findIndex((a) => a.toLowerCase() === sent.from.toLowerCase());
    expect(sent.nonce).toBe(before[k]);
  });
});
