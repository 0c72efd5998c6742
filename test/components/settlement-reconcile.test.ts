/**
 * Settlement of unknown outcome, end to end on the embedded runtime's real parts (DynamoDB Local, the local chain,
 * the local Step Functions running the synthesised machines): a transfer broadcast without a receipt by the
 * deadline leaves the job reserved and answers 202; once the chain has it, the sweeper records the receipt and
 * starts the job, which completes. Spec: "one payment pays for one job", "a job always ends completed or failed".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedRuntime } from '../../lib/local/runtime.js';
import { purchaseWithPendingTransfer } from '../support/pending-purchase.js';

let runtime: EmbeddedRuntime;
let stateDir: string;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'reconcile-'));
  // This file sweeps by hand and asserts each sweep's result: no scheduled sweeps (prompt-reconcile.test.ts has them).
  runtime = await startEmbedded({ generationPort: 0, chainPort: 0, stateDir, log: () => {}, renderWaitMs: 100, sweepIntervalMs: 0 });
});

afterAll(async () => {
  await runtime?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

async function pollJob(url: string, done: (body: any) => boolean): Promise<any> {
  for (let i = 0; i < 300; i++) {
    const body = await (await fetch(url)).json();
    if (done(body)) return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not finish`);
}

describe('Settlement of unknown outcome: the chain decides, the sweeper delivers', () => {
  it('answers 202 for a transfer still pending at the deadline, then records its receipt and runs the job once it lands', async () => {
    // Modules that read configuration at construction load after the runtime has set it.
    const { presentPurchase } = await import('../../lambdas/http/present-purchase.js');
    const { productOffer } = await import('../../lambdas/jobs/offers.js');
    const { sweep } = await import('../../lambdas/workflow/sweeper.js');
    const { sweepDeps } = await import('../../lambdas/workflow/sweep-deps.js');
    const { JobStore } = await import('../../lambdas/store/jobs.js');
    const { paymentBackend } = await import('../../lambdas/payments/backend.js');
    const { info, chain } = runtime;
    const { purchase, buyer, rpc, payment, requirement } = await purchaseWithPendingTransfer(runtime);
    expect(purchase.type).toBe('accepted');
    expect('receipt' in purchase && purchase.receipt).toBeFalsy(); // no receipt while the outcome is unknown
    const accepted = presentPurchase(purchase, productOffer('agent_image', info.baseUrl), info.baseUrl, () => ({ cancelToken: 'ct_test' }));
    expect(accepted.statusCode).toBe(202);
    expect(accepted.headers['PAYMENT-RESPONSE']).toBeUndefined();
    const body = JSON.parse(accepted.body!) as { jobId: string; pollUrl: string };
    expect(await new JobStore().get(body.jobId)).toMatchObject({ status: 'reserved', openStatus: 'reserved', validBefore: expect.any(Number) });
    const openNow = await new JobStore().listStale(new Date(Date.now() + 60_000), ['reserved']);
    expect(openNow.map((j) => j.jobId)).toContain(body.jobId);
    expect(await (await fetch(body.pollUrl)).json()).toMatchObject({ jobId: body.jobId, status: 'queued', imageUrl: null });

    // Before the transfer lands the sweeper leaves the job alone: the authorization can still be used.
    expect(await sweep(sweepDeps(), 3600, 0)).toMatchObject({ reconciled: [], voided: [], running: [body.jobId] });

    await rpc('evm_mine');
    expect(await chain.balanceOf(buyer.address)).toBe(850_000n);
    const mined = (await rpc('eth_getBlockByNumber', ['latest', false])) as { transactions: string[] };
    expect(mined.transactions).toHaveLength(1);
    const swept = await sweep(sweepDeps(), 3600, 0);
    expect(swept.reconciled).toEqual([body.jobId]);
    expect(swept.started).toEqual([body.jobId]);
    // The receipt is our transfer's own transaction, read from the token's events (not the nonce's state alone).
    expect((await new JobStore().get(body.jobId))?.transaction).toBe(mined.transactions[0]);

    const done = await pollJob(body.pollUrl, (b) => b.status === 'completed' || b.status === 'failed');
    expect(done).toMatchObject({ status: 'completed', imageUrl: expect.stringMatching(/\/image\.png$/) });
    expect((await fetch(done.imageUrl)).headers.get('content-type')).toBe('image/png');
    // An ended job leaves the sweeper's sparse index of open jobs.
    const jobs = new JobStore();
    expect(await jobs.get(body.jobId)).not.toHaveProperty('openStatus');
    const open = await jobs.listStale(new Date(Date.now() + 3_600_000), ['reserved', 'queued', 'processing']);
    expect(open.map((j) => j.jobId)).not.toContain(body.jobId);
    // Reconciled once: a second sweep finds nothing to do, and the authorization cannot pay again.
    expect((await sweep(sweepDeps(), 3600, 0)).reconciled).toEqual([]);
    expect(await paymentBackend().verifier.verify(payment.payload, requirement)).toMatchObject({ ok: false });
  });
});

/** Polls `url` until `done`, or throws after `ms`. */
async function pollUntil(url: string, ms: number, done: (body: any) => boolean): Promise<any> {
  const deadline = Date.now() + ms;
  for (;;) {
    const body = await (await fetch(url)).json();
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`${url} within ${ms} ms; last seen ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('Settlement of unknown outcome: a poll of the reserved job reconciles it (no sweeper)', () => {
  it('once the chain shows the authorization used, a poll records the receipt, queues the job and starts it', async () => {
    const { JobStore } = await import('../../lambdas/store/jobs.js');
    const { DynamoPaymentLedger } = await import('../../lambdas/store/ledger.js');
    const { POLL_RECONCILE_SECONDS } = await import('../../lambdas/workflow/poll-reconcile.js');
    const { acceptedBody } = await import('../../lambdas/jobs/views.js');
    const { urlsFor } = await import('../../lambdas/jobs/urls.js');
    const { purchase, buyer, rpc, payment } = await purchaseWithPendingTransfer(runtime);
    expect(purchase.type).toBe('accepted');
    const job = (purchase as { job: { jobId: string } }).job;
    const { pollUrl } = acceptedBody(job as never, urlsFor(runtime.info.baseUrl)) as { pollUrl: string };
    const jobs = new JobStore();

    // Unused on chain: the poll (through the gateway, the poll function's own instance and policy) leaves it reserved.
    expect(await (await fetch(pollUrl)).json()).toMatchObject({ jobId: job.jobId, status: 'queued', imageUrl: null });
    expect(await jobs.get(job.jobId)).toMatchObject({ status: 'reserved', reconcileClaimedAt: expect.any(String) });

    await rpc('evm_mine');
    expect(await runtime.chain.balanceOf(buyer.address)).toBe(850_000n);
    // Polls only (this runtime sweeps at start-up only, and nobody sweeps here): once the first poll's claim has
    // lapsed, the next poll asks the chain, records the receipt and starts the job.
    const deadline = Date.now() + (POLL_RECONCILE_SECONDS + 10) * 1000;
    let moved = await jobs.get(job.jobId);
    while (moved?.status === 'reserved' && Date.now() < deadline) {
      await fetch(pollUrl);
      moved = await jobs.get(job.jobId);
      if (moved?.status === 'reserved') await new Promise((r) => setTimeout(r, 250));
    }
    expect(moved).toMatchObject({ transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) }) // our transfer's transaction, from the chain's events;
    expect(['queued', 'processing', 'completed']).toContain(moved!.status);
    expect(await new DynamoPaymentLedger().state(payment.nonceKey)).toBe('settled');

    const done = await pollUntil(pollUrl, 30_000, (b) => b.status === 'completed' || b.status === 'failed');
    expect(done).toMatchObject({ status: 'completed', imageUrl: expect.stringMatching(/\/image\.png$/) });
  });

  it('lets one poll at a time reconcile a job: concurrent claims on different instances, exactly one wins', async () => {
    const { JobStore } = await import('../../lambdas/store/jobs.js');
    const { POLL_RECONCILE_SECONDS } = await import('../../lambdas/workflow/poll-reconcile.js');
    const { purchase, rpc } = await purchaseWithPendingTransfer(runtime);
    const jobId = (purchase as { job: { jobId: string } }).job.jobId;
    try {
      const jobs = new JobStore();
      const claims = await Promise.all(Array.from({ length: 6 }, () => new JobStore().claimReconcile(jobId, POLL_RECONCILE_SECONDS)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      // Within the interval nobody else gets it; after it, the next claimer does (a clock one interval ahead).
      expect(await jobs.claimReconcile(jobId, POLL_RECONCILE_SECONDS)).toBe(false);
      const later = new JobStore(undefined, () => new Date(Date.now() + POLL_RECONCILE_SECONDS * 1000 + 1000));
      expect(await later.claimReconcile(jobId, POLL_RECONCILE_SECONDS)).toBe(true);
      // Only a reserved job is claimed; an unknown id creates no row.
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect(await jobs.claimReconcile(unknown, POLL_RECONCILE_SECONDS)).toBe(false);
      expect(await jobs.get(unknown)).toBeUndefined();
    } finally {
      await rpc('evm_mine'); // lands the transfer left pending by the purchase
    }
  });
});
