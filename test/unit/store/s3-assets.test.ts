import { GetObjectCommand, HeadObjectCommand, NoSuchKey, NotFound, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { S3AssetStore } from '../../../lambdas/store/s3-assets.js';

const s3 = mockClient(S3Client);
const store = new S3AssetStore('assets-bucket', 'https://cdn.example.com/', new S3Client({ region: 'us-east-1' }));

beforeEach(() => s3.reset());

/** The SDK's streaming body, reduced to the one method the store uses. */
function body(bytes: Uint8Array) {
  return { transformToByteArray: async () => bytes } as never;
}

describe('S3 asset store', () => {
  it('puts the object with its content type', async () => {
    s3.on(PutObjectCommand).resolves({});
    await store.put('renders/j1/video.mp4', new Uint8Array([9, 8]), 'video/mp4');
    const call = s3.commandCalls(PutObjectCommand)[0].args[0].input;
    expect(call).toEqual({ Bucket: 'assets-bucket', Key: 'renders/j1/video.mp4', Body: new Uint8Array([9, 8]), ContentType: 'video/mp4' });
  });

  it('gets bytes and type, and null for NoSuchKey', async () => {
    s3.on(GetObjectCommand, { Key: 'renders/j1/video.mp4' }).resolves({ Body: body(new Uint8Array([1, 2])), ContentType: 'video/mp4' });
    s3.on(GetObjectCommand, { Key: 'renders/none/video.mp4' }).rejects(new NoSuchKey({ message: 'missing', $metadata: {} }));
    expect(await store.get('renders/j1/video.mp4')).toEqual({ body: new Uint8Array([1, 2]), contentType: 'video/mp4' });
    expect(await store.get('renders/none/video.mp4')).toBeNull();
  });

  it('exists via HeadObject; NotFound is false, other errors propagate', async () => {
    s3.on(HeadObjectCommand, { Key: 'a/here.png' }).resolves({});
    s3.on(HeadObjectCommand, { Key: 'a/gone.png' }).rejects(new NotFound({ message: 'nf', $metadata: { httpStatusCode: 404 } }));
    s3.on(HeadObjectCommand, { Key: 'a/denied.png' }).rejects(Object.assign(new Error('denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }));
    expect(await store.exists('a/here.png')).toBe(true);
    expect(await store.exists('a/gone.png')).toBe(false);
    await expect(store.exists('a/denied.png')).rejects.toThrow('denied');
  });

  it('builds public URLs and refuses unsafe keys before calling S3', async () => {
    expect(store.url('renders/j1/audio.mp3')).toBe('https://cdn.example.com/renders/j1/audio.mp3');
    await expect(store.put('../x', new Uint8Array(), 'text/plain')).rejects.toMatchObject({ name: 'InvalidAssetKeyError' });
    expect(s3.calls()).toHaveLength(0);
  });
});
