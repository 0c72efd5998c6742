/**
 * How DynamoDB Local itself answers writes that arrive together (bench/settlement.ts prints it beside each run): a
 * block wakes every answer whose transfer it holds at once, and each records its receipt in a two-item transaction.
 * The emulator runs transactions one at a time, so N of them at once take about N times one; on DynamoDB,
 * transactions on different items do not wait for each other. The probe writes to tables of its own.
 */
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient, PutItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { percentile } from './settlement-report.js';

const TABLES = ['bench-probe-locks', 'bench-probe-jobs'] as const;

export interface ProbeResult {
  alone: number;
  together: number;
  count: number;
}

export async function probeTransactions(endpoint: string, count: number, rounds = 5): Promise<ProbeResult> {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  for (const TableName of TABLES) {
    await client.send(new CreateTableCommand({ TableName, KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], BillingMode: 'PAY_PER_REQUEST' }));
  }
  const alone: number[] = [];
  const together: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const ids = Array.from({ length: count + 1 }, (_, i) => `r${round}-${i}`);
      for (const id of ids) {
        await client.send(new PutItemCommand({ TableName: TABLES[0], Item: { pk: { S: id }, state: { S: 'locked' } } }));
        await client.send(new PutItemCommand({ TableName: TABLES[1], Item: { pk: { S: id }, state: { S: 'reserved' } } }));
      }
      const settle = async (id: string) => {
        const start = performance.now();
        await client.send(
          new TransactWriteItemsCommand({
            TransactItems: [
              { Update: { TableName: TABLES[0], Key: { pk: { S: id } }, UpdateExpression: 'SET #s = :v', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeNames: { '#s': 'state' }, ExpressionAttributeValues: { ':v': { S: 'settled' } } } },
              { Update: { TableName: TABLES[1], Key: { pk: { S: id } }, UpdateExpression: 'SET #s = :v', ConditionExpression: '#s = :r', ExpressionAttributeNames: { '#s': 'state' }, ExpressionAttributeValues: { ':v': { S: 'queued' }, ':r': { S: 'reserved' } } } },
            ],
          }),
        );
        return performance.now() - start;
      };
      alone.push(await settle(ids[0]));
      together.push(...(await Promise.all(ids.slice(1).map(settle))));
    }
  } finally {
    for (const TableName of TABLES) await client.send(new DeleteTableCommand({ TableName })).catch(() => undefined);
    client.destroy();
  }
  return { alone: percentile(alone, 50), together: percentile(together, 50), count };
}
