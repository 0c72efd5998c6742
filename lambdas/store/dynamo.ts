/** One DynamoDB document client per process (module scope), pointed at DynamoDB Local when configured. */
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

/** Counts round trips, for the benchmark (npm run bench); a no-op cost otherwise. */
export const roundTrips = { count: 0 };
let counted = false;
export function countRoundTrips(): void {
  if (counted) return;
  counted = true;
  documentClient().middlewareStack.add(
    (next) => async (args) => {
      roundTrips.count++;
      return next(args);
    },
    { step: 'initialize', name: 'roundTripCounter' },
  );
}

export function isConditionalFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}
