/**
 * Paid on a preconfirmed receipt (docs/decisions/0021), on the embedded runtime with its chain mining every
 * 2 s as Base seals blocks and a Flashblocks-aware endpoint in front of it (lib/local/preconf-rpc.ts):
 * - a generation job's 202 goes out on its transfer's preconfirmation, says so in PAYMENT-RESPONSE and carries no signed
 *   receipt yet; the job completes once the transfer is in a sealed block, and the flag is gone;
 * - a preconfirmed transfer that never lands (dropped from the pool before its block) delivers nothing: the rendered
 *   job is not completed while its authorization could still pay, and once it can no longer, the job ends failed as if
 *   the payment never landed, with no refund owed (Mark completed and the refund task as their functions run them);
 * - an agent run, which delivers at once, is never answered on a preconfirmation: its 200 follows the sealed block.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentResponseHeader } from '@x402/core/http';
import type { Hex } from 'viem';
import { cancelRuntime, fundedBuyer, jobOf } from '../support/cancel.js';
import { asFunction } from '../../lib/local/iam/enforce.js';
import type { EmbeddedRuntime } from '../../lib/local/runtime.js';
import { PAYMENT_NEVER_LANDED } from '../../lambdas/jobs/preconfirmed.js';

const BLOCK_MS = 2_000;
let runtime: EmbeddedRuntime;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ runtime, stop } = await cancelRuntime('preconf', { blockIntervalMs: BLOCK_MS, preconfirmations: true }));
}, 120_000);
afterAll(() => stop?.());

const rpc = (method: string, params: unknown[]) => runtime.chain.provider.request({ method, params });
const sealedReceipt = (hash: string) => rpc('eth_getTransactionReceipt', [hash]) as Promise<{ status: string; blockNumber: string } | null>;

async function buyImage() {
  const { address, pay } = await fundedBuyer(runtime, 1_000_000n);
  const started = Date.now();
  const response = await pay(`${runtime.info.baseUrl}/agent/image`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ prompt: 'a harbour at dawn' }) });
  const ms = Date.now() - started;
  expect(response.status).toBe(202);
  const settlement = decodePaymentResponseHeader(response.headers.get('payment-response')!) as Record<string, unknown> & { transaction: Hex };
  return { address, ms, settlement, body: (await response.json()) as { jobId: string; pollUrl: string } };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('A generation job paid on a preconfirmed receipt', () => {
  it('answers 202 on the preconfirmation (preconfirmed, no signed receipt yet) and completes once the transfer is sealed', async () => {
    const { settlement, body } = await buyImage();
    expect(settlement).toMatchObject({ success: true, preconfirmed: true });
    expect((settlement.extensions as Record<string, unknown> | undefined)?.['offer-receipt']).toBeUndefined();
    const job = await until(() => jobOf(body.jobId), (j) => j?.status === 'completed', 20_000);
    expect(job?.status).toBe('completed');
    expect(job?.preconfirmed).toBeUndefined();
    const sealed = await sealedReceipt(job!.transaction!);
    expect(sealed?.status).toBe('0x1');
  }, 40_000);

});

describe('An agent run is never answered on a preconfirmation', () => {
  it('its 200 names a transfer already sealed, and carries its signed receipt', async () => {
    const { pay } = await fundedBuyer(runtime, 1_000_000n);
    const response = await pay(`${String(runtime.info.agentsUrl)}/api/agents/bank-rec-discrepancy-finder-bw0tt/run`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ input: { bankStatement: 'Date,Description,Amount\n2026-11-02,Deposit,10.00\n', bookEntries: 'Date,Memo,Amount\n2026-11-02,Deposit,10.00\n' } }),
    });
    expect(response.status).toBe(200);
    const settlement = decodePaymentResponseHeader(response.headers.get('payment-response')!) as Record<string, unknown> & { transaction: string };
    expect(settlement.preconfirmed).toBeUndefined();
    expect((settlement.extensions as Record<string, unknown>)['offer-receipt']).toBeDefined();
    expect((await sealedReceipt(settlement.transaction))?.status).toBe('0x1');
  }, 40_000);
});

// Last: a dropped transfer leaves its settlement key's nonce unused, which a next settlement with that key waits
// out (ADR 0005: the chain's count fills the gap after 30 s).
describe('A preconfirmed payment that never lands', () => {
  it('a preconfirmed transfer that never lands delivers nothing, and ends failed with no refund once the authorization can no longer pay', async () => {
    const { settlement, body } = await buyImage();
    expect(settlement.preconfirmed).toBe(true);
    // Dropped from the pool before its block: the preconfirmation that never lands.
    await rpc('hardhat_dropTransaction', [settlement.transaction]);
    // Its render takes well under a second here; past two blocks it is still not delivered.
    await new Promise((resolve) => setTimeout(resolve, 2 * BLOCK_MS + 1_000));
    expect(await sealedReceipt(settlement.transaction)).toBeNull();
    const held = await jobOf(body.jobId);
    expect(held).toMatchObject({ status: expect.stringMatching(/^(queued|processing)$/), preconfirmed: true });
    expect(held?.assets).toBeUndefined();
    const poll = await (await fetch(body.pollUrl)).json();
    expect(poll).toMatchObject({ imageUrl: null });

    // Once its authorization has expired unused (as Mark completed's next retry would find it then), the job ends
    // failed as if the payment never landed, and the refund task finds nothing owed.
    const later = () => (held!.validBefore! + 1) * 1000;
    const { markCompleted, PaymentNeverLandedError } = await import('../../lambdas/workflow/tasks.js');
    const { taskDeps } = await import('../../lambdas/workflow/deps.js');
    const { JobCompletionStore } = await import('../../lambdas/store/job-completions.js');
    const { paidOnChain } = await import('../../lambdas/payments/core/paid-on-chain.js');
    const completions = new JobCompletionStore();
    const preconfirmed = { jobs: completions, paidOnChain: (p: Parameters<typeof paidOnChain>[0]) => paidOnChain(p), now: later };
    const input = { jobId: body.jobId, product: 'agent_image' as const, stored: { assets: { image: 'assets/x.png' }, metadata: {} as never } };
    await expect(asFunction('MarkCompleted', () => markCompleted({ ...taskDeps(), jobs: completions, preconfirmed }, input))).rejects.toBeInstanceOf(PaymentNeverLandedError);
    const ended = await jobOf(body.jobId);
    expect(ended).toMatchObject({ status: 'failed', error: PAYMENT_NEVER_LANDED });
    expect(ended?.refund).toBeUndefined();
    const { refundFailedJob } = await import('../../lambdas/jobs/refund.js');
    const { JobRefundStore } = await import('../../lambdas/store/job-refunds.js');
    const refundJobs = new JobRefundStore();
    const refunder = { refund: async () => { throw new Error('nothing may be refunded'); } };
    expect(await asFunction('RefundPayment', () => refundFailedJob({ jobs: refundJobs, refunder: refunder as never, preconfirmed }, body.jobId))).toBe('not-owed');
  }, 60_000);
});
