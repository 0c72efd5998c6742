/**
 * The payment ledger (lambdas/store/ledger.ts) and the JobStore's ledger items (lambdas/store/jobs.ts) against real
 * DynamoDB Local: each move is one transaction with the purchased item. Spec: "one payment pays for one job" (an
 * authorization locks once, also under a race), "Never charged" (nothing moved → the buyer may retry the same
 * authorization), a job always ends completed or failed, and a storage outage is a retryable 503 (DependencyError).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDynamoLocal, type LocalDynamo } from '../../lib/local/dynamodb.js';
import { freePort } from '../../lib/local/ports.js';
import type { JobRecord } from '../../lambdas/store/jobs.js';

const PAYMENTS_TABLE = 'ledger-test-payments';
const JOBS_TABLE = 'ledger-test-jobs';

type Store = {
  ledger: import('../../lambdas/store/ledger.js').DynamoPaymentLedger;
  jobs: import('../../lambdas/store/jobs.js').JobStore;
  ledgerModule: typeof import('../../lambdas/store/ledger.js');
};

let dynamo: LocalDynamo;
let dataDir: string;
let raw: DynamoDBDocumentClient;
let store: Store;
const savedEnv = { ...process.env };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ledger-'));
  dynamo = await startDynamoLocal({ dir: dataDir });
  for (const [table, key] of [
    [PAYMENTS_TABLE, 'pk'],
    [JOBS_TABLE, 'jobId'],
  ]) {
    await dynamo.client.send(
      new CreateTableCommand({
        TableName: table,
        KeySchema: [{ AttributeName: key, KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: key, AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
  }
  raw = DynamoDBDocumentClient.from(dynamo.client);
  // The stores memoise their configuration and client at first use: set it before they load.
  Object.assign(process.env, {
    JOBS_TABLE,
    PAYMENTS_TABLE,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AWS_REGION: 'us-east-1',
  });
  store = await loadStore();
});

afterAll(async () => {
  await dynamo?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  process.env = savedEnv;
});

async function loadStore(): Promise<Store> {
  const ledgerModule = await import('../../lambdas/store/ledger.js');
  const { JobStore } = await import('../../lambdas/store/jobs.js');
  return { ledger: new ledgerModule.DynamoPaymentLedger(), jobs: new JobStore(), ledgerModule };
}

let sequence = 0;
/** Fresh ids per test: the tables are shared by the whole file. */
function ids(label: string) {
  const n = `${label}-${++sequence}-${Date.now()}`;
  return { nonceKey: `eip155:8453#0xusdc#0xpayer#${n}`, jobId: `job-${n}`, other: `job-${n}-b` };
}

function job(jobId: string, over: Partial<JobRecord> = {}): JobRecord {
  return {
    jobId,
    product: 'agent_image',
    status: 'reserved',
    request: { prompt: 'a lighthouse at dusk', aspectRatio: '1:1', outputFormat: 'png' },
    provider: 'local',
    payer: '0x2222222222222222222222222222222222222222',
    paymentKind: 'x402',
    createdAt: '2026-11-22T00:00:00.000Z',
    updatedAt: '2026-11-22T00:00:00.000Z',
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
    ...over,
  };
}

const lockOf = (nonceKey: string, jobId: string) => ({
  nonceKey,
  amount: 150_000n,
  payer: '0x2222222222222222222222222222222222222222',
  purchase: `job#${jobId}`,
});

async function paymentRow(nonceKey: string) {
  return (await raw.send(new GetCommand({ TableName: PAYMENTS_TABLE, Key: { pk: nonceKey }, ConsistentRead: true }))).Item;
}
async function jobRow(jobId: string) {
  return (await raw.send(new GetCommand({ TableName: JOBS_TABLE, Key: { jobId }, ConsistentRead: true }))).Item;
}

/** A lock with its reserved job, as the purchase use case writes it before any money moves. */
async function locked(label: string) {
  const id = ids(label);
  await store.ledger.lock(lockOf(id.nonceKey, id.jobId), store.jobs.reserveItem(job(id.jobId)));
  return id;
}

