/**
 * Polls of an id that cannot be a job (ids are minted as UUIDs by lambdas/jobs/purchase.ts): an oversized or
 * unknown-shaped id is an unknown id, answered as the spec answers one, and never reaches DynamoDB (whose 2048-byte
 * key limit turns such a read into a ValidationException, hence a 5xx).
 */
import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { Context } from 'aws-lambda';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';

const dynamo = mockClient(DynamoDBDocumentClient);
type Handler = (event: unknown, context: Context) => Promise<{ statusCode: number; headers?: Record<string, string>; body: string }>;
const handlers = {} as Record<'video' | 'image' | 'song' | 'page', Handler>;

beforeAll(async () => {
  Object.assign(process.env, { JOBS_TABLE: 'jobs', ASSETS_PUBLIC_URL: 'https://cdn.test', ASSETS_DIR: '/tmp/unused' });
  // What a poll function's template also sets: it reconciles a reserved job (payments table, chain, machines).
  Object.assign(process.env, {
    PAYMENTS_TABLE: 'payments',
    USDC_ADDRESS: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    PAY_TO_ADDRESS: '0x000000000000000000000000000000000000dEaD',
    RPC_URL: 'http://127.0.0.1:1',
    SETTLER_KEY_SECRET_ID: 'paycall/settler-key',
    MUSIC_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:music',
    VIDEO_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:video',
    IMAGE_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:image',
  });
  handlers.video = (await import('../../../lambdas/http/get-video.js')).handler as unknown as Handler;
  handlers.image = (await import('../../../lambdas/http/get-image.js')).handler as unknown as Handler;
  handlers.song = (await import('../../../lambdas/http/get-song.js')).handler as unknown as Handler;
  handlers.page = (await import('../../../lambdas/http/song-page.js')).handler as unknown as Handler;
});

// DynamoDB's answer to a key attribute over 2048 bytes; any other id is simply absent.
beforeEach(() => {
  dynamo.reset();
  dynamo.on(GetCommand).callsFake((input: { Key: { jobId: string } }) => {
    if (Buffer.byteLength(input.Key.jobId) > 2048) {
      throw new DynamoDBServiceException({
        name: 'ValidationException',
        $fault: 'client',
        $metadata: { httpStatusCode: 400 },
        message: 'One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of 2048 bytes',
      });
    }
    return {};
  });
});

const OVERSIZED = 'a'.repeat(3000);
const HOSTILE = [OVERSIZED, 'nope', '../../etc/passwd', '<script>', 'ok-1\u0000', '8a6e0804-2bd0-45d1-9f1e-2e6b1c1a9a5e'.repeat(2)];
const UNKNOWN_UUID = '8a6e0804-2bd0-45d1-9f1e-2e6b1c1a9a5e';

const event = (path: string, pathParameters: Record<string, string>) => ({
  version: '2.0',
  routeKey: `GET ${path}`,
  rawPath: path,
  rawQueryString: '',
  headers: { host: 'api.test', 'x-forwarded-proto': 'https' },
  pathParameters,
  isBase64Encoded: false,
  requestContext: { domainName: 'api.test', http: { method: 'GET', path, sourceIp: '127.0.0.1' }, requestId: 'r1' },
});
const context = { awsRequestId: 'r1', functionName: 'poll', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

describe('Poll of an unknown id: video and image answer 200 failed with pollUrl null', () => {
  for (const [kind, field] of [['video', 'videoUrl'], ['image', 'imageUrl']] as const) {
    it(`${kind}: an oversized or unknown-shaped id is unknown, without a DynamoDB read`, async () => {
      for (const jobId of HOSTILE) {
        const result = await handlers[kind](event(`/agent/${kind}/x`, { jobId }), context);
        expect(result.statusCode, jobId.slice(0, 40)).toBe(200);
        expect(JSON.parse(result.body)).toMatchObject({ status: 'failed', [field]: null, pollUrl: null, error: expect.any(String) });
      }
      expect(dynamo.commandCalls(GetCommand)).toHaveLength(0);
    });
    it(`${kind}: a well-shaped id is still looked up`, async () => {
      const result = await handlers[kind](event(`/agent/${kind}/x`, { jobId: UNKNOWN_UUID }), context);
      expect(result.statusCode).toBe(200);
      expect(JSON.parse(result.body)).toMatchObject({ jobId: UNKNOWN_UUID, status: 'failed' });
      expect(dynamo.commandCalls(GetCommand)).toHaveLength(1);
    });
  }
});

describe('Song row and share page of an unknown id: 404', () => {
  it('GET /api/songs/{songId}: an oversized or unknown-shaped id is 404 { error }, without a DynamoDB read', async () => {
    for (const songId of HOSTILE) {
      const result = await handlers.song(event('/api/songs/x', { songId }), context);
      expect(result.statusCode, songId.slice(0, 40)).toBe(404);
      expect(JSON.parse(result.body)).toEqual({ error: expect.any(String) });
    }
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(0);
  });
  it('GET /song/{songId}: an oversized or unknown-shaped id is the 404 page, without a DynamoDB read', async () => {
    for (const songId of HOSTILE) {
      const result = await handlers.page(event('/song/x', { songId }), context);
      expect(result.statusCode, songId.slice(0, 40)).toBe(404);
      expect(result.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    }
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(0);
  });
  it('a well-shaped unknown id is looked up and is 404', async () => {
    expect((await handlers.song(event('/api/songs/x', { songId: UNKNOWN_UUID }), context)).statusCode).toBe(404);
    expect((await handlers.page(event('/song/x', { songId: UNKNOWN_UUID }), context)).statusCode).toBe(404);
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(2);
  });
});
