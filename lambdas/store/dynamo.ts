/** One DynamoDB document client per process (module scope), pointed at DynamoDB Local when configured. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { storeConfig } from '../shared/config.js';

let client: DynamoDBDocumentClient | undefined;

export function documentClient(): DynamoDBDocumentClient {
  if (client) return client;
  const { dynamodbEndpoint } = storeConfig();
  const base = new DynamoDBClient(
    dynamodbEndpoint
      ? {
          endpoint: dynamodbEndpoint,
          region: process.env.AWS_REGION ?? 'us-east-1',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          maxAttempts: 3,
        }
      : { maxAttempts: 3 },
  );
  client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  return client;
}

/**
 * Counts the DynamoDB round trips made inside `fn` (and only there: other work in the same process, such as the
 * local state machines, is not counted). For the benchmark; nothing is installed unless it is called.
 */
const tally = new AsyncLocalStorage<{ count: number }>();
let counting = false;
export async function countRoundTrips<T>(fn: () => Promise<T>): Promise<{ result: T; roundTrips: number }> {
  if (!counting) {
    counting = true;
    documentClient().middlewareStack.add(
      (next) => async (args) => {
        const store = tally.getStore();
        if (store) store.count++;
        return next(args);
      },
      { step: 'initialize', name: 'roundTripCounter' },
    );
  }
  const store = { count: 0 };
  const result = await tally.run(store, fn);
  return { result, roundTrips: store.count };
}

export function isConditionalFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}
