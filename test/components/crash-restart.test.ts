/**
 * A crash loses neither the chain nor the ledger. `npm start` is killed with SIGKILL (what a Lambda
 * crash does to a purchase: it stops at any step, nothing runs after) in the middle of a burst of paid requests from
 * an unmodified x402 client, and started again on the same state dir. Once the sweeps have finished what was in
 * flight, the chain and the jobs table must agree:
 * - every payment that landed on chain belongs to one job, completed or failed with its refund landed;
 * - no authorization and no job was charged twice, and no refund was paid twice;
 * - no job ran (or is running) without a landed payment, and each job's recorded transaction is its payment;
 * - the chain came back: a transaction recorded before the kill has its receipt, in the same block, after it.
 * Half the burst asks for pictures the render provider refuses (the Bedrock fake's content filter), so refunds are in
 * flight too when the process dies.
 * The first start runs as `npm start` runs (a child process); the restart runs in this process (the same
 * startEmbedded), so the test can read the jobs table while the sweeps work.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePaymentResponseHeader } from '@x402/fetch';
import { createPublicClient, http, parseAbi, type Hex } from 'viem';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded.js';
import { payingFetch } from '../support/buyer.js';
import { startEmbedded, type EmbeddedRuntime } from '../../lib/local/runtime.js';
import { chosenProviders } from '../../lib/local/providers/index.js';
import type { JobRecord } from '../../lambdas/store/jobs.js';

const BURST = 24;
/** Killed at the latest once this many requests were answered 202 (the rest somewhere between probe and receipt). */
const ANSWERED_AT_MOST = BURST / 2;
const PRICE = 150_000n; // POST /agent/image
/** Pictures by the bedrock-stability adapter, whose fake refuses a prompt with this marker (the job fails, refunded). */
const PROVIDERS = { RENDER_PROVIDER_AGENT_IMAGE: 'bedrock-stability' };
const REFUSED = '[fake:content-filter]';

const events = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
]);

let first: EmbeddedProcess | undefined;
let second: EmbeddedRuntime | undefined;

afterAll(async () => {
  await first?.stop('SIGKILL');
  await second?.stop();
  if (first) rmSync(first.stateDir, { recursive: true, force: true });
});

