/**
 * Rows with a status and a sparse index of the open ones (jobs, agent runs): the conditional status transition that
 * keeps the index key in step (set to the status while open, removed once final), and the sweeper's read of the
 * open rows last touched before a time. One shape for every such table, so the two cannot drift apart.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './dynamo.js';

export interface OpenIndex {
  table: string;
  /** The row's key attribute (`jobId`, `runId`). */
  keyName: string;
  indexName: string;
  /** The index's partition (the status while open) and sort (`updatedAt`) attributes. */
  keys: { partition: string; sort: string };
}

export interface Transition {
  id: string;
  to: string;
  /** The statuses the row may move from (the update's condition). */
  from: readonly string[];
  /** Whether `to` is open (the row stays in the index). */
  open: boolean;
  /** ISO time of the move (`updatedAt`). */
  at: string;
  /** More attributes to set; undefined members are left alone. */
  set: Record<string, unknown>;
  /** Attributes to remove (a sparse index's key, say), beside the open index's key when `to` is final. */
  remove?: readonly string[];
}

/** The UpdateCommand input that moves a row from one of `from` to `to`, or fails its condition. */
export function transition(index: OpenIndex, move: Transition) {
  const names: Record<string, string> = { '#status': 'status', '#updatedAt': index.keys.sort, '#open': index.keys.partition };
  const values: Record<string, unknown> = { ':to': move.to, ':now': move.at };
  const assignments = ['#status = :to', '#updatedAt = :now'];
  for (const [key, value] of Object.entries(move.set)) {
    if (value === undefined) continue;
    names[`#${key}`] = key;
    values[`:${key}`] = value;
    assignments.push(`#${key} = :${key}`);
  }
  const fromKeys = move.from.map((status, i) => ((values[`:from${i}`] = status), `:from${i}`));
  if (move.open) assignments.push('#open = :to');
  const removed = move.open ? [] : ['#open'];
  for (const key of move.remove ?? []) removed.push(((names[`#${key}`] = key), `#${key}`));
  return {
    TableName: index.table,
    Key: { [index.keyName]: move.id },
    UpdateExpression: `SET ${assignments.join(', ')}${removed.length ? ` REMOVE ${removed.join(', ')}` : ''}`,
    ConditionExpression: `attribute_exists(${index.keyName}) AND #status IN (${fromKeys.join(', ')})`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** Open rows in the given statuses last touched before `olderThan`, read from the sparse index, every page. */
export async function listOpen<T>(index: OpenIndex, statuses: readonly string[], olderThan: Date): Promise<T[]> {
  const found: T[] = [];
  for (const status of statuses) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await documentClient().send(
        new QueryCommand({
          TableName: index.table,
          IndexName: index.indexName,
          KeyConditionExpression: '#open = :status AND #updatedAt < :before',
          ExpressionAttributeNames: { '#open': index.keys.partition, '#updatedAt': index.keys.sort },
          ExpressionAttributeValues: { ':status': status, ':before': olderThan.toISOString() },
          ExclusiveStartKey: startKey,
        }),
      );
      found.push(...((out.Items ?? []) as T[]));
      startKey = out.LastEvaluatedKey;
    } while (startKey);
  }
  return found;
}
