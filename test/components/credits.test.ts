/**
 * Workspace credit on the embedded runtime's real parts (DynamoDB Local with the synthesized tables and indexes, the
 * local chain, IAM enforced from the synthesized template): the credit store's conditions under concurrency, and a
 * top-up on the purchase skeleton — credited once whatever is replayed or retried, credited by the sweeper (as the
 * sweeper function) when its outcome was first unknown and the transfer lands, and never when the buyer cancels.
 * Workspaces and credit (docs/decisions/0013): "the balance never goes negative and a retried write never applies twice".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startEmbedded, type EmbeddedRuntime } from '../../lib/local/runtime.js';
import { asFunction } from '../../lib/local/iam/enforce.js';
import { ROUTES, SWEEPER } from '../../lambdas/surfaces/routes.js';
import { functionIdOf } from '../../lib/function-map.js';
import type { VerifiedPayment } from '../../lambdas/payments/types.js';
import type { Workspace } from '../../lambdas/store/credits.js';
import { requirementFor, signedPayment } from '../unit/payments/fixtures.js';
import { cancelAheadOfTransfer, withTransferPending } from '../support/cancel-ahead.js';

const TIER_1 = 1_000_000n;
const PRICE = 80_000n; // a priced agent call (0.08 USDC)
const MINUTE = 60_000;
const TOPUP_FN = functionIdOf(ROUTES.find((r) => r.id === 'GatewayTopUp')!);
const WORKSPACES_FN = functionIdOf(ROUTES.find((r) => r.id === 'CreateWorkspace')!);

let runtime: EmbeddedRuntime;
let stateDir: string;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'credits-'));
  runtime = await startEmbedded({ generationPort: 0, chainPort: 0, stateDir, log: () => {}, renderWaitMs: 100, sweepIntervalMs: 0 });
});

afterAll(async () => {
  await runtime?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

// Modules that read configuration at construction load after the runtime has set it.
async function modules() {
  const { CreditStore, InsufficientCreditError, NoSuchDebitError, topUpKey } = await import('../../lambdas/store/credits.js');
  const { DynamoPaymentLedger } = await import('../../lambdas/store/ledger.js');
  const { paymentBackend, paymentCore } = await import('../../lambdas/payments/backend.js');
  const { topUp } = await import('../../lambdas/credits/topup.js');
  const { hashWorkspaceKey, newWorkspaceKey } = await import('../../lambdas/credits/keys.js');
  const { sweep } = await import('../../lambdas/workflow/sweeper.js');
  const { sweepDeps } = await import('../../lambdas/workflow/sweep-deps.js');
  return { CreditStore, InsufficientCreditError, NoSuchDebitError, topUpKey, DynamoPaymentLedger, paymentBackend, paymentCore, topUp, hashWorkspaceKey, newWorkspaceKey, sweep, sweepDeps };
}

/** A new workspace, created as the workspaces function creates one. */
async function newWorkspace(): Promise<Workspace> {
  const { CreditStore, hashWorkspaceKey, newWorkspaceKey } = await modules();
  return asFunction(WORKSPACES_FN, () => new CreditStore().createWorkspace(hashWorkspaceKey(newWorkspaceKey()), `ws_${randomUUID()}`));
}

/** Credits `amount` through the top-up entries with a made-up settlement (the store's own path, no chain). */
async function seed(workspace: Workspace, amount: bigint): Promise<void> {
  const { CreditStore, DynamoPaymentLedger, topUpKey } = await modules();
  const credits = new CreditStore();
  const ledger = new DynamoPaymentLedger();
  const nonceKey = `test:${randomUUID()}`;
  await asFunction(TOPUP_FN, async () => {
    await ledger.lock({ nonceKey, amount, payer: '0xseed', purchase: `topup#${workspace.workspaceId}` }, credits.reserveTopUpItem(workspace, { nonceKey, amount, tier: 1, payer: '0xseed' }));
    await ledger.markSettled(nonceKey, '0xseed', credits.creditTopUpItems({ ...workspace, entryKey: topUpKey(nonceKey), amount }, '0xseed'));
  });
}

async function balanceOf(workspace: Workspace): Promise<bigint> {
  const { CreditStore } = await modules();
  return (await new CreditStore().findWorkspace(workspace.keyHash))!.balance;
}