describe('A crash loses nothing: SIGKILL during a burst of paid requests, then a restart on the same state dir', () => {
  it('ends every landed payment completed or refunded, charges nothing twice, runs nothing unpaid, and keeps the chain', async () => {
    const started = Date.now();
    const phases: string[] = [];
    const phase = (name: string) => phases.push(`${name} ${((Date.now() - started) / 1000).toFixed(1)} s`);
    first = await startEmbeddedProcess({ env: PROVIDERS });
    phase('started');
    const { info, stateDir } = first;
    const buyers = info.buyers;
    const preKill = createPublicClient({ transport: http(info.rpcUrl, { retryCount: 0 }) });

    // The burst: each request from its own loopback address (the probe rate limit is per client), buyers in turn.
    let answered = 0;
    const settledBeforeKill: Hex[] = [];
    const burst = Array.from({ length: BURST }, async (_, i) => {
      const pay = payingFetch(buyers[i % buyers.length].privateKey, `127.0.3.${i + 1}`);
      const response = await pay(`${info.baseUrl}/agent/image`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ prompt: `${i % 2 ? REFUSED : ''} crash test ${i}` }),
      });
      if (response.status === 202) {
        settledBeforeKill.push(decodePaymentResponseHeader(response.headers.get('payment-response')!).transaction as Hex);
        answered++;
      }
      return response.status;
    });
    let over = false;
    const outcomes = Promise.allSettled(burst).finally(() => (over = true));
    // The kill: as soon as a payment has landed that its buyer has not heard of (the window between the transfer and
    // the job's record, where a crash hurts most), once one answered payment can show the chain came back.
    let landed = 0;
    while (!over && answered < ANSWERED_AT_MOST && !(answered >= 1 && landed > answered)) {
      landed = (await preKill.getContractEvents({ address: info.usdcAddress, abi: events, eventName: 'Transfer', args: { to: info.payTo }, fromBlock: 0n })).length;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(settledBeforeKill.length, 'a paid request answered before the kill').toBeGreaterThan(0);
    const recorded = [...settledBeforeKill];
    const seen = await Promise.all(recorded.map((hash) => preKill.getTransactionReceipt({ hash })));
    expect(await first.stop('SIGKILL')).toBe(null);
    phase(`killed (${answered} answered, ${landed} landed)`);
    // The kill cut the burst: some requests were never answered.
    expect((await outcomes).filter((o) => o.status === 'rejected').length).toBeGreaterThan(0);

    // DynamoDB Local ends with the process that started it (parent-death signal): no JVM keeps the state dir's database.
    await until(async () => emulatorsOn(join(stateDir, 'dynamodb')), (pids) => pids.length === 0, 'the killed run’s DynamoDB Local to end', 30_000);

    phase('emulator ended');
    second = await startEmbedded({
      generationPort: 0,
      chainPort: 0,
      stateDir,
      log: () => {},
      renderWaitMs: 100,
      sweepIntervalMs: 1000,
      renderProviders: chosenProviders(PROVIDERS),
    });
    phase('restarted');
    const chain = createPublicClient({ transport: http(second.chain.rpcUrl, { retryCount: 0 }) });

    // The chain came back: the receipts of the payments answered before the kill, in the same blocks.
    const back = await Promise.all(recorded.map((hash) => chain.getTransactionReceipt({ hash })));
    expect(back.map((r) => [r.blockNumber, r.blockHash, r.status])).toEqual(seen.map((r) => [r.blockNumber, r.blockHash, 'success']));

    const payTo = info.payTo.toLowerCase();
    const payers = new Set(buyers.map((b) => b.address.toLowerCase()));
    const ledger = async () => onChain(chain, info.usdcAddress, payTo);
    // Settled: no job open but `reserved` ones whose payment never landed, and no paid failure without its refund.
    const finished = async () => {
      const [jobs, money] = await Promise.all([scanJobs(), ledger()]);
      const open = jobs.filter((job) => {
        if (job.status === 'reserved') return money.payments.has(authorizationOf(job));
        if (job.status === 'failed') return money.payments.has(authorizationOf(job)) && job.refund?.status !== 'refunded';
        return job.status !== 'completed';
      });
      return { jobs, money, open };
    };
    const { jobs, money } = await until(finished, (state) => state.open.length === 0, 'every landed payment’s job to finish', 150_000);
    phase('settled');

    const byAuthorization = new Map<string, JobRecord[]>();
    for (const job of jobs) byAuthorization.set(authorizationOf(job), [...(byAuthorization.get(authorizationOf(job)) ?? []), job]);
    // Every landed payment (from a buyer to pay-to) is one job's: completed, or failed with its refund landed.
    expect(money.payments.size).toBeGreaterThanOrEqual(settledBeforeKill.length);
    for (const [authorization, payment] of money.payments) {
      expect(payers.has(payment.from), `payment ${payment.transaction} from a buyer`).toBe(true);
      expect(payment.value, `payment ${payment.transaction} is the price`).toBe(PRICE);
      const owners = byAuthorization.get(authorization) ?? [];
      expect(owners.map((job) => job.status), `jobs of the payment ${payment.transaction}`).toHaveLength(1);
      const [job] = owners;
      expect(['completed', 'failed']).toContain(job.status);
      expect(job.transaction, `job ${job.jobId} records its payment`).toBe(payment.transaction);
      if (job.status === 'failed') {
        const refund = money.refunds.get(job.refund!.transaction!.toLowerCase());
        expect(refund, `job ${job.jobId}'s refund landed`).toMatchObject({ to: payment.from, value: PRICE });
      }
    }
    // Nothing twice: one landed transfer per authorization, one refund per refunded job, no refund without a job.
    expect(money.paymentTransfers).toBe(money.payments.size);
    const refunded = jobs.filter((job) => job.refund?.status === 'refunded').map((job) => job.refund!.transaction!.toLowerCase());
    expect(new Set(refunded).size).toBe(refunded.length);
    expect([...money.refunds.keys()].sort()).toEqual([...refunded].sort());
    // Nothing unpaid: a job that ran (completed, or holding an asset) has a landed payment; none is left mid-way.
    for (const job of jobs) {
      if (job.status === 'completed' || job.assets) expect(money.payments.has(authorizationOf(job)), `job ${job.jobId} was paid`).toBe(true);
      expect(['completed', 'failed', 'reserved'], `job ${job.jobId}`).toContain(job.status);
    }
    // What the buyers paid is what the jobs kept plus what was refunded.
    const spent = [...money.payments.values()].reduce((sum, p) => sum + p.value, 0n);
    const refundedTotal = [...money.refunds.values()].reduce((sum, r) => sum + r.value, 0n);
    const kept = jobs.filter((job) => job.status === 'completed').length;
    expect(spent - refundedTotal).toBe(BigInt(kept) * PRICE);

    const unheard = [...money.payments.values()].filter((p) => !settledBeforeKill.some((t) => t.toLowerCase() === p.transaction)).length;
    console.log(
      `[crash-restart] ${settledBeforeKill.length} of ${BURST} answered 202 before the kill; after the restart: ${money.payments.size} landed ` +
        `payments (${unheard} never answered), ${kept} completed, ${refunded.length} refunded, ` +
        `${jobs.filter((job) => job.status === 'reserved').length} reserved unpaid, ${jobs.filter((job) => job.status === 'failed' && !job.refund).length} voided; ` +
        phases.join(', '),
    );
  }, 300_000);
});

