/**
 * "Powertools Tracer with the job id and payer as searchable annotations", as the functions deploy: bundled without
 * the Powertools packages, which AWS's Powertools layer brings (lib/bundling/externals.ts, docs/decisions/0022). A
 * traced handler is bundled as CDK bundles it and run in a fresh Node process set up as Lambda sets one up (trace
 * header, daemon address), the installed Powertools beside it standing in for the layer (the layer is that version:
 * lib/functions.ts); the X-Ray daemon receives the invocation's subsegment with its annotations and the captured
 * DynamoDB and S3 calls' subsegments with the parameters the SDK records.
 */
import { createSocket, type Socket } from 'node:dgram';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bundleAliases, functionBuildOptions } from '../../../lib/bundling/aliases.js';
import { PROJECT_ROOT } from '../../../lib/local/runtime.js';

const TRACE_ROOT = '1-5759e988-bd862e3fe1be46a994272793';

const ENTRY = `
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { S3Client, HeadObjectCommand } from '@aws-sdk/client-s3';
import { annotate, traceClient, traced } from ${JSON.stringify(join(PROJECT_ROOT, 'lambdas/shared/tracing.ts'))};
const db = traceClient(new DynamoDBClient({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1', maxAttempts: 1,
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));
const s3 = traceClient(new S3Client({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1', maxAttempts: 1, forcePathStyle: true,
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));
export const handler = traced(async (event) => {
  annotate({ payer: '0xabc' });
  await db.send(new GetItemCommand({ TableName: 'jobs', Key: { id: { S: event.jobId } } })).catch(() => {});
  await s3.send(new HeadObjectCommand({ Bucket: 'assets', Key: 'songs/' + event.jobId + '.mp3' })).catch(() => {});
  return 'done';
}, (event) => ({ jobId: event.jobId, product: 'agent_image' }));
`;

let dir: string;
let daemon: Socket;
let received: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xray-bundle-'));
  // The bundles keep @aws-sdk/* and @aws-lambda-powertools/* external, as on Lambda; the project's copies stand in
  // for the runtime's and the layer's.
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'entry.ts'), ENTRY);
  daemon = createSocket('udp4');
  daemon.on('message', (message) => received.push(message.toString('utf8')));
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
});

afterAll(() => {
  daemon?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function bundleAndInvoke(): Promise<Record<string, any>[]> {
  const outfile = join(dir, 'index.mjs');
  const result = await build({ ...functionBuildOptions(join(dir, 'entry.ts'), outfile, bundleAliases(PROJECT_ROOT)), metafile: true });
  // The Tracer comes from outside the bundle, as the layer's.
  expect(Object.keys(result.metafile.inputs).filter((file) => /@aws-lambda-powertools|aws-xray-sdk-core|cls-hooked/.test(file))).toEqual([]);
  received = [];
  const invoke = `const { handler } = await import(${JSON.stringify(outfile)});
    console.log(await handler({ jobId: 'job-1' }, { awsRequestId: 'req-1', functionName: 'Fn', functionVersion: '$LATEST',
      invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:Fn', memoryLimitInMB: '256' }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', invoke], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      LOG_LEVEL: 'SILENT',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      LAMBDA_TASK_ROOT: dir,
      AWS_LAMBDA_FUNCTION_NAME: 'Fn',
      _HANDLER: 'index.handler',
      _X_AMZN_TRACE_ID: `Root=${TRACE_ROOT};Parent=53995c3f42cd8ad8;Sampled=1`,
      AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemon.address().port}`,
      AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
    },
  });
  expect(out.trim()).toBe('done');
  await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
  return received.map((message) => {
    const [header, body] = message.split('\n');
    expect(JSON.parse(header)).toEqual({ format: 'json', version: 1 });
    return JSON.parse(body);
  });
}

/** A parent is named: the facade segment Lambda made (the trace header's Parent) or the document with that id. */
function named(documents: Record<string, any>[]): Record<string, any>[] {
  const names = new Map(documents.map((d) => [d.id, d.name]));
  return documents.map(({ parent_id, ...rest }) => {
    expect(rest.id).toMatch(/^[0-9a-f]{16}$/);
    expect(rest.end_time).toBeGreaterThanOrEqual(rest.start_time);
    return { ...rest, parent: parent_id === '53995c3f42cd8ad8' ? 'facade' : names.get(parent_id) };
  });
}

describe('Operability: a function as deployed, its Tracer from the Powertools layer, traces its invocation and AWS calls', () => {
  it('sends the invocation subsegment with its annotations and the DynamoDB and S3 calls under it', async () => {
    const documents = named(await bundleAndInvoke());

    const invocation = documents.find((d) => d.name === '## index.handler');
    expect(invocation).toMatchObject({
      trace_id: TRACE_ROOT,
      type: 'subsegment',
      parent: 'facade',
      annotations: { ColdStart: true, Service: 'Fn', jobId: 'job-1', product: 'agent_image', payer: '0xabc' },
    });
    const call = documents.find((d) => d.name === 'DynamoDB');
    expect(call).toMatchObject({ trace_id: TRACE_ROOT, parent: '## index.handler', namespace: 'aws', aws: { operation: 'GetItem', table_name: 'jobs' } });
    const head = documents.find((d) => d.name === 'S3');
    expect(head).toMatchObject({ trace_id: TRACE_ROOT, parent: '## index.handler', namespace: 'aws', aws: { operation: 'HeadObject', bucket_name: 'assets', key: 'songs/job-1.mp3' } });
  });
});
