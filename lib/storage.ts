/** The DynamoDB tables: jobs and payments (the record of what was bought and paid: retained), idempotency, rate windows. */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';

export interface Tables {
  jobs: dynamodb.Table;
  payments: dynamodb.Table;
  idempotency: dynamodb.Table;
  rateLimit: dynamodb.Table;
}

export function createTables(scope: Construct): Tables {
  const table = (id: string, partitionKey: string, durable: boolean) =>
    new dynamodb.Table(scope, id, {
      partitionKey: { name: partitionKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: 'expiresAt',
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: durable ? { pointInTimeRecoveryEnabled: true } : undefined,
      // Jobs and payments are the record of what was bought and paid: never deleted with the stack, and not
      // deletable by hand either until deletion protection is turned off.
      removalPolicy: durable ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      deletionProtection: durable,
    });
  return {
    jobs: table('JobsTable', 'jobId', true),
    payments: table('PaymentsTable', 'pk', true),
    idempotency: table('IdempotencyTable', 'pk', false),
    rateLimit: table('RateLimitTable', 'pk', false),
  };
}
