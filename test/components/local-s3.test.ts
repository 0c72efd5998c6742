/** The local S3 endpoint, driven by the official @aws-sdk/client-s3 the asset store uses on AWS. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, NoSuchKey, NotFound, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../../lib/local/s3-server.js';
import { S3AssetStore } from '../../lambdas/store/s3-assets.js';

let dir: string;
let s3: LocalS3;
let client: S3Client;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'local-s3-'));
  s3 = await startLocalS3({ dir, buckets: ['assets'] });
  client = new S3Client({ endpoint: s3.url, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
});
afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('Local S3 endpoint (path style)', () => {
  it('stores a PutObject body and its type, answers GetObject and HeadObject, and lays it out as the bucket', async () => {
    await client.send(new PutObjectCommand({ Bucket: 'assets', Key: 'renders/j1/image.png', Body: Buffer.from('png-bytes'), ContentType: 'image/png' }));
    const got = await client.send(new GetObjectCommand({ Bucket: 'assets', Key: 'renders/j1/image.png' }));
    expect(got.ContentType).toBe('image/png');
    expect(Buffer.from(await got.Body!.transformToByteArray()).toString()).toBe('png-bytes');
    expect((await client.send(new HeadObjectCommand({ Bucket: 'assets', Key: 'renders/j1/image.png' }))).ContentLength).toBe(9);
    expect(await readFile(path.join(s3.bucketDir('assets'), 'renders/j1/image.png'), 'utf8')).toBe('png-bytes');
  });

  it('decodes a streamed (aws-chunked) upload', async () => {
    const body = Buffer.alloc(300_000, 7);
    const stream = Readable.from([body.subarray(0, 100_000), body.subarray(100_000)]);
    await client.send(new PutObjectCommand({ Bucket: 'assets', Key: 'renders/j2/video.mp4', Body: stream, ContentLength: body.length, ContentType: 'video/mp4' }));
    const got = await client.send(new GetObjectCommand({ Bucket: 'assets', Key: 'renders/j2/video.mp4' }));
    expect(Buffer.compare(Buffer.from(await got.Body!.transformToByteArray()), body)).toBe(0);
  });

  it('answers a missing key as S3 does (NoSuchKey on GET, NotFound on HEAD) and an unknown bucket NoSuchBucket', async () => {
    await expect(client.send(new GetObjectCommand({ Bucket: 'assets', Key: 'renders/none/x.png' }))).rejects.toBeInstanceOf(NoSuchKey);
    await expect(client.send(new HeadObjectCommand({ Bucket: 'assets', Key: 'renders/none/x.png' }))).rejects.toBeInstanceOf(NotFound);
    await expect(client.send(new GetObjectCommand({ Bucket: 'other', Key: 'a.png' }))).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('serves the S3 asset store of the functions unchanged', async () => {
    const store = new S3AssetStore('assets', 'https://cdn.test', client);
    await store.put('renders/j3/manifest.json', Buffer.from('{"a":1}'), 'application/json');
    expect(await store.exists('renders/j3/manifest.json')).toBe(true);
    expect(await store.exists('renders/j3/other.json')).toBe(false);
    expect(await store.get('renders/j3/manifest.json')).toEqual({ body: expect.any(Uint8Array), contentType: 'application/json' });
    expect(await store.get('renders/j3/other.json')).toBeNull();
  });
});