interface Payment {
  transaction: string;
  from: string;
  value: bigint;
}

/**
 * The token's logs: payments are a buyer's AuthorizationUsed followed in its transaction by its Transfer to pay-to
 * (keyed `payer:nonce`, as a job's nonceKey ends); refunds are Transfers out of pay-to (refunds are paid from it).
 */
async function onChain(chain: ReturnType<typeof createPublicClient>, token: Hex, payTo: string) {
  const logs = await chain.getContractEvents({ address: token, abi: events, fromBlock: 0n });
  const byTransaction = new Map<string, typeof logs>();
  for (const log of logs) byTransaction.set(log.transactionHash, [...(byTransaction.get(log.transactionHash) ?? []), log]);
  const payments = new Map<string, Payment>();
  const refunds = new Map<string, { to: string; value: bigint }>();
  let paymentTransfers = 0;
  for (const [transaction, inTransaction] of byTransaction) {
    for (const [index, log] of inTransaction.entries()) {
      if (log.eventName !== 'Transfer') continue;
      const from = log.args.from!.toLowerCase();
      const to = log.args.to!.toLowerCase();
      if (from === payTo) refunds.set(transaction.toLowerCase(), { to, value: log.args.value! });
      if (to !== payTo) continue;
      paymentTransfers++;
      const used = inTransaction.slice(0, index).find((l) => l.eventName === 'AuthorizationUsed' && l.args.authorizer!.toLowerCase() === from);
      if (used?.eventName !== 'AuthorizationUsed') throw new Error(`transfer to pay-to in ${transaction} without its AuthorizationUsed`);
      payments.set(`${from}:${used.args.nonce!.toLowerCase()}`, { transaction: transaction.toLowerCase(), from, value: log.args.value! });
    }
  }
  return { payments, refunds, paymentTransfers };
}

/** `payer:nonce` of a job's authorization (nonceKey = `${network}:${asset}:${payer}:${nonce}`). */
function authorizationOf(job: JobRecord): string {
  const parts = (job.nonceKey ?? '').toLowerCase().split(':');
  return parts.slice(-2).join(':');
}

async function scanJobs(): Promise<JobRecord[]> {
  const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
  const { documentClient } = await import('../../lambdas/store/dynamo.js');
  const { storeConfig } = await import('../../lambdas/shared/config.js');
  const items: JobRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new ScanCommand({ TableName: storeConfig().jobsTable, ExclusiveStartKey: start, ConsistentRead: true }));
    items.push(...((page.Items ?? []) as JobRecord[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items.map((job) => ({ ...job, transaction: job.transaction?.toLowerCase() }));
}

/** The pids of DynamoDB Local JVMs serving `dbPath`. */
function emulatorsOn(dbPath: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // ended meanwhile
    }
    if (args.some((a) => a.endsWith('DynamoDBLocal.jar')) && args[args.indexOf('-dbPath') + 1] === dbPath) pids.push(Number(entry));
  }
  return pids;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v instanceof Map ? [...v] : v)).slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
