/**
 * The writes that end a job paid on a preconfirmed receipt (docs/decisions/0021), apart from JobStore so the functions
 * that never complete a job (the polls, the paid routes) do not carry them: Mark completed completes a job only if its
 * payment is no longer only preconfirmed, and whoever finds the transfer sealed (Mark completed, the refund task, the
 * sweeper) records it.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentClient, isConditionalFailure, sendConditional } from './dynamo.js';
import { JobStore, type JobRecord } from './jobs.js';
import type { RenderMetadata } from '../render/provider.js';

/** A job could not be completed because its payment is preconfirmed, not yet sealed: `job` is the row as it is. */
export class PaymentPreconfirmedError extends Error {
  override name = 'PaymentPreconfirmedError';
  constructor(readonly job: JobRecord) {
    super(`job ${job.jobId}: its payment is preconfirmed, not yet in a sealed block`);
  }
}

export class JobCompletionStore extends JobStore {
  /**
   * Completes a queued or processing job whose payment is not merely preconfirmed: true when this call moved it, false
   * when it was already final; a job whose payment is still preconfirmed throws PaymentPreconfirmedError with its row
   * (read with the failed condition, not again).
   */
  override async complete(jobId: string, assets: JobRecord['assets'], metadata: RenderMetadata): Promise<boolean> {
    const update = this.update(jobId, 'completed', ['queued', 'processing'], { assets, metadata });
    update.ConditionExpression += ' AND attribute_not_exists(#preconfirmed)';
    Object.assign(update.ExpressionAttributeNames, { '#preconfirmed': 'preconfirmed' });
    try {
      await documentClient().send(new UpdateCommand({ ...update, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
      return true;
    } catch (error) {
      if (!isConditionalFailure(error)) throw error;
      // The document client does not unmarshall the item returned with a failed condition.
      const raw = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
      const job = raw ? (unmarshall(raw) as JobRecord) : undefined;
      if (job?.preconfirmed && (job.status === 'queued' || job.status === 'processing')) throw new PaymentPreconfirmedError(job);
      return false;
    }
  }

  /**
   * The preconfirmed payment of a job landed in a sealed block, in `transaction`: the flag goes, on condition it is
   * there (a second resolver's write changes nothing). Returns whether this call recorded it.
   */
  confirmPayment(jobId: string, transaction: string): Promise<boolean> {
    return sendConditional(
      new UpdateCommand({
        TableName: this.table,
        Key: { jobId },
        UpdateExpression: 'SET #transaction = :transaction REMOVE #preconfirmed',
        ConditionExpression: 'attribute_exists(#preconfirmed)',
        ExpressionAttributeNames: { '#transaction': 'transaction', '#preconfirmed': 'preconfirmed' },
        ExpressionAttributeValues: { ':transaction': transaction },
      }),
    );
  }
}
