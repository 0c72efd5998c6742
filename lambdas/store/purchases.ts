/**
 * A wallet's purchases, newest first, a page at a time (`GET /api/purchases`, docs/decisions/0020): a Query of a table's
 * `ByBuyer` index (jobs: BUYER_JOBS_INDEX, runs: BUYER_RUNS_INDEX). The page's continuation is DynamoDB's own
 * LastEvaluatedKey (lambdas/shared/paging.ts hands it out as a cursor and takes it back only for the same wallet).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './dynamo.js';
import { pageCursor, readPageCursor } from '../shared/paging.js';

export interface BuyerIndex {
  table: string;
  indexName: string;
  /** The table's own key (`jobId`, `runId`). */
  keyName: string;
  keys: { partition: string; sort: string };
}

export interface PurchasePage<T> {
  items: T[];
  /** The cursor of the next page; null on the last. */
  nextCursor: string | null;
}

export async function purchasesOf<T>(index: BuyerIndex, buyer: string, limit: number, cursor?: string): Promise<PurchasePage<T>> {
  const names = [index.keyName, index.keys.partition, index.keys.sort];
  const start = cursor === undefined ? undefined : readPageCursor(cursor, names, { name: index.keys.partition, value: buyer }, "this wallet's purchases");
  const out = await documentClient().send(
    new QueryCommand({
      TableName: index.table,
      IndexName: index.indexName,
      KeyConditionExpression: '#buyer = :buyer',
      ExpressionAttributeNames: { '#buyer': index.keys.partition },
      ExpressionAttributeValues: { ':buyer': buyer },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  return { items: (out.Items ?? []) as T[], nextCursor: pageCursor(out.LastEvaluatedKey) };
}
