/**
 * The embedded runtime enforces IAM (lib/local/iam/enforce.ts): an AWS SDK call made as a function is checked
 * against that function's policy in the synthesized template and refused as AWS refuses it. Real SDK clients, the
 * real local Step Functions endpoint and DynamoDB Local; the policies are the real template's. The two deployment
 * defects that reached main (SubmitRender could not read its manifest; the sweeper could not DescribeExecution) are
 * replayed by removing those grants from the policies, which is what the template said before the fix.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACCOUNT, LOCAL_ASSETS_BUCKET, LOCAL_REGION, synthesizeForLocal, type LocalDefinitions } from '../../lib/local/asl.js';
import { asFunction, installIamEnforcement, type Enforcement } from '../../lib/local/iam/enforce.js';
import type { PolicyStatement } from '../../lib/local/iam/policy.js';
import { startDynamoLocal, type LocalDynamo } from '../../lib/local/dynamodb.js';
import { startLocalStepFunctions, type LocalStepFunctions } from '../../lib/local/stepfunctions.js';
import { freePort } from '../../lib/local/ports.js';
import { SWEEPER } from '../../lambdas/surfaces/routes.js';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let defs: LocalDefinitions;
let policies: Record<string, PolicyStatement[]>;
let enforcement: Enforcement;
let dynamo: LocalDynamo;
let sfnLocal: LocalStepFunctions;
let sfn: SFNClient;
let documents: DynamoDBDocumentClient;
let s3: S3Client;
let dirs: string[] = [];

/** The template before the fix: the given function without any statement granting `action`. */
function without(functionId: string, action: RegExp): PolicyStatement[] {
  return defs.policies[functionId].filter((s) => ![s.Action].flat().some((a) => a !== undefined && action.test(a)));
}

beforeAll(async () => {
  const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'paycall-iam-enforce-'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'paycall-iam-dynamo-'));
  dirs = [cacheDir, dataDir];
  defs = await synthesizeForLocal({ cacheDir });
  policies = { ...defs.policies, PreFixSweeper: without(SWEEPER.id, /DescribeExecution/), PreFixSubmitRender: without('RenderLocal', /^s3:GetObject/) };
  enforcement = installIamEnforcement(policies);

  dynamo = await startDynamoLocal({ dir: dataDir });
  await dynamo.client.send(
    new CreateTableCommand({
      TableName: 'jobs',
      KeySchema: [{ AttributeName: 'jobId', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'jobId', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  documents = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials, maxAttempts: 1 }));
  sfnLocal = await startLocalStepFunctions({
    port: 0,
    definitions: Object.values(defs.stateMachines).map((m) => ({
      stateMachineArn: m.stateMachineArn,
      name: m.name,
      definition: m.definition,
      taskHandlers: Object.fromEntries(Object.keys(m.taskStates).map((s) => [s, async () => ({})])),
    })),
    logger: {},
  });
  sfn = new SFNClient({ endpoint: sfnLocal.endpoint, region: 'us-east-1', credentials, maxAttempts: 1 });
  // Nothing listens there: a call that passes the check fails to connect, one that does not is refused first.
  s3 = new S3Client({ endpoint: `http://127.0.0.1:${await freePort()}`, forcePathStyle: true, region: 'us-east-1', credentials, maxAttempts: 1 });
}, 120_000);

afterAll(async () => {
  enforcement?.uninstall();
  sfn?.destroy();
  s3?.destroy();
  documents?.destroy();
  await sfnLocal?.stop();
  await dynamo?.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const execution = (jobId: string) => `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:execution:${defs.stateMachines.agent_image.name}:${jobId}`;
const describeAs = (functionId: string) => asFunction(functionId, () => sfn.send(new DescribeExecutionCommand({ executionArn: execution('job-1') })));
const manifest = { Bucket: LOCAL_ASSETS_BUCKET, Key: 'renders/job-1/manifest.json' };

describe('The embedded runtime enforces IAM: a call the template does not grant fails as AWS fails it', () => {
  it('defect 2 (sweeper without DescribeExecution) is an AccessDeniedException naming the action and the execution', async () => {
    await expect(describeAs('PreFixSweeper')).rejects.toMatchObject({
      name: 'AccessDeniedException',
      $metadata: { httpStatusCode: 400 },
      message: expect.stringMatching(/is not authorized to perform: states:DescribeExecution on resource: arn:aws:states:.*:execution:ImageWorkflow:job-1 because no identity-based policy allows/),
    });
    // With today's template the call reaches the service, which answers that the execution does not exist.
    await expect(describeAs(SWEEPER.id)).rejects.toMatchObject({ name: 'ExecutionDoesNotExist' });
  });

  it('defect 1 (SubmitRender, now RenderLocal, without s3:GetObject) is an S3 403 AccessDenied when it reads its manifest back', async () => {
    await expect(asFunction('PreFixSubmitRender', () => s3.send(new GetObjectCommand(manifest)))).rejects.toMatchObject({
      name: 'AccessDenied',
      $metadata: { httpStatusCode: 403 },
    });
    // With today's template both the write and the read pass the check (and then find no server: not a denial).
    for (const command of [new PutObjectCommand({ ...manifest, Body: '{}' }), new GetObjectCommand(manifest)]) {
      const error = await asFunction('RenderLocal', () => s3.send(command as never)).catch((e: unknown) => e);
      expect((error as Error).name).not.toBe('AccessDenied');
    }
  });

  it('a document route, which is granted nothing, cannot read the jobs table; a poll route can', async () => {
    const read = () => documents.send(new GetCommand({ TableName: 'jobs', Key: { jobId: 'j' } }));
    await expect(asFunction('OpenApi', read)).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(asFunction('GetImage', read)).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
  });

  it('a call outside any function (the runtime itself, a test) is not checked; every denial is recorded', async () => {
    await expect(documents.send(new GetCommand({ TableName: 'jobs', Key: { jobId: 'j' } }))).resolves.toBeDefined();
    expect(enforcement.denials.map((d) => `${d.functionId} ${d.action}`)).toEqual(
      expect.arrayContaining(['PreFixSweeper states:DescribeExecution', 'PreFixSubmitRender s3:GetObject', 'OpenApi dynamodb:GetItem']),
    );
  });

  it('a function with no policy at all is refused everything', async () => {
    await expect(asFunction('NoSuchFunction', () => sfn.send(new DescribeExecutionCommand({ executionArn: execution('x') })))).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
  });
});
