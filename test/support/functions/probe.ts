/** A function for the instance tests: reports which instance ran it and how many invocations that instance saw. */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

const instanceId = randomUUID();
let invocations = 0;

export async function handler(event: { sleepMs?: number; fail?: string; dynamo?: boolean }, context: { getRemainingTimeInMillis(): number }) {
  invocations++;
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
