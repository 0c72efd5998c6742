/**
 * Paid agent runs that lost their last write, end to end on the embedded runtime's real parts (DynamoDB Local with
 * the tables and indexes of the synthesized template, the local chain, IAM enforced from the template): the run
 * function dies after the lock (before or after the transfer), the run stays `running` with its lock, and the
 * sweeper — running as the sweeper function — lets the chain decide. Spec: "one payment pays for one job" (here, one
 * run), "Never charged" is never claimed for money that may have moved, and a paid run ends with its payment.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedRuntime } from '../../lib/local/runtime.js';
import { asFunction } from '../../lib/local/iam/enforce.js';
import { SWEEPER } from '../../lambdas/surfaces/routes.js';
import { AGENTS, agentExample } from '../../lambdas/agents/registry.js';
import type { VerifiedPayment } from '../../lambdas/payments/types.js';
import type { RunRecord } from '../../lambdas/store/runs.js';
import { verifiedPayment } from '../support/verified-payment.js';

const BANK_REC = AGENTS.find((a) => a.slug.startsWith('bank-rec-discrepancy-finder'))!;
const MINUTE = 60_000;

let runtime: EmbeddedRuntime;
let stateDir: string;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'run-reconcile-'));
  // This file sweeps by hand and asserts each sweep's result: no scheduled sweeps (prompt-reconcile.test.ts has them).
  runtime = await startEmbedded({ generationPort: 0, chainPort: 0, stateDir, log: () => {}, renderWaitMs: 100, sweepIntervalMs: 0 });
});

afterAll(async () => {
  await runtime?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

// Modules that read configuration at construction load after the runtime has set it.
async function modules() {
  const { runAgent } = await import('../../lambdas/agents/run.js');
  const { RunStore } = await import('../../lambdas/store/runs.js');
  const { DynamoPaymentLedger, PaymentAlreadyUsedError } = await import('../../lambdas/store/ledger.js');
  const { paymentBackend } = await import('../../lambdas/payments/backend.js');
  const { sweep } = await import('../../lambdas/workflow/sweeper.js');
  const { sweepDeps } = await import('../../lambdas/workflow/sweep-deps.js');
  return { runAgent, RunStore, DynamoPaymentLedger, PaymentAlreadyUsedError, paymentBackend, sweep, sweepDeps };
}

/** A buyer's verified authorization for one run of BANK_REC, funded on the local chain. */
async function paidAuthorization(): Promise<{ payment: VerifiedPayment; payer: `0x${string}` }> {
  const { buyer, payment } = await verifiedPayment(runtime.chain, BANK_REC.price);
  return { payment, payer: buyer.address };
}

/**
 * A paid run whose function dies inside `settle` (a timeout, a crash): after the transfer landed when `transfer` is
 * true, before anything was sent otherwise. Its row was written 10 minutes ago, so the sweeper finds it idle.
 */
async function runThatDies(payment: VerifiedPayment, transfer: boolean): Promise<string> {
  const { runAgent, RunStore, DynamoPaymentLedger, paymentBackend } = await modules();
  let runId = '';
  const died = runAgent(
    {
      runs: new RunStore(),
      ledger: new DynamoPaymentLedger(),
      settle: async (p) => {
        if (transfer) expect(await paymentBackend().settler.settle(p as VerifiedPayment)).toMatchObject({ ok: true });
        throw new Error('Task timed out after 30.00 seconds');
      },
      now: () => new Date(Date.now() - 10 * MINUTE),
      newId: () => (runId = `reconcile-${Math.random().toString(36).slice(2)}`),
    },
    { agent: BANK_REC, input: agentExample(BANK_REC).input, dryRun: false, payment },
  );
  await expect(died).rejects.toThrow(/timed out/);
  return `run_${runId}`;
}

/** One sweep as the sweeper function (its AWS calls checked against its synthesized policy), at `at`. */
async function sweepAsSweeper(at = new Date()) {
  const { sweep, sweepDeps } = await modules();
  return asFunction(SWEEPER.id, () => sweep({ ...sweepDeps(), now: () => at }, 3600));
}