describe('lock writes the lock row and the reserved job in one transaction', () => {
  it('writes the row locked, with purchase, payer, amount and a TTL, and the job reserved', async () => {
    const id = await locked('lock');
    const row = await paymentRow(id.nonceKey);
    expect(row).toEqual({
      pk: id.nonceKey,
      state: 'locked',
      purchase: `job#${id.jobId}`,
      payer: '0x2222222222222222222222222222222222222222',
      amount: '150000',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      expiresAt: expect.any(Number),
    });
    expect(row!.expiresAt).toBeGreaterThan(Date.now() / 1000 + 300 * 24 * 3600);
    expect(await jobRow(id.jobId)).toMatchObject({ jobId: id.jobId, status: 'reserved', product: 'agent_image' });
  });
});

describe('One payment pays for one job: a second lock of the same authorization is refused', () => {
  it('refuses it with PaymentAlreadyUsedError and writes no second job', async () => {
    const id = await locked('twice');
    await expect(store.ledger.lock(lockOf(id.nonceKey, id.other), store.jobs.reserveItem(job(id.other)))).rejects.toBeInstanceOf(
      store.ledgerModule.PaymentAlreadyUsedError,
    );
    expect(await jobRow(id.other)).toBeUndefined();
    expect(await paymentRow(id.nonceKey)).toMatchObject({ state: 'locked', purchase: `job#${id.jobId}` });
  });

  it('10 concurrent locks of one authorization with different jobs: exactly one succeeds, exactly one job exists', async () => {
    const id = ids('race');
    const jobIds = Array.from({ length: 10 }, (_, i) => `${id.jobId}-${i}`);
    const outcomes = await Promise.allSettled(jobIds.map((jobId) => store.ledger.lock(lockOf(id.nonceKey, jobId), store.jobs.reserveItem(job(jobId)))));
    const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [jobIds[i]] : []));
    expect(won).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') {
        // A loser is refused, or told to retry (a transaction conflict is a 503): never a second job.
        expect(outcome.reason.name).toMatch(/^(PaymentAlreadyUsedError|DependencyError)$/);
      }
    }
    const rows = await Promise.all(jobIds.map(jobRow));
    expect(rows.filter(Boolean).map((r) => r!.jobId)).toEqual(won);
    expect(await paymentRow(id.nonceKey)).toMatchObject({ state: 'locked', purchase: `job#${won[0]}` });
  });
});

describe("A lock whose item's condition fails leaves nothing behind", () => {
  it('answers PurchaseConflictError (not a reuse) and writes no lock row when the job id already exists', async () => {
    const id = ids('conflict');
    await raw.send(new PutCommand({ TableName: JOBS_TABLE, Item: job(id.jobId, { status: 'queued' }) }));
    const attempt = store.ledger.lock(lockOf(id.nonceKey, id.jobId), store.jobs.reserveItem(job(id.jobId)));
    await expect(attempt).rejects.toBeInstanceOf(store.ledgerModule.PurchaseConflictError);
    await expect(attempt).rejects.not.toBeInstanceOf(store.ledgerModule.PaymentAlreadyUsedError);
    expect(await paymentRow(id.nonceKey)).toBeUndefined();
    expect(await jobRow(id.jobId)).toMatchObject({ status: 'queued' });
    // The authorization is still free for a purchase that can be written.
    await store.ledger.lock(lockOf(id.nonceKey, id.other), store.jobs.reserveItem(job(id.other)));
    expect(await store.ledger.state(id.nonceKey)).toBe('locked');
  });
});

describe('markCharging: a token charge about to be sent moves locked → charging', () => {
  it('moves a locked row to charging with chargedAt', async () => {
    const id = await locked('charging');
    await store.ledger.markCharging(id.nonceKey);
    expect(await paymentRow(id.nonceKey)).toMatchObject({ state: 'charging', chargedAt: expect.any(String) });
  });

  it('fails on an unknown key and creates no row', async () => {
    const id = ids('charging-unknown');
    await expect(store.ledger.markCharging(id.nonceKey)).rejects.toBeInstanceOf(store.ledgerModule.PurchaseConflictError);
    expect(await paymentRow(id.nonceKey)).toBeUndefined();
  });

  it('fails on a row that is no longer locked (charged twice)', async () => {
    const id = await locked('charging-twice');
    await store.ledger.markCharging(id.nonceKey);
    await expect(store.ledger.markCharging(id.nonceKey)).rejects.toBeInstanceOf(store.ledgerModule.PurchaseConflictError);
    expect(await store.ledger.state(id.nonceKey)).toBe('charging');
  });
});

