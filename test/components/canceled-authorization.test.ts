/**
 * Architecture, payment core: "paid means our transfer landed" — a canceled authorization buys nothing. On the
 * embedded runtime's real parts (the local chain, DynamoDB Local with the synthesized tables, the sweeper and the poll
 * function under their synthesized policies): a purchase broadcasts our transfer and gives up waiting (outcome
 * unknown), the buyer's `cancelAuthorization` is mined ahead of it in the next block, our transfer reverts, and the
 * authorization's nonce now reads spent. Each reconciler must see that nothing reached us: the job is voided (never
 * started), the run failed, the lock released, and the buyer keeps the money. Before the rule lived in the payment
 * core, each of them read "spent" as "paid" and gave the work away.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startEmbedded, type EmbeddedRuntime } from '../../lib/local/runtime.js';
import { asFunction } from '../../lib/local/iam/enforce.js';
import { SWEEPER } from '../../lambdas/surfaces/routes.js';
import { AGENTS, agentExample } from '../../lambdas/agents/registry.js';
import type { VerifiedPayment } from '../../lambdas/payments/types.js';
import { requirementFor, signedPayment } from '../unit/payments/fixtures.js';
import { cancelAheadOfTransfer, withTransferPending } from '../support/cancel-ahead.js';

const BANK_REC = AGENTS.find((a) => a.slug.startsWith('bank-rec-discrepancy-finder'))!;
const FUNDS = 1_000_000n;
const IMAGE_PRICE = 150_000n;
const MINUTE = 60_000;

let runtime: EmbeddedRuntime;
let stateDir: string;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'canceled-'));
  // Sweeps by hand only, so each test sees what its own sweep or poll did.
  runtime = await startEmbedded({ generationPort: 0, chainPort: 0, stateDir, log: () => {}, renderWaitMs: 100, sweepIntervalMs: 0 });
});

afterAll(async () => {
  await runtime?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

// Modules that read configuration at construction load after the runtime has set it.
async function modules() {
  const { purchaseJob } = await import('../../lambdas/jobs/purchase.js');
  const { purchaseDeps } = await import('../../lambdas/jobs/deps.js');
  const { runAgent } = await import('../../lambdas/agents/run.js');
  const { RunStore } = await import('../../lambdas/store/runs.js');
  const { JobStore } = await import('../../lambdas/store/jobs.js');
  const { DynamoPaymentLedger } = await import('../../lambdas/store/ledger.js');
  const { paymentBackend, paymentCore } = await import('../../lambdas/payments/backend.js');
  const { sweep } = await import('../../lambdas/workflow/sweeper.js');
  const { sweepDeps } = await import('../../lambdas/workflow/sweep-deps.js');
  const { WorkflowStarter } = await import('../../lambdas/store/workflow.js');
  const { acceptedBody } = await import('../../lambdas/jobs/views.js');
  const { urlsFor } = await import('../../lambdas/jobs/urls.js');
  return { purchaseJob, purchaseDeps, runAgent, RunStore, JobStore, DynamoPaymentLedger, paymentBackend, paymentCore, sweep, sweepDeps, WorkflowStarter, acceptedBody, urlsFor };
}

/** A funded buyer's verified authorization of `amount` to the runtime's pay-to. */
async function authorization(amount: bigint) {
  const { paymentBackend } = await modules();
  const { chain } = runtime;
  const buyer = privateKeyToAccount(generatePrivateKey());
  await chain.fund(buyer.address, FUNDS);
  const requirement = { ...requirementFor({ asset: chain.usdcAddress, payTo: chain.payTo }), amount: amount.toString(), maxAmountRequired: amount.toString() };
  const verified = await paymentBackend().verifier.verify(await signedPayment(buyer, requirement), requirement);
  if (!verified.ok) throw new Error(verified.reason);
  return { buyer, payment: verified.payment as VerifiedPayment };
}

/** An image purchase whose transfer is pending at its deadline; then the buyer's cancel is mined ahead of it. */
async function imagePurchaseCanceledAhead() {
  const { purchaseJob, purchaseDeps } = await modules();
  const { buyer, payment } = await authorization(IMAGE_PRICE);
  const purchase = await withTransferPending(runtime, () =>
    purchaseJob(purchaseDeps(), {
      product: 'agent_image',
      request: { prompt: 'a lighthouse at dusk', aspectRatio: '1:1', outputFormat: 'png' },
      payment,
      blockingWaitMs: 0,
      deadline: Date.now(), // no time left to wait for the receipt
    }),
  );
  expect(purchase.type).toBe('accepted'); // 202 without a receipt: the outcome is unknown
  expect('receipt' in purchase && purchase.receipt).toBeFalsy();
  const job = (purchase as { job: { jobId: string } }).job;
  await cancelAheadOfTransfer(runtime, buyer, payment.payload.payload.authorization.nonce as `0x${string}`);
  expect(await runtime.chain.balanceOf(buyer.address)).toBe(FUNDS); // nothing reached us
  return { job, buyer, payment };
}

