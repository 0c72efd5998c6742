/**
 * A failed paid job's refund record on its row (JobStore plus the refund writes): the refund task and the sweeper
 * use it. Apart from JobStore so the functions that never refund (the polls, the paid routes) do not carry it.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sendConditional } from './dynamo.js';
import { listOpen, type OpenIndex } from './open-index.js';
import { JobStore, OPEN_REFUNDS_INDEX, OPEN_REFUNDS_KEY, type JobRecord, type JobRefund } from './jobs.js';

/** A failed job whose refund, if it has one, was not sent yet: the condition of every write to its refund record. */
const NOT_YET_REFUNDED = '#status = :failed AND (attribute_not_exists(#refund) OR #refund.#refundStatus <> :refunded)';
const NOT_YET_REFUNDED_VALUES = { ':failed': 'failed', ':refunded': 'refunded' };
const REFUND_NAMES = { '#refund': 'refund', '#refundAt': 'refundAt', '#refundOpen': 'refundOpen', '#status': 'status', '#refundStatus': 'status' };

export class JobRefundStore extends JobStore {
  /**
   * Records a refund's progress on a failed job. A refund already `refunded` is never changed (returns false), so two
   * attempts cannot overwrite each other's receipt; the open-refund index key follows the status.
   */
  async setRefund(jobId: string, refund: JobRefund): Promise<boolean> {
    const open = refund.status !== 'refunded';
    return sendConditional(
      new UpdateCommand({
        TableName: this.table,
        Key: { jobId },
        UpdateExpression: `SET #refund = :refund, #refundAt = :at${open ? ', #refundOpen = :open' : ''}${open ? '' : ' REMOVE #refundOpen'}`,
        ConditionExpression: NOT_YET_REFUNDED,
        ExpressionAttributeNames: REFUND_NAMES,
        ExpressionAttributeValues: {
          ':refund': refund,
          ':at': this.now().toISOString(),
          ...NOT_YET_REFUNDED_VALUES,
          ...(open ? { ':open': refund.status } : {}),
        },
      }),
    );
  }

  /**
   * No refund is owed after all: the job's preconfirmed payment never landed (docs/decisions/0021). Its refund record
   * and open-refund key go; a refund already `refunded` is never touched (returns false).
   */
  async dropRefund(jobId: string): Promise<boolean> {
    return sendConditional(
      new UpdateCommand({
        TableName: this.table,
        Key: { jobId },
        UpdateExpression: 'REMOVE #refund, #refundOpen, #refundAt',
        ConditionExpression: NOT_YET_REFUNDED,
        ExpressionAttributeNames: REFUND_NAMES,
        ExpressionAttributeValues: NOT_YET_REFUNDED_VALUES,
      }),
    );
  }

  /** Failed paid jobs whose refund is still owed (pending or failed) and last changed before `olderThan`. */
  listOpenRefunds(olderThan: Date): Promise<JobRecord[]> {
    const index: OpenIndex = { table: this.table, keyName: 'jobId', indexName: OPEN_REFUNDS_INDEX, keys: OPEN_REFUNDS_KEY };
    return listOpen<JobRecord>(index, ['pending', 'failed'], olderThan);
  }
}