describe('markSettled records the receipt and queues the job in one transaction', () => {
  it('sets the row settled with the transaction and moves the job reserved → queued with it', async () => {
    const id = await locked('settle');
    await store.ledger.markSettled(id.nonceKey, '0xfeed', store.jobs.queueItem(id.jobId, '0xfeed'));
    expect(await paymentRow(id.nonceKey)).toMatchObject({ state: 'settled', transaction: '0xfeed', settledAt: expect.any(String) });
    expect(await jobRow(id.jobId)).toMatchObject({ status: 'queued', transaction: '0xfeed' });
  });

  it('keeps the receipt: a settled row has no TTL (a lock does)', async () => {
    const id = await locked('settle-kept');
    expect((await paymentRow(id.nonceKey))?.expiresAt).toEqual(expect.any(Number));
    await store.ledger.markSettled(id.nonceKey, '0xbeef', store.jobs.queueItem(id.jobId, '0xbeef'));
    expect(await paymentRow(id.nonceKey)).not.toHaveProperty('expiresAt');
  });

  it('with a job no longer reserved: fails, and the lock row is left exactly as it was', async () => {
    const id = await locked('settle-moved');
    expect(await store.jobs.fail(id.jobId, 'voided by the sweeper', ['reserved'])).toBe(true);
    const before = await paymentRow(id.nonceKey);
    await expect(store.ledger.markSettled(id.nonceKey, '0xfeed', store.jobs.queueItem(id.jobId, '0xfeed'))).rejects.toBeInstanceOf(
      store.ledgerModule.PurchaseConflictError,
    );
    expect(await paymentRow(id.nonceKey)).toEqual(before);
    expect(await jobRow(id.jobId)).toMatchObject({ status: 'failed' });
    expect((await jobRow(id.jobId))!.transaction).toBeUndefined();
  });

  it('on an unknown authorization: fails and leaves the job reserved', async () => {
    const id = await locked('settle-unknown');
    const stranger = ids('stranger').nonceKey;
    await expect(store.ledger.markSettled(stranger, '0xfeed', store.jobs.queueItem(id.jobId, '0xfeed'))).rejects.toBeInstanceOf(
      store.ledgerModule.PurchaseConflictError,
    );
    expect(await paymentRow(stranger)).toBeUndefined();
    expect(await jobRow(id.jobId)).toMatchObject({ status: 'reserved' });
  });
});

describe('markFailed, nothing moved: the lock is deleted and the job voided, so the buyer may retry the authorization', () => {
  it('deletes the row, fails the job with "Payment not settled: …", and the same authorization locks again', async () => {
    const id = await locked('nothing-moved');
    await store.ledger.markFailed(id.nonceKey, 'transfer reverted', 'nothing-moved', store.jobs.voidItem(id.jobId, 'transfer reverted'));
    expect(await paymentRow(id.nonceKey)).toBeUndefined();
    expect(await jobRow(id.jobId)).toMatchObject({ status: 'failed', error: 'Payment not settled: transfer reverted' });
    expect(await store.ledger.state(id.nonceKey)).toBeUndefined();

    await store.ledger.lock(lockOf(id.nonceKey, id.other), store.jobs.reserveItem(job(id.other)));
    expect(await paymentRow(id.nonceKey)).toMatchObject({ state: 'locked', purchase: `job#${id.other}` });
  });

  it('keeps the lock when the void of the job fails its condition (atomic)', async () => {
    const id = await locked('nothing-moved-atomic');
    await store.ledger.markSettled(id.nonceKey, '0xfeed', store.jobs.queueItem(id.jobId, '0xfeed'));
    await expect(
      store.ledger.markFailed(id.nonceKey, 'late', 'nothing-moved', store.jobs.voidItem(id.jobId, 'late')),
    ).rejects.toBeInstanceOf(store.ledgerModule.PurchaseConflictError);
    expect(await store.ledger.state(id.nonceKey)).toBe('settled');
    expect(await jobRow(id.jobId)).toMatchObject({ status: 'queued' });
  });
});

