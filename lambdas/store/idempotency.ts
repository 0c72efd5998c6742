/**
 * X-Idempotency-Key records. A paid request takes the key with a conditional write (in progress); the finished
 * response is stored on it; a failed request releases it so the buyer can retry with the same key.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentClient, isConditionalFailure } from './dynamo.js';
import { storeConfig } from '../shared/config.js';
import type { StoredResponse } from '../shared/errors.js';

/** How long a response is replayed for the same key and body (the spec leaves it open; see docs/spec-choices.md). */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;
/** A lock older than this is considered abandoned (the Lambda died) and can be taken over. */
export const LOCK_SECONDS = 60;

export interface IdempotencyRecord {
  pk: string;
  bodyHash: string;
  status: 'in_progress' | 'completed';
  response?: StoredResponse;
  lockExpiresAt: number;
  expiresAt: number;
}

export type BeginResult = { taken: true } | { taken: false; existing: IdempotencyRecord };

export class IdempotencyStore {
  constructor(
    private readonly table = storeConfig().idempotencyTable ?? '',
    private readonly now: () => number = () => Date.now(),
  ) {}

  async get(pk: string): Promise<IdempotencyRecord | undefined> {
    const out = await documentClient().send(new GetCommand({ TableName: this.table, Key: { pk }, ConsistentRead: true }));
    const item = out.Item as IdempotencyRecord | undefined;
    if (item && item.expiresAt * 1000 < this.now()) return undefined;
    return item;
  }

  async begin(pk: string, bodyHash: string): Promise<BeginResult> {
    const nowS = Math.floor(this.now() / 1000);
    try {
      await documentClient().send(
        new PutCommand({
          TableName: this.table,
          Item: {
            pk,
            bodyHash,
            status: 'in_progress',
            lockExpiresAt: nowS + LOCK_SECONDS,
            expiresAt: nowS + IDEMPOTENCY_WINDOW_SECONDS,
          } satisfies IdempotencyRecord,
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now OR (#status = :busy AND lockExpiresAt < :now)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':now': nowS, ':busy': 'in_progress' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { taken: true };
    } catch (error) {
      if (isConditionalFailure(error)) {
        // The document client does not unmarshall the item returned with a failed condition.
        const raw = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
        if (raw) return { taken: false, existing: unmarshall(raw) as IdempotencyRecord };
        const again = await this.get(pk);
        if (again) return { taken: false, existing: again };
        return this.begin(pk, bodyHash);
      }
      throw error;
    }
  }

  async complete(pk: string, response: StoredResponse): Promise<void> {
    await documentClient().send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk },
        UpdateExpression: 'SET #status = :done, #response = :response',
        ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
        ExpressionAttributeValues: { ':done': 'completed', ':response': response },
      }),
    );
  }

  async release(pk: string): Promise<void> {
    try {
      await documentClient().send(
        new DeleteCommand({
          TableName: this.table,
          Key: { pk },
          ConditionExpression: '#status = :busy',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':busy': 'in_progress' },
        }),
      );
    } catch (error) {
      if (!isConditionalFailure(error)) throw error;
    }
  }
}