/** A funded buyer's verified x402 authorization of a tier-1 top-up to the runtime's pay-to. */
async function authorization(amount = TIER_1) {
  const { paymentBackend } = await modules();
  const { chain } = runtime;
  const buyer = privateKeyToAccount(generatePrivateKey());
  await chain.fund(buyer.address, 2n * amount);
  const requirement = { ...requirementFor({ asset: chain.usdcAddress, payTo: chain.payTo }), amount: amount.toString(), maxAmountRequired: amount.toString() };
  const verified = await paymentBackend().verifier.verify(await signedPayment(buyer, requirement), requirement);
  if (!verified.ok) throw new Error(verified.reason);
  return { buyer, payment: verified.payment as VerifiedPayment };
}

/** Mines the pending transfer and turns automine back on. */
async function mine(): Promise<void> {
  const reader = createPublicClient({ transport: http(runtime.info.rpcUrl, { retryCount: 0 }) });
  await reader.request({ method: 'evm_mine', params: [] } as never);
  await reader.request({ method: 'evm_setAutomine', params: [true] } as never); // withTransferPending left it off
}

async function sweepAsSweeper(at = new Date(Date.now() + 10 * MINUTE)) {
  const { sweep, sweepDeps } = await modules();
  return asFunction(SWEEPER.id, () => sweep({ ...sweepDeps(), now: () => at }, 3600));
}

describe('CreditStore: the balance never goes negative and a retried write never applies twice', () => {
  it('50 concurrent debits on a balance that covers 10 leave exactly 10 debits and a balance of 0', async () => {
    const { CreditStore, InsufficientCreditError } = await modules();
    const workspace = await newWorkspace();
    await seed(workspace, 10n * PRICE);
    const credits = new CreditStore();
    const outcomes = await asFunction(TOPUP_FN, () =>
      Promise.allSettled(Array.from({ length: 50 }, (_, i) => credits.debit(workspace, `run_concurrent-${i}`, PRICE))),
    );
    const debited = outcomes.filter((o) => o.status === 'fulfilled' && o.value.type === 'debited');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(debited).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const o of refused) expect((o as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientCreditError);
    expect(await balanceOf(workspace)).toBe(0n);
    // The ledger holds exactly the 10 debits (and the seed), each once.
    const page = await credits.listEntries(workspace.workspaceId, 100);
    expect(page.entries.filter((e) => e.kind === 'debit')).toHaveLength(10);
    expect(page.entries.filter((e) => e.kind === 'topup')).toHaveLength(1);
  });

  it('a debit retried with the same run id applies once; a short balance is refused with the balance it found', async () => {
    const { CreditStore, InsufficientCreditError } = await modules();
    const workspace = await newWorkspace();
    await seed(workspace, 3n * PRICE);
    const credits = new CreditStore();
    expect(await credits.debit(workspace, 'run_once', PRICE)).toEqual({ type: 'debited' });
    const retries = await Promise.all(Array.from({ length: 5 }, () => credits.debit(workspace, 'run_once', PRICE)));
    expect(retries).toEqual(Array(5).fill({ type: 'already-debited' }));
    expect(await balanceOf(workspace)).toBe(2n * PRICE);

    const short = credits.debit(workspace, 'run_big', 3n * PRICE);
    await expect(short).rejects.toBeInstanceOf(InsufficientCreditError);
    await expect(short).rejects.toMatchObject({ balance: 2n * PRICE, price: 3n * PRICE });
    expect(await balanceOf(workspace)).toBe(2n * PRICE);
    expect(await credits.getEntry(workspace.workspaceId, 'debit#run_big')).toBeUndefined();
  });

  it('a workspace with no credit is refused, not taken below zero', async () => {
    const { CreditStore, InsufficientCreditError } = await modules();
    const workspace = await newWorkspace();
    await expect(new CreditStore().debit(workspace, 'run_free-lunch', 1n)).rejects.toBeInstanceOf(InsufficientCreditError);
    expect(await balanceOf(workspace)).toBe(0n);
  });

  it('a run that fails on our side is credited back once, and only a real debit of that amount can be', async () => {
    const { CreditStore, NoSuchDebitError } = await modules();
    const workspace = await newWorkspace();
    await seed(workspace, PRICE);
    const credits = new CreditStore();
    await credits.debit(workspace, 'run_fails', PRICE);
    expect(await balanceOf(workspace)).toBe(0n);
    const backs = await Promise.all(Array.from({ length: 5 }, () => credits.creditBack(workspace, 'run_fails', PRICE, 'the agent failed')));
    expect(backs.filter((b) => b.type === 'credited-back')).toHaveLength(1);
    expect(backs.filter((b) => b.type === 'already-credited-back')).toHaveLength(4);
    expect(await balanceOf(workspace)).toBe(PRICE);
    await expect(credits.creditBack(workspace, 'run_never-debited', PRICE, 'x')).rejects.toBeInstanceOf(NoSuchDebitError);
    await credits.debit(workspace, 'run_other', PRICE);
    await expect(credits.creditBack(workspace, 'run_other', 2n * PRICE, 'more than taken')).rejects.toBeInstanceOf(NoSuchDebitError);
    expect(await balanceOf(workspace)).toBe(0n);
    const entries = (await credits.listEntries(workspace.workspaceId, 10)).entries;
    expect(entries.map((e) => e.kind)).toEqual(['debit', 'credit-back', 'debit', 'topup']); // newest first
  });

  it('lists entries newest first, a page at a time', async () => {
    const { CreditStore } = await modules();
    const workspace = await newWorkspace();
    await seed(workspace, 5n * PRICE);
    const credits = new CreditStore();
    for (let i = 0; i < 5; i++) await credits.debit(workspace, `run_page-${i}`, PRICE);
    const seen: string[] = [];
    let after: Record<string, unknown> | undefined;
    do {
      const page = await credits.listEntries(workspace.workspaceId, 2, after);
      expect(page.entries.length).toBeLessThanOrEqual(2);
      seen.push(...page.entries.map((e) => e.entryKey));
      after = page.next;
    } while (after);
    expect(seen.slice(0, 5)).toEqual([4, 3, 2, 1, 0].map((i) => `debit#run_page-${i}`));
    expect(seen).toHaveLength(6);
  });
});