describe('RunStore: the sparse index of open paid runs', () => {
  it('finds a stale running run through OpenRuns, not a fresh one, and drops a run from it when it ends', async () => {
    const { RunStore } = await modules();
    const store = new RunStore();
    const { DynamoPaymentLedger } = await modules();
    const ledger = new DynamoPaymentLedger();
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    const row = (runId: string, updatedAt: string): RunRecord => ({
      runId,
      agent: BANK_REC.slug,
      agentVersion: '1',
      engine: 'test',
      mode: 'paid',
      status: 'running',
      inputSha256: 'x',
      cost: '60000',
      payer: '0xpayer',
      nonceKey: `test:${runId}`,
      createdAt: updatedAt,
      updatedAt,
    });
    const suffix = Date.now();
    const stale = row(`run_stale-${suffix}`, at(-10 * MINUTE));
    const fresh = row(`run_fresh-${suffix}`, at(0));
    for (const r of [stale, fresh]) await ledger.lock({ nonceKey: r.nonceKey!, amount: 60_000n, payer: '0xpayer', purchase: `run#${r.runId}` }, store.reserveItem(r));

    expect(await store.get(stale.runId)).toMatchObject({ status: 'running', openStatus: 'running' });
    const found = (await store.listStale(new Date(Date.now() - 2 * MINUTE))).map((r) => r.runId);
    expect(found).toContain(stale.runId);
    expect(found).not.toContain(fresh.runId);

    // settlement-unknown stays open (under its own key); done and failed leave the index.
    await ledger.markFailed(stale.nonceKey!, 'no receipt', 'may-have-moved', store.unknownItem(stale.runId, 'no receipt'));
    expect(await store.get(stale.runId)).toMatchObject({ status: 'settlement-unknown', openStatus: 'settlement-unknown' });
    const later = new Date(Date.now() + MINUTE);
    expect((await store.listStale(later, ['settlement-unknown'])).map((r) => r.runId)).toContain(stale.runId);
    expect((await store.listStale(later, ['running'])).map((r) => r.runId)).not.toContain(stale.runId);

    await ledger.markSettled(stale.nonceKey!, 'reconciled', store.reconciledItem(stale.runId, 'reconciled', 'note'));
    await ledger.markFailed(fresh.nonceKey!, 'refused', 'nothing-moved', store.failItem(fresh.runId, 'refused'));
    for (const r of [stale, fresh]) expect(await store.get(r.runId)).not.toHaveProperty('openStatus');
    const open = (await store.listStale(later)).map((r) => r.runId);
    expect(open).not.toContain(stale.runId);
    expect(open).not.toContain(fresh.runId);

    // Each transition is conditional on the run's current status: an ended run does not move again.
    await expect(ledger.markSettled(stale.nonceKey!, 'reconciled', store.reconciledItem(stale.runId, 'reconciled', 'again'))).rejects.toThrow();
    expect(await store.get(stale.runId)).toMatchObject({ status: 'done', note: 'note' });
  });
});

