/**
 * The DynamoDB tables: jobs, payments, runs, workspaces and the credit ledger (the record of what was bought and paid,
 * and of credit held: retained, PITR, deletion protection), idempotency, rate windows, settler leases.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import {
  BUYER_JOBS_INDEX,
  BUYER_JOBS_KEY,
  BUYER_JOBS_PROJECTION,
  OPEN_JOBS_INDEX,
  OPEN_JOBS_KEY,
  OPEN_REFUNDS_INDEX,
  OPEN_REFUNDS_KEY,
  OPEN_WEBHOOKS_INDEX,
  OPEN_WEBHOOKS_KEY,
} from '../lambdas/store/jobs.js';
import { BUYER_RUNS_INDEX, BUYER_RUNS_KEY, BUYER_RUNS_PROJECTION, OPEN_RUNS_INDEX, OPEN_RUNS_KEY } from '../lambdas/store/runs.js';
import { LEDGER_BY_TIME_INDEX, LEDGER_BY_TIME_SORT, LEDGER_KEY, OPEN_TOPUPS_INDEX, OPEN_TOPUPS_KEY } from '../lambdas/store/credits.js';

export interface Tables {
  jobs: dynamodb.Table;
  payments: dynamodb.Table;
  idempotency: dynamodb.Table;
  rateLimit: dynamodb.Table;
  /** Who holds which settlement key right now, and its last nonce (lambdas/store/settler-leases.ts). */
  settlerLeases: dynamodb.Table;
  /** Agent runs (lambdas/store/runs.ts): the record of every run, paid runs kept. */
  runs: dynamodb.Table;
  /** Workspaces by key hash, with their credit balance (lambdas/store/credits.ts). */
  workspaces: dynamodb.Table;
  /** Every credit and debit of every workspace (lambdas/store/credits.ts). */
  creditLedger: dynamodb.Table;
}

export function createTables(scope: Construct): Tables {
  const table = (id: string, partitionKey: string, durable: boolean, sortKey?: string) =>
    new dynamodb.Table(scope, id, {
      partitionKey: { name: partitionKey, type: dynamodb.AttributeType.STRING },
      ...(sortKey ? { sortKey: { name: sortKey, type: dynamodb.AttributeType.STRING } } : {}),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: 'expiresAt',
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: durable ? { pointInTimeRecoveryEnabled: true } : undefined,
      // Jobs and payments are the record of what was bought and paid: never deleted with the stack, and not
      // deletable by hand either until deletion protection is turned off.
      removalPolicy: durable ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      deletionProtection: durable,
    });
  const jobs = table('JobsTable', 'jobId', true);
  // Sparse: only open jobs carry the key, so the sweeper reads them without scanning every job ever sold.
  sparseIndex(jobs, OPEN_JOBS_INDEX, OPEN_JOBS_KEY);
  // Sparse, likewise: only failed paid jobs whose refund is still owed carry the key (the sweeper retries them).
  sparseIndex(jobs, OPEN_REFUNDS_INDEX, OPEN_REFUNDS_KEY);
  // Sparse, likewise: only jobs whose webhook no delivery has taken yet (the sweeper starts those that ended).
  sparseIndex(jobs, OPEN_WEBHOOKS_INDEX, OPEN_WEBHOOKS_KEY);
  // A wallet's purchases, newest first (GET /api/purchases): only x402-paid jobs carry the key.
  buyerIndex(jobs, BUYER_JOBS_INDEX, BUYER_JOBS_KEY, BUYER_JOBS_PROJECTION);
  const runs = table('RunsTable', 'runId', true);
  // Sparse, likewise: only open paid runs (running, settlement-unknown) carry the key.
  sparseIndex(runs, OPEN_RUNS_INDEX, OPEN_RUNS_KEY);
  buyerIndex(runs, BUYER_RUNS_INDEX, BUYER_RUNS_KEY, BUYER_RUNS_PROJECTION);
  // Workspace credit is money held for a buyer: kept like payments (PITR, deletion protection, Retain).
  const workspaces = table('WorkspacesTable', 'keyHash', true);
  const creditLedger = table('CreditLedgerTable', LEDGER_KEY.partition, true, LEDGER_KEY.sort);
  // A workspace's entries newest first (the ledger route).
  creditLedger.addLocalSecondaryIndex({
    indexName: LEDGER_BY_TIME_INDEX,
    sortKey: { name: LEDGER_BY_TIME_SORT, type: dynamodb.AttributeType.STRING },
    projectionType: dynamodb.ProjectionType.ALL,
  });
  // Sparse: only top-ups whose payment is undecided (reserved, pending) carry the key (the sweeper's).
  sparseIndex(creditLedger, OPEN_TOPUPS_INDEX, OPEN_TOPUPS_KEY);
  return {
    workspaces,
    creditLedger,
    jobs,
    payments: table('PaymentsTable', 'pk', true),
    idempotency: table('IdempotencyTable', 'pk', false),
    rateLimit: table('RateLimitTable', 'pk', false),
    settlerLeases: table('SettlerLeasesTable', 'pk', false),
    runs,
  };
}

/**
 * A sparse index of open items: only items that carry its partition key (their open status, removed when they end)
 * are in it, sorted by when they were last touched, whole items projected (the sweeper reads them from it).
 */
function sparseIndex(table: dynamodb.Table, indexName: string, key: { partition: string; sort: string }): void {
  table.addGlobalSecondaryIndex({
    indexName,
    partitionKey: { name: key.partition, type: dynamodb.AttributeType.STRING },
    sortKey: { name: key.sort, type: dynamodb.AttributeType.STRING },
    projectionType: dynamodb.ProjectionType.ALL,
  });
}

/** A wallet's purchases (`GET /api/purchases`, docs/decisions/0020): by payer, then `createdAt`, with the summary's attributes only (not the request). */
function buyerIndex(table: dynamodb.Table, indexName: string, key: { partition: string; sort: string }, attributes: readonly string[]): void {
  table.addGlobalSecondaryIndex({
    indexName,
    partitionKey: { name: key.partition, type: dynamodb.AttributeType.STRING },
    sortKey: { name: key.sort, type: dynamodb.AttributeType.STRING },
    projectionType: dynamodb.ProjectionType.INCLUDE,
    nonKeyAttributes: [...attributes],
  });
}