describe('A top-up credits exactly once, keyed by the settled authorization', () => {
  it('settles on chain, credits the tier with its ledger entry, and a replay of the same payment credits nothing', async () => {
    const { CreditStore, DynamoPaymentLedger, paymentCore, topUp, topUpKey } = await modules();
    const workspace = await newWorkspace();
    const { buyer, payment } = await authorization();
    const deps = { credits: new CreditStore(), ledger: new DynamoPaymentLedger(), settle: paymentCore().settle.bind(paymentCore()) };
    const first = await asFunction(TOPUP_FN, () => topUp(deps, { workspace, tier: 1, payment }));
    expect(first).toMatchObject({ type: 'credited', amount: TIER_1, recorded: true, receipt: { transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), payer: buyer.address } });
    expect(await balanceOf(workspace)).toBe(TIER_1);
    const entry = await new CreditStore().getEntry(workspace.workspaceId, topUpKey(payment.nonceKey));
    expect(entry).toMatchObject({ kind: 'topup', status: 'credited', amount: TIER_1, transaction: (first as { receipt: { transaction: string } }).receipt.transaction, payer: buyer.address });
    expect(entry).not.toHaveProperty('openStatus');

    const replay = await asFunction(TOPUP_FN, () => topUp(deps, { workspace, tier: 1, payment }));
    expect(replay).toMatchObject({ type: 'refused' });
    expect(await balanceOf(workspace)).toBe(TIER_1);
    expect(await runtime.chain.balanceOf(buyer.address)).toBe(TIER_1); // paid once
  });

  it('a settlement recorded twice (the request and the sweeper racing) credits once', async () => {
    const { CreditStore, DynamoPaymentLedger, topUpKey } = await modules();
    const workspace = await newWorkspace();
    const credits = new CreditStore();
    const ledger = new DynamoPaymentLedger();
    const nonceKey = `test:${randomUUID()}`;
    await ledger.lock({ nonceKey, amount: TIER_1, payer: '0xp', purchase: 'topup#x' }, credits.reserveTopUpItem(workspace, { nonceKey, amount: TIER_1, tier: 1, payer: '0xp' }));
    const entry = { ...workspace, entryKey: topUpKey(nonceKey), amount: TIER_1 };
    const records = await Promise.allSettled(Array.from({ length: 4 }, () => ledger.markSettled(nonceKey, '0xtx', credits.creditTopUpItems(entry, '0xtx'))));
    expect(records.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await balanceOf(workspace)).toBe(TIER_1);
  });
});

