/**
 * A job's webhook state on its row (docs/decisions/0018): the delivery's attempts and the OpenWebhooks index key. Apart from
 * JobStore so the functions that never deliver or sweep webhooks (the polls) do not carry it.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sendConditional } from './dynamo.js';
import { listOpen, type OpenIndex } from './open-index.js';
import { OPEN_WEBHOOKS_INDEX, OPEN_WEBHOOKS_KEY, type JobRecord, type WebhookState, type WebhookTarget } from './jobs.js';
import { storeConfig } from '../shared/config.js';

export class JobWebhookStore {
  constructor(private readonly table = storeConfig().jobsTable) {}

  /**
   * Records one delivery attempt of the job's webhook: the new state and target, and the index key (`delivering` while more
   * attempts are planned, removed once delivered or given up). Conditional on the attempts recorded so far, so an
   * attempt that lost a race (a retried task, a second delivery the sweeper started) records nothing (false).
   */
  async record(jobId: string, state: WebhookState, target: WebhookTarget, previousAttempts: number, open: boolean): Promise<boolean> {
    return sendConditional(
      new UpdateCommand({
        TableName: this.table,
        Key: { jobId },
        UpdateExpression: `SET #webhook = :state, #target = :target${open ? ', #open = :delivering' : ' REMOVE #open'}`,
        ConditionExpression: '#webhook.#attempts = :previous',
        ExpressionAttributeNames: { '#webhook': 'webhook', '#target': 'webhookTarget', '#attempts': 'attempts', '#open': OPEN_WEBHOOKS_KEY.partition },
        ExpressionAttributeValues: { ':state': state, ':target': target, ':previous': previousAttempts, ...(open ? { ':delivering': 'delivering' } : {}) },
      }),
    );
  }

  /** Jobs with a webhook no delivery has taken yet, last moved before `olderThan` (open ones too: the caller skips them). */
  listWaiting(olderThan: Date): Promise<JobRecord[]> {
    const index: OpenIndex = { table: this.table, keyName: 'jobId', indexName: OPEN_WEBHOOKS_INDEX, keys: OPEN_WEBHOOKS_KEY };
    return listOpen<JobRecord>(index, ['waiting'], olderThan);
  }
}
