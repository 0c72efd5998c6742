/**
 * Least-privilege grants written once: the DynamoDB actions each store module (lambdas/store/*.ts) sends, on the
 * table and only the indexes it queries, and the S3 object actions the asset store (lambdas/store/s3-assets.ts)
 * sends. No `Scan`, `BatchWriteItem`, `BatchGetItem` or `DescribeTable` (no code sends them), no S3 delete.
 * The embedded default enforces the synthesised policies (lib/local/iam), so a grant missing here fails locally too.
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';

/** A TransactWriteItems item needs its kind's action (Put → PutItem, ConditionCheck → ConditionCheckItem...). */
export type ItemAction = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'ConditionCheckItem';

/** What each store module sends to its table (a role takes a subset where it uses only part of the store). */
export const STORE_ACTIONS = {
  /** lambdas/store/jobs.ts: reserve (Put in the purchase transaction), get, conditional updates. */
  jobs: ['GetItem', 'PutItem', 'UpdateItem'],
  /** lambdas/store/ledger.ts: lock (Put), state (Get), markCharging/markSettled (Update), markFailed (Delete or Update). */
  payments: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
  /** lambdas/store/idempotency.ts (Get/Put/Update/Delete) and lambdas/store/ap2-checkouts.ts (Put of a nonce). */
  idempotency: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
  /** lambdas/store/rate-limit.ts: count (Update ADD), read the previous window (Get). */
  rateLimit: ['GetItem', 'UpdateItem'],
  /** lambdas/store/settler-leases.ts: acquire and release are conditional updates. */
  settlerLeases: ['UpdateItem'],
  /**
   * lambdas/store/runs.ts: reserve/creditDone/recordUnpaid (Put; a paid run's kept input too), get, conditional
   * updates, and the Delete of the kept input in the transaction that ends a run.
   */
  runs: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
} as const satisfies Record<string, readonly ItemAction[]>;

/** Item actions on the table itself, and Query on exactly the named indexes (never `table/index/*`). */
export function grantItems(fn: lambda.IFunction, table: dynamodb.ITable, actions: readonly ItemAction[], indexes: readonly string[] = []): void {
  if (actions.length) fn.addToRolePolicy(new iam.PolicyStatement({ actions: actions.map((a) => `dynamodb:${a}`), resources: [table.tableArn] }));
  if (indexes.length) {
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: indexes.map((index) => `${table.tableArn}/index/${index}`) }));
  }
}

/**
 * The asset store's object actions on the bucket's objects: GetObject (also what HeadObject needs) and/or PutObject.
 * A reader also gets ListBucket on the bucket itself: without it S3 answers a missing key 403, not 404, and the
 * store's `get`/`exists` read a 404 as "not there yet".
 */
export function grantObjects(fn: lambda.IFunction, bucket: s3.IBucket, access: { read?: boolean; write?: boolean }): void {
  const actions = [...(access.read ? ['s3:GetObject'] : []), ...(access.write ? ['s3:PutObject'] : [])];
  if (actions.length) fn.addToRolePolicy(new iam.PolicyStatement({ actions, resources: [bucket.arnForObjects('*')] }));
  if (access.read) fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
}