describe('Sweeper: a paid run ends done or failed, and its payment with it', () => {
  it('records a run whose function died after the transfer landed: settled in the ledger, done without its result', async () => {
    const { RunStore, DynamoPaymentLedger, paymentBackend } = await modules();
    const { payment, payer } = await paidAuthorization();
    const runId = await runThatDies(payment, true);
    expect(await runtime.chain.balanceOf(payer)).toBe(1_000_000n - BANK_REC.price);
    expect(await new RunStore().get(runId)).toMatchObject({ status: 'running', openStatus: 'running' });
    expect(await new DynamoPaymentLedger().state(payment.nonceKey)).toBe('locked');

    const swept = await sweepAsSweeper();
    expect(swept).toMatchObject({ runsSettled: [runId], runsUnknown: [] });
    const run = await new RunStore().get(runId);
    expect(run).toMatchObject({ status: 'done', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), note: expect.stringMatching(/^settled; result not recorded/) });
    expect(run).not.toHaveProperty('openStatus');
    expect(run).not.toHaveProperty('result');
    expect(await new DynamoPaymentLedger().state(payment.nonceKey)).toBe('settled');

    // Reconciled once: the next sweep leaves it, and the authorization cannot pay again.
    expect((await sweepAsSweeper(new Date(Date.now() + 10 * MINUTE))).runsSettled).not.toContain(runId);
    expect(await paymentBackend().verifier.verify(payment.payload, payment.requirement)).toMatchObject({ ok: false });
    expect(await runtime.chain.balanceOf(payer)).toBe(1_000_000n - BANK_REC.price);
  });

  it('keeps the lock of a run whose function died before any transfer (settlement-unknown), and records it if the transfer lands later', async () => {
    const { RunStore, DynamoPaymentLedger, PaymentAlreadyUsedError, paymentBackend } = await modules();
    const { payment, payer } = await paidAuthorization();
    const runId = await runThatDies(payment, false);
    const runs = new RunStore();
    const ledger = new DynamoPaymentLedger();

    const swept = await sweepAsSweeper();
    expect(swept.runsUnknown).toEqual([runId]);
    expect(swept.runsSettled).not.toContain(runId);
    expect(await runs.get(runId)).toMatchObject({ status: 'settlement-unknown', openStatus: 'settlement-unknown', error: expect.stringMatching(/unused/) });
    expect(await ledger.state(payment.nonceKey)).toBe('uncertain');
    // Nothing bounds the authorization's validBefore, so it is never released: the same authorization buys nothing more.
    await expect(ledger.lock({ nonceKey: payment.nonceKey, amount: payment.amount, payer, purchase: 'run#again' })).rejects.toBeInstanceOf(PaymentAlreadyUsedError);

    const later = new Date(Date.now() + 10 * MINUTE);
    expect(await sweepAsSweeper(later)).toMatchObject({ runsSettled: [], runsUnknown: [], runsWaiting: [runId] });
    expect(await ledger.state(payment.nonceKey)).toBe('uncertain');

    // The transfer lands after all (a broadcast that was still pending, or the authorization submitted by anyone).
    expect(await paymentBackend().settler.settle(payment)).toMatchObject({ ok: true });
    expect(await sweepAsSweeper(later)).toMatchObject({ runsSettled: [runId], runsWaiting: [] });
    expect(await runs.get(runId)).toMatchObject({ status: 'done', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await runs.get(runId)).not.toHaveProperty('openStatus');
    expect(await ledger.state(payment.nonceKey)).toBe('settled');
    expect(await runtime.chain.balanceOf(payer)).toBe(1_000_000n - BANK_REC.price);
  });
});