describe('Sweeper: a top-up whose outcome was first unknown', () => {
  it('is pending (no credit) until the transfer lands, then credited once by the sweeper', async () => {
    const { CreditStore, DynamoPaymentLedger, paymentCore, topUp, topUpKey } = await modules();
    const workspace = await newWorkspace();
    const { buyer, payment } = await authorization();
    const deps = { credits: new CreditStore(), ledger: new DynamoPaymentLedger(), settle: paymentCore().settle.bind(paymentCore()) };
    const outcome = await withTransferPending(runtime, () => asFunction(TOPUP_FN, () => topUp(deps, { workspace, tier: 1, payment, deadline: Date.now() })));
    expect(outcome).toMatchObject({ type: 'pending', entryKey: topUpKey(payment.nonceKey) });
    expect(await balanceOf(workspace)).toBe(0n);
    expect(await new CreditStore().getEntry(workspace.workspaceId, topUpKey(payment.nonceKey))).toMatchObject({ status: 'pending', openStatus: 'pending' });
    expect(await new DynamoPaymentLedger().state(payment.nonceKey)).toBe('uncertain');

    // Not mined yet: the sweeper waits.
    expect(await sweepAsSweeper()).toMatchObject({ topUpsWaiting: expect.arrayContaining([topUpKey(payment.nonceKey)]), topUpsCredited: [] });
    expect(await balanceOf(workspace)).toBe(0n);

    await mine();
    expect(await runtime.chain.balanceOf(buyer.address)).toBe(TIER_1);
    const swept = await sweepAsSweeper();
    expect(swept.topUpsCredited).toEqual([topUpKey(payment.nonceKey)]);
    expect(await balanceOf(workspace)).toBe(TIER_1);
    const entry = await new CreditStore().getEntry(workspace.workspaceId, topUpKey(payment.nonceKey));
    expect(entry).toMatchObject({ status: 'credited', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(entry).not.toHaveProperty('openStatus');
    expect(await new DynamoPaymentLedger().state(payment.nonceKey)).toBe('settled');

    // Once: the next sweep has nothing of it.
    expect((await sweepAsSweeper()).topUpsCredited).toEqual([]);
    expect(await balanceOf(workspace)).toBe(TIER_1);
  });

  it('credits nothing when the buyer cancels the authorization ahead of our transfer: entry removed, lock released', async () => {
    const { CreditStore, DynamoPaymentLedger, paymentCore, topUp, topUpKey } = await modules();
    const workspace = await newWorkspace();
    const { buyer, payment } = await authorization();
    const deps = { credits: new CreditStore(), ledger: new DynamoPaymentLedger(), settle: paymentCore().settle.bind(paymentCore()) };
    const outcome = await withTransferPending(runtime, () => asFunction(TOPUP_FN, () => topUp(deps, { workspace, tier: 1, payment, deadline: Date.now() })));
    expect(outcome).toMatchObject({ type: 'pending' });
    await cancelAheadOfTransfer(runtime, buyer, payment.payload.payload.authorization.nonce as `0x${string}`);

    const swept = await sweepAsSweeper();
    expect(swept).toMatchObject({ topUpsVoided: [topUpKey(payment.nonceKey)], topUpsCredited: [] });
    expect(await balanceOf(workspace)).toBe(0n);
    expect(await new CreditStore().getEntry(workspace.workspaceId, topUpKey(payment.nonceKey))).toBeUndefined();
    expect(await new DynamoPaymentLedger().state(payment.nonceKey)).toBeUndefined();
    expect(await runtime.chain.balanceOf(buyer.address)).toBe(2n * TIER_1);
    expect((await sweepAsSweeper()).topUpsVoided).toEqual([]);
  });

  it('a top-up whose function died after the lock becomes pending, its lock kept (the authorization is unused)', async () => {
    const { CreditStore, DynamoPaymentLedger, topUp, topUpKey } = await modules();
    const workspace = await newWorkspace();
    const { payment } = await authorization();
    const deps = {
      credits: new CreditStore(undefined, undefined, () => new Date(Date.now() - 10 * MINUTE)),
      ledger: new DynamoPaymentLedger(),
      settle: async () => {
        throw new Error('Task timed out after 30.00 seconds');
      },
    };
    await expect(asFunction(TOPUP_FN, () => topUp(deps, { workspace, tier: 1, payment }))).rejects.toThrow(/timed out/);
    const swept = await sweepAsSweeper(new Date());
    expect(swept.topUpsPending).toEqual([topUpKey(payment.nonceKey)]);
    expect(await new CreditStore().getEntry(workspace.workspaceId, topUpKey(payment.nonceKey))).toMatchObject({ status: 'pending' });
    expect(await new DynamoPaymentLedger().state(payment.nonceKey)).toBe('uncertain');
    expect(await balanceOf(workspace)).toBe(0n);
  });
});
