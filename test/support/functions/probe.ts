/** A function for the instance tests: reports which instance ran it and how many invocations that instance saw. */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

const instanceId = randomUUID();
let invocations = 0;

const hoard: unknown[] = [];

export async function handler(event: { sleepMs?: number; fail?: string; dynamo?: boolean; allocateMb?: number }, context: { getRemainingTimeInMillis(): number }) {
  invocations++;
  // Keeps allocating small objects (heap, not buffers) until `allocateMb` is held.
  if (event.allocateMb) for (let i = 0; i < event.allocateMb * 64; i++) hoard.push(Array.from({ length: 2048 }, (_, j) => ({ j })));
  if (event.sleepMs) await new Promise((resolve) => setTimeout(resolve, event.sleepMs));
  if (event.fail) {
    const error = new Error('probe failed');
    error.name = event.fail;
    throw error;
  }
  if (event.dynamo) {
    const client = new DynamoDBClient({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' }, maxAttempts: 1 });
    try {
      await client.send(new GetItemCommand({ TableName: 'jobs', Key: { jobId: { S: 'j' } } }));
      return { instanceId, invocations, dynamo: 'allowed' };
    } catch (error) {
      return { instanceId, invocations, dynamo: (error as Error).name };
    }
  }
  return { instanceId, invocations, remainingMs: context.getRemainingTimeInMillis() };
}