describe('Every paid run delivered: GET /api/runs/{runId} (docs/decisions/0017)', () => {
  const agentsUrl = () => runtime.info.agentsUrl as string;
  const fetchRun = async (runId: string) => {
    const response = await fetch(`${agentsUrl()}/api/runs/${encodeURIComponent(runId)}`);
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> };
  };

  it('a run whose settlement outcome was unknown keeps its result withheld (202); once the transfer is seen, the sweeper records it and the run answers 200 with it', async () => {
    const { runAgent, RunStore, DynamoPaymentLedger, paymentBackend } = await modules();
    const { payment, payer } = await paidAuthorization();
    const input = agentExample(BANK_REC).input;
    let runId = '';
    // The transfer lands, but its receipt never reaches the run (a node that timed out): the outcome is unknown.
    const outcome = await runAgent(
      {
        runs: new RunStore(),
        ledger: new DynamoPaymentLedger(),
        settle: async (p) => {
          expect(await paymentBackend().settler.settle(p as VerifiedPayment)).toMatchObject({ ok: true });
          return { type: 'unknown-outcome', reason: 'no receipt before the deadline' };
        },
        now: () => new Date(Date.now() - 10 * MINUTE),
        newId: () => (runId = `delivered-${Math.random().toString(36).slice(2)}`),
      },
      { agent: BANK_REC, input, dryRun: false, payment },
    );
    runId = `run_${runId}`;
    expect(outcome).toEqual({ type: 'settlement-unknown', runId, reason: 'no receipt before the deadline' });
    expect(await runtime.chain.balanceOf(payer)).toBe(1_000_000n - BANK_REC.price);

    // Pending: the buyer's GET (through the embedded gateway, as the GetRun function) is a 202 that shows no result.
    const pending = await fetchRun(runId);
    expect(pending).toMatchObject({ status: 202, retryAfter: '30', body: { runId, status: 'pending' } });
    expect(pending.body).not.toHaveProperty('result');

    // Marked unknown just now: the sweeper takes it once it has been idle as long as a run can live.
    const swept = await sweepAsSweeper(new Date(Date.now() + 10 * MINUTE));
    expect(swept.runsSettled).toContain(runId);
    const recorded = await new RunStore().get(runId);
    expect(recorded).toMatchObject({ status: 'done', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(recorded).not.toHaveProperty('note');
    expect(await new DynamoPaymentLedger().state(payment.nonceKey)).toBe('settled');

    // Done: the answer the paying request would have given, with the analysis of the buyer's own input.
    const done = await fetchRun(runId);
    const { result: expected, evidence } = (BANK_REC.engine.explain as (i: unknown) => { result: unknown; evidence: unknown[] })(input);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      runId,
      status: 'done',
      totalCostUsdc: Number(BANK_REC.price) / 1e6,
      // The evidence kept with the withheld result is the run's too.
      outputs: { agent: BANK_REC.slug, version: BANK_REC.deployment!.version, engine: BANK_REC.engine.id, inputSha256: recorded!.inputSha256, evidence },
      result: JSON.parse(JSON.stringify(expected)),
      settled: true,
      transaction: recorded!.transaction,
    });
    // Charged once.
    expect(await runtime.chain.balanceOf(payer)).toBe(1_000_000n - BANK_REC.price);
  });

  it('a run whose function died after the transfer is finished from its kept input when first fetched: 200 with its result, once; an id no run has is 404', async () => {
    const { RunStore } = await modules();
    const { keptInputKey } = await import('../../lambdas/store/runs.js');
    const { payment } = await paidAuthorization();
    const runId = await runThatDies(payment, true);
    // Kept beside the run, expiring by the table's TTL.
    const { documentClient } = await import('../../lambdas/store/dynamo.js');
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { storeConfig } = await import('../../lambdas/shared/config.js');
    const keptItem = async () => (await documentClient().send(new GetCommand({ TableName: storeConfig().runsTable!, Key: { runId: keptInputKey(runId) } }))).Item;
    expect(await keptItem()).toMatchObject({ input: JSON.stringify(agentExample(BANK_REC).input), expiresAt: expect.any(Number) });
    expect((await fetchRun(runId)).status).toBe(202);
    await sweepAsSweeper();
    // The sweeper recorded it from the chain, without a result (its function never had one to record)...
    expect(await new RunStore().get(runId)).toMatchObject({ status: 'done', note: expect.stringMatching(/result not recorded/) });
    expect(await new RunStore().get(runId)).not.toHaveProperty('result');
    // ...and the buyer's fetch finishes it: the engine on the kept input, recorded once, the input dropped.
    const expected = JSON.parse(JSON.stringify((BANK_REC.engine.analyse as (i: unknown) => unknown)(agentExample(BANK_REC).input)));
    const fetched = await fetchRun(runId);
    expect(fetched).toMatchObject({ status: 200, body: { runId, status: 'done', settled: true, result: expected } });
    expect(fetched.body).not.toHaveProperty('note');
    // The finished run cites its findings like any other (RunStore.finish records the evidence with the result).
    const explained = (BANK_REC.engine.explain as (i: unknown) => { result: unknown; evidence: unknown[] })(agentExample(BANK_REC).input);
    expect((fetched.body as { outputs: { evidence: unknown } }).outputs.evidence).toEqual(JSON.parse(JSON.stringify(explained.evidence)));
    expect(await new RunStore().get(runId)).toMatchObject({ status: 'done', result: JSON.stringify(expected) });
    expect(await keptItem()).toBeUndefined();
    expect((await fetchRun(runId)).body.result).toEqual(expected);

    expect(await fetchRun('run_00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await fetchRun('not-a-run')).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });
});

