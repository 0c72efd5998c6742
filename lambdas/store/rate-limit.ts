/** Fixed-window counters, one item per client and window, expiring with the window. */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './dynamo.js';
import { storeConfig } from '../shared/config.js';

export class RateWindowStore {
  constructor(private readonly table = storeConfig().rateLimitTable ?? '') {}

  /** Counts one request in the window and returns the count including it. */
  async hit(client: string, policy: string, windowStart: number, windowSeconds: number): Promise<number> {
    const out = await documentClient().send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: `${policy}#${client}#${windowStart}` },
        UpdateExpression: 'ADD hits :one SET expiresAt = if_not_exists(expiresAt, :exp)',
        ExpressionAttributeValues: { ':one': 1, ':exp': windowStart + windowSeconds * 2 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.hits ?? 1);
  }

  /** The window's count so far, without counting this request. */
  async peek(client: string, policy: string, windowStart: number): Promise<number> {
    const out = await documentClient().send(new GetCommand({ TableName: this.table, Key: { pk: `${policy}#${client}#${windowStart}` } }));
    return Number(out.Item?.hits ?? 0);
  }
}