describe('A canceled authorization buys nothing: a generation job', () => {
  it('the sweeper (as the sweeper function) voids the reserved job at once, never starts it, and releases the lock', async () => {
    const { sweep, sweepDeps, JobStore, DynamoPaymentLedger, WorkflowStarter } = await modules();
    const { job, buyer, payment } = await imagePurchaseCanceledAhead();
    const jobs = new JobStore();
    expect(await jobs.get(job.jobId)).toMatchObject({ status: 'reserved' });

    // The authorization is still within its validBefore: only the cancel's event lets the sweeper decide now.
    const swept = await asFunction(SWEEPER.id, () => sweep(sweepDeps(), 3600, 0));
    expect(swept).toMatchObject({ voided: [job.jobId], reconciled: [], started: [] });
    expect(await jobs.get(job.jobId)).toMatchObject({ status: 'failed', error: expect.stringMatching(/canceled/) });
    expect(await jobs.get(job.jobId)).not.toHaveProperty('transaction');
    expect(await new DynamoPaymentLedger().state(payment.nonceKey)).toBeUndefined();
    expect(await new WorkflowStarter().state(job.jobId, 'agent_image')).toBe('UNKNOWN'); // no execution ever started
    // Decided once: the next sweep has nothing left to do, and the buyer still holds the money.
    expect(await asFunction(SWEEPER.id, () => sweep(sweepDeps(), 3600, 0))).toMatchObject({ voided: [], reconciled: [] });
    expect(await runtime.chain.balanceOf(buyer.address)).toBe(FUNDS);
  });

  it('a poll of the reserved job (through the gateway, as the poll function) answers it failed', async () => {
    const { JobStore, DynamoPaymentLedger, acceptedBody, urlsFor } = await modules();
    const { job, payment } = await imagePurchaseCanceledAhead();
    const { pollUrl } = acceptedBody(job as never, urlsFor(runtime.info.baseUrl)) as { pollUrl: string };

    const polled = await (await fetch(pollUrl)).json();
    expect(polled).toMatchObject({ jobId: job.jobId, status: 'failed', imageUrl: null });
    expect(await new JobStore().get(job.jobId)).toMatchObject({ status: 'failed' });
    expect(await new DynamoPaymentLedger().state(payment.nonceKey)).toBeUndefined();
  });
});

describe('A canceled authorization buys nothing: an agent run', () => {
  it('a run of unknown outcome withholds its result; the sweeper then fails it and releases the lock, never settles it', async () => {
    const { runAgent, RunStore, DynamoPaymentLedger, paymentCore, sweep, sweepDeps } = await modules();
    const { buyer, payment } = await authorization(BANK_REC.price);
    const outcome = await withTransferPending(runtime, () =>
      runAgent(
        { runs: new RunStore(), ledger: new DynamoPaymentLedger(), settle: (p, o) => paymentCore().settle(p, o) },
        { agent: BANK_REC, input: agentExample(BANK_REC).input, dryRun: false, payment, deadline: Date.now() },
      ),
    );
    expect(outcome).toMatchObject({ type: 'settlement-unknown' }); // 503 naming the run, no result
    const { runId } = outcome as { runId: string };
    await cancelAheadOfTransfer(runtime, buyer, payment.payload.payload.authorization.nonce as `0x${string}`);
    const runs = new RunStore();
    const ledger = new DynamoPaymentLedger();
    expect(await runs.get(runId)).toMatchObject({ status: 'settlement-unknown' });
    expect(await ledger.state(payment.nonceKey)).toBe('uncertain');

    const later = new Date(Date.now() + 10 * MINUTE); // past the run's idle time
    const swept = await asFunction(SWEEPER.id, () => sweep({ ...sweepDeps(), now: () => later }, 3600));
    expect(swept).toMatchObject({ runsVoided: [runId], runsSettled: [], runsWaiting: [] });
    const run = await runs.get(runId);
    expect(run).toMatchObject({ status: 'failed', error: expect.stringMatching(/canceled/) });
    expect(run).not.toHaveProperty('transaction');
    expect(run).not.toHaveProperty('openStatus');
    expect(await ledger.state(payment.nonceKey)).toBeUndefined();
    expect(await runtime.chain.balanceOf(buyer.address)).toBe(FUNDS);
  });
});
