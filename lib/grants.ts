/**
 * Least-privilege grants written once: the DynamoDB actions each store module (lambdas/store/*.ts) sends, on the
 * table and only the indexes it queries, and the S3 object actions the asset store (lambdas/store/s3-assets.ts)
 * sends. No `Scan`, `BatchWriteItem`, `BatchGetItem` or `DescribeTable` (no code sends them), no S3 delete. Secrets
 * are read through SecretGrants, which adds the decrypt grant a customer managed key needs.
 * The embedded default enforces the synthesised policies (lib/local/iam), so a grant missing here fails locally too.
 */
import { Aws, CfnRule, Fn, Token, type Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { kmsKeyRegion, StackConfigError } from './config.js';

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

/**
 * Reading the operator's Secrets Manager secrets (keys, the RPC URL, vendors' API keys), imported by name. A secret
 * encrypted with a customer managed KMS key (context `secretsKmsKeyArn`) is readable only by a role that may also
 * kms:Decrypt with that key, which Secrets Manager calls on the reader's behalf: every reader gets that grant beside
 * its GetSecretValue, on that key alone and only through Secrets Manager in the stack's region (kms:ViaService), so the
 * role cannot decrypt anything else with it. Unset, secrets use Secrets Manager's default key (aws/secretsmanager),
 * which needs no grant.
 */
export class SecretGrants {
  private readonly decrypting = new Set<lambda.IFunction>();

  constructor(
    private readonly stack: Stack,
    private readonly kmsKeyArn?: string,
  ) {
    if (kmsKeyArn) requireKeyRegion(stack, kmsKeyArn);
  }

  /** CDK's grantRead (GetSecretValue and DescribeSecret on the secret alone), when there is a secret. */
  read(fn: lambda.IFunction, secret: secretsmanager.ISecret | undefined): void {
    if (!secret) return;
    secret.grantRead(fn);
    this.decrypt(fn);
  }

  /** GetSecretValue alone (what lambdas/shared/secrets.ts sends), on the secret's ARN with Secrets Manager's six-character suffix. */
  value(fn: lambda.IFunction, secret: secretsmanager.ISecret): void {
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [`${secret.secretArn}-??????`] }));
    this.decrypt(fn);
  }

  private decrypt(fn: lambda.IFunction): void {
    if (!this.kmsKeyArn || this.decrypting.has(fn)) return;
    this.decrypting.add(fn);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['kms:Decrypt'],
        resources: [this.kmsKeyArn],
        conditions: { StringEquals: { 'kms:ViaService': `secretsmanager.${this.stack.region}.amazonaws.com` } },
      }),
    );
  }
}

/**
 * Secrets Manager encrypts a secret only with a key of the secret's region, the stack's: checked at synthesis when
 * the region is known, else by a template rule at deployment.
 */
function requireKeyRegion(stack: Stack, keyArn: string): void {
  const region = kmsKeyRegion(keyArn);
  if (Token.isUnresolved(stack.region)) {
    new CfnRule(stack, 'SecretsKmsKeyRegion', {
      assertions: [{ assert: Fn.conditionEquals(Aws.REGION, region), assertDescription: `context key "secretsKmsKeyArn" is a key in ${region}: deploy the stack there (Secrets Manager encrypts a secret only with a key of its own region)` }],
    });
  } else if (stack.region !== region) {
    throw new StackConfigError(
      `Invalid stack configuration: context key "secretsKmsKeyArn" must be a key in the stack's region ${stack.region} (Secrets Manager encrypts a secret only with a key of its own region; got ${region})`,
    );
  }
}
