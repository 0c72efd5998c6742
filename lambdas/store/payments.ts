/**
 * Payment records keyed by the authorization (network, asset, payer, nonce). The lock is written in the same
 * transaction as the job row, before any money moves, so one authorization can pay for at most one job even
 * when the same payment is replayed concurrently.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './dynamo.js';
import { storeConfig } from '../shared/config.js';
import { JOB_TTL_SECONDS, type JobRecord } from './jobs.js';

export type PaymentState = 'locked' | 'settled' | 'uncertain';

/** The authorization was already used for another job (or is being used right now). */
export class PaymentAlreadyUsedError extends Error {
  override name = 'PaymentAlreadyUsedError';
  constructor() {
    super('Payment authorization already used');
  }
}

/** Payment records outlive jobs: a year, well past any authorization's validity window. */
const PAYMENT_TTL_SECONDS = 365 * 24 * 3600;

export class PaymentStore {
  constructor(
    private readonly paymentsTable = required(storeConfig().paymentsTable, 'PAYMENTS_TABLE'),
    private readonly jobsTable = storeConfig().jobsTable,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Lock the nonce and write the `reserved` job in one transaction. */
  async reserve(nonceKey: string, amount: bigint, payer: string, job: JobRecord): Promise<void> {
    const at = this.now();
    try {
      await documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.paymentsTable,
                Item: {
                  pk: nonceKey,
                  state: 'locked' satisfies PaymentState,
                  jobId: job.jobId,
                  payer,
                  amount: amount.toString(),
                  createdAt: at.toISOString(),
                  expiresAt: Math.floor(at.getTime() / 1000) + PAYMENT_TTL_SECONDS,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Put: { TableName: this.jobsTable, Item: job, ConditionExpression: 'attribute_not_exists(jobId)' } },
          ],
        }),
      );
    } catch (error) {
      const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
      if (reasons?.[0]?.Code === 'ConditionalCheckFailed') throw new PaymentAlreadyUsedError();
      throw error;
    }
  }

  /**
   * Settlement succeeded: the receipt is recorded and the job becomes durable work. `transaction` is the hash, or
   * `reconciled` when the sweeper learnt from the chain that the authorization was used.
   */
  async settled(nonceKey: string, jobId: string, transaction: string): Promise<void> {
    const now = this.now().toISOString();
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.paymentsTable,
              Key: { pk: nonceKey },
              UpdateExpression: 'SET #state = :settled, #tx = :tx, settledAt = :now',
              ExpressionAttributeNames: { '#state': 'state', '#tx': 'transaction' },
              ExpressionAttributeValues: { ':settled': 'settled', ':tx': transaction, ':now': now },
            },
          },
          {
            Update: {
              TableName: this.jobsTable,
              Key: { jobId },
              UpdateExpression: 'SET #status = :queued, #tx = :tx, updatedAt = :now',
              ConditionExpression: '#status = :reserved',
              ExpressionAttributeNames: { '#status': 'status', '#tx': 'transaction' },
              ExpressionAttributeValues: { ':queued': 'queued', ':reserved': 'reserved', ':tx': transaction, ':now': now },
            },
          },
        ],
      }),
    );
  }

  /**
   * Settlement failed. If nothing reached the chain the nonce is released (the buyer may retry with the same
   * authorization); otherwise the lock stays, marked uncertain, so the authorization can never pay twice.
   * Either way the reserved job is voided.
   */
  async settleFailed(nonceKey: string, jobId: string, reason: string, broadcast: boolean): Promise<void> {
    const now = this.now().toISOString();
    const voidJob = {
      Update: {
        TableName: this.jobsTable,
        Key: { jobId },
        UpdateExpression: 'SET #status = :failed, #error = :reason, updatedAt = :now',
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
        ExpressionAttributeValues: { ':failed': 'failed', ':reason': `Payment not settled: ${reason}`, ':now': now },
      },
    };
    const payment = broadcast
      ? {
          Update: {
            TableName: this.paymentsTable,
            Key: { pk: nonceKey },
            UpdateExpression: 'SET #state = :uncertain, reason = :reason',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':uncertain': 'uncertain', ':reason': reason },
          },
        }
      : { Delete: { TableName: this.paymentsTable, Key: { pk: nonceKey } } };
    await documentClient().send(new TransactWriteCommand({ TransactItems: [payment, voidJob] }));
  }
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`Invalid storage configuration: ${name} is required`);
  return value;
}

export { JOB_TTL_SECONDS };
