/** One DynamoDB document client per process (module scope), pointed at DynamoDB Local when configured. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ConditionalCheckFailedException, DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type DeleteCommand, type PutCommand, type UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { InitializeMiddleware, MetadataBearer } from '@smithy/types';
import { storeConfig } from '../shared/config.js';
import { DependencyError } from '../shared/errors.js';
import { traceClient } from '../shared/tracing.js';

let client: DynamoDBDocumentClient | undefined;

export function documentClient(): DynamoDBDocumentClient {
  if (client) return client;
  const { dynamodbEndpoint } = storeConfig();
  // Traced on Lambda (shared/tracing.ts): X-Ray adds a middleware; the HTTP handler stays the SDK's own.
  const base = traceClient(
    new DynamoDBClient(
      dynamodbEndpoint
        ? {
            endpoint: dynamodbEndpoint,
            region: process.env.AWS_REGION ?? 'us-east-1',
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
            maxAttempts: 3,
          }
        : { maxAttempts: 3 },
    ),
  );
  client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  client.middlewareStack.add(raiseDependencyErrors, { step: 'initialize', name: 'dependencyErrors', priority: 'high' });
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

/**
 * Every DynamoDB failure that is not a verdict (a condition that failed) becomes a DependencyError, after the SDK's
 * own retries: the frame answers it 503 with Retry-After, and nothing is charged because the ledger's lock is the
 * first write of a purchase. Conditional failures stay as the SDK raised them, for the stores to turn into domain
 * errors (PaymentAlreadyUsedError, a lost race).
 */
const raiseDependencyErrors: InitializeMiddleware<object, MetadataBearer> =
  (next, context) => async (args) => {
    try {
      return await next(args);
    } catch (error) {
      if (isConditionalFailure(error) || isConditionalCancellation(error) || error instanceof DependencyError) throw error;
      throw new DependencyError(`DynamoDB ${String(context.commandName ?? 'call')} failed: ${(error as Error).name}`, { cause: error });
    }
  };

export function isConditionalFailure(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException;
}

/** Sends a conditional write: true when it was written, false when its condition failed (anything else throws). */
export async function sendConditional(command: PutCommand | UpdateCommand | DeleteCommand): Promise<boolean> {
  try {
    await documentClient().send(command as PutCommand);
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/** A transaction cancelled because one of its conditions failed (not a conflict or a throttle). */
export function isConditionalCancellation(error: unknown): error is TransactionCanceledException {
  return (
    error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed')
  );
}

/** Index of the first cancelled item of a transaction whose condition failed, or -1. */
export function failedConditionIndex(error: unknown): number {
  if (!isConditionalCancellation(error)) return -1;
  return (error.CancellationReasons ?? []).findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
}