describe('markFailed, money may have moved: the row stays uncertain and the authorization can never pay twice', () => {
  it('keeps the row as uncertain with the reason, and refuses a new lock', async () => {
    const id = await locked('may-have-moved');
    await store.ledger.markFailed(id.nonceKey, 'no receipt by the deadline', 'may-have-moved');
    expect(await paymentRow(id.nonceKey)).toMatchObject({ state: 'uncertain', reason: 'no receipt by the deadline', purchase: `job#${id.jobId}` });
    expect(await jobRow(id.jobId)).toMatchObject({ status: 'reserved' });
    await expect(store.ledger.lock(lockOf(id.nonceKey, id.other), store.jobs.reserveItem(job(id.other)))).rejects.toBeInstanceOf(
      store.ledgerModule.PaymentAlreadyUsedError,
    );
    expect(await jobRow(id.other)).toBeUndefined();
  });
});

describe('markFailed never releases or downgrades a settled payment', () => {
  it('refuses both outcomes on a settled row and leaves it settled (the authorization cannot pay twice)', async () => {
    const id = await locked('settled-stays');
    await store.ledger.markSettled(id.nonceKey, '0xfeed', store.jobs.queueItem(id.jobId, '0xfeed'));
    await expect(store.ledger.markFailed(id.nonceKey, 'late refusal', 'nothing-moved')).rejects.toBeInstanceOf(store.ledgerModule.PurchaseConflictError);
    await expect(store.ledger.markFailed(id.nonceKey, 'late refusal', 'may-have-moved')).rejects.toBeInstanceOf(store.ledgerModule.PurchaseConflictError);
    expect(await paymentRow(id.nonceKey)).toMatchObject({ state: 'settled', transaction: '0xfeed' });
  });

  it('does not create a row when an unknown authorization is marked uncertain', async () => {
    const id = ids('unknown-uncertain');
    await expect(store.ledger.markFailed(id.nonceKey, 'x', 'may-have-moved')).rejects.toBeInstanceOf(store.ledgerModule.PurchaseConflictError);
    expect(await paymentRow(id.nonceKey)).toBeUndefined();
  });
});

describe('state() reads each state of a row', () => {
  it('reads undefined, locked, charging, settled and uncertain', async () => {
    expect(await store.ledger.state(ids('none').nonceKey)).toBeUndefined();
    const a = await locked('state-a');
    expect(await store.ledger.state(a.nonceKey)).toBe('locked');
    await store.ledger.markCharging(a.nonceKey);
    expect(await store.ledger.state(a.nonceKey)).toBe('charging');
    await store.ledger.markSettled(a.nonceKey, 'tok-charge-1', store.jobs.queueItem(a.jobId, 'tok-charge-1'));
    expect(await store.ledger.state(a.nonceKey)).toBe('settled');
    const b = await locked('state-b');
    await store.ledger.markFailed(b.nonceKey, 'timeout', 'may-have-moved');
    expect(await store.ledger.state(b.nonceKey)).toBe('uncertain');
  });
});

describe('Errors, 5XX: a DynamoDB outage surfaces as DependencyError (retryable, nothing charged)', () => {
  it('raises DependencyError from lock, markSettled, markFailed and state when DynamoDB does not answer', async () => {
    // A second copy of the store modules (fresh memoised config and client) pointed at a port nothing listens on.
    vi.resetModules();
    process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${await freePort()}`;
    try {
      const down = await loadStore();
      const { DependencyError } = await import('../../lambdas/shared/errors.js');
      const id = ids('outage');
      const calls: [string, () => Promise<unknown>][] = [
        ['lock', () => down.ledger.lock(lockOf(id.nonceKey, id.jobId), down.jobs.reserveItem(job(id.jobId)))],
        ['markSettled', () => down.ledger.markSettled(id.nonceKey, '0xfeed', down.jobs.queueItem(id.jobId, '0xfeed'))],
        ['markFailed', () => down.ledger.markFailed(id.nonceKey, 'x', 'nothing-moved')],
        ['markCharging', () => down.ledger.markCharging(id.nonceKey)],
        ['state', () => down.ledger.state(id.nonceKey)],
      ];
      for (const [name, call] of calls) {
        const error = await call().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, name).toBeInstanceOf(DependencyError);
        expect(error).not.toBeInstanceOf(down.ledgerModule.PaymentAlreadyUsedError);
        expect(error).not.toBeInstanceOf(down.ledgerModule.PurchaseConflictError);
      }
    } finally {
      process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    }
  });
});
