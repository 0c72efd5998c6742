import { describe, expect, it } from 'vitest';
import { authorizationOf, signedService, UnmodelledRequestError, type SignedRequest } from '../../../lib/local/iam/requests.js';

const auth = (service: string) => `AWS4-HMAC-SHA256 Credential=local/20261123/us-east-1/${service}/aws4_request, SignedHeaders=host, Signature=00`;
const json = (service: string, target: string, body: unknown): SignedRequest => ({
  method: 'POST',
  path: '/',
  headers: { authorization: auth(service), 'x-amz-target': target },
  body: JSON.stringify(body),
});
const table = (name: string) => `arn:aws:dynamodb:local:000000000000:table/${name}`;

describe('What a signed SDK request asks IAM for', () => {
  it('reads the service from the SigV4 credential scope', () => {
    expect(signedService({ method: 'GET', path: '/', headers: { Authorization: auth('states') } })).toBe('states');
    expect(signedService({ method: 'GET', path: '/', headers: {} })).toBeUndefined();
  });

  it('DynamoDB: the operation on the table, an index under its table', () => {
    expect(authorizationOf(json('dynamodb', 'DynamoDB_20120810.GetItem', { TableName: 'jobs', Key: {} })).requests).toEqual([
      { action: 'dynamodb:GetItem', resource: table('jobs') },
    ]);
    expect(authorizationOf(json('dynamodb', 'DynamoDB_20120810.Query', { TableName: 'jobs', IndexName: 'OpenJobs' })).requests).toEqual([
      { action: 'dynamodb:Query', resource: `${table('jobs')}/index/OpenJobs` },
    ]);
  });

  it('DynamoDB transactions: each item as its own item action on its own table (IAM has no TransactWriteItems action)', () => {
    const body = { TransactItems: [{ Put: { TableName: 'payments' } }, { Update: { TableName: 'jobs' } }, { Delete: { TableName: 'payments' } }, { ConditionCheck: { TableName: 'jobs' } }] };
    expect(authorizationOf(json('dynamodb', 'DynamoDB_20120810.TransactWriteItems', body)).requests).toEqual([
      { action: 'dynamodb:PutItem', resource: table('payments') },
      { action: 'dynamodb:UpdateItem', resource: table('jobs') },
      { action: 'dynamodb:DeleteItem', resource: table('payments') },
      { action: 'dynamodb:ConditionCheckItem', resource: table('jobs') },
    ]);
  });

  it('Step Functions: the machine or the execution named in the body; Secrets Manager: the secret by name', () => {
    const machine = 'arn:aws:states:local:000000000000:stateMachine:ImageWorkflow';
    expect(authorizationOf(json('states', 'AWSStepFunctions.StartExecution', { stateMachineArn: machine })).requests).toEqual([
      { action: 'states:StartExecution', resource: machine },
    ]);
    const execution = 'arn:aws:states:local:000000000000:execution:ImageWorkflow:j';
    expect(authorizationOf(json('states', 'AWSStepFunctions.DescribeExecution', { executionArn: execution })).requests[0].resource).toBe(execution);
    // Cancel (docs/decisions/0017): StopExecution acts on the execution it stops, not on its machine.
    expect(
      authorizationOf(json('states', 'AWSStepFunctions.StopExecution', { executionArn: execution, error: 'JobCancelled', cause: 'by its owner' })),
    ).toMatchObject({ service: 'states', operation: 'StopExecution', requests: [{ action: 'states:StopExecution', resource: execution }] });
    expect(authorizationOf(json('secretsmanager', 'secretsmanager.GetSecretValue', { SecretId: 'paycall/settler-key' })).requests).toEqual([
      { action: 'secretsmanager:GetSecretValue', resource: 'arn:aws:secretsmanager:local:000000000000:secret:paycall/settler-key-local0' },
    ]);
  });

  it('S3 (path style): objects by method, HEAD needs s3:GetObject, a copy also reads its source, a bucket GET lists', () => {
    const s3 = (method: string, path: string, headers: Record<string, string> = {}) => authorizationOf({ method, path, headers: { authorization: auth('s3'), ...headers } });
    expect(s3('GET', '/assets/renders/j/manifest.json').requests).toEqual([{ action: 's3:GetObject', resource: 'arn:aws:s3:::assets/renders/j/manifest.json' }]);
    expect(s3('HEAD', '/assets/a%20b.png').requests).toEqual([{ action: 's3:GetObject', resource: 'arn:aws:s3:::assets/a b.png' }]);
    expect(s3('PUT', '/assets/k', { 'x-amz-copy-source': '/assets/src' }).requests).toEqual([
      { action: 's3:PutObject', resource: 'arn:aws:s3:::assets/k' },
      { action: 's3:GetObject', resource: 'arn:aws:s3:::assets/src' },
    ]);
    expect(s3('DELETE', '/assets/k').requests).toEqual([{ action: 's3:DeleteObject', resource: 'arn:aws:s3:::assets/k' }]);
    expect(s3('GET', '/assets').requests).toEqual([{ action: 's3:ListBucket', resource: 'arn:aws:s3:::assets' }]);
  });

  it('refuses to guess: an unmodelled service, an unsigned request, or a DynamoDB call without a table', () => {
    expect(() => authorizationOf(json('sqs', 'AmazonSQS.SendMessage', {}))).toThrow(UnmodelledRequestError);
    expect(() => authorizationOf({ method: 'POST', path: '/', headers: {} })).toThrow(UnmodelledRequestError);
    expect(() => authorizationOf(json('dynamodb', 'DynamoDB_20120810.ListTables', {}))).toThrow(UnmodelledRequestError);
  });
});
