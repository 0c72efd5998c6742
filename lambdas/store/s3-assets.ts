/** Asset store on S3 (AWS, or an S3-compatible server on loopback). Keys follow the file store's grammar. */
import { GetObjectCommand, HeadObjectCommand, NoSuchKey, NotFound, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { AssetStore } from '../render/provider.js';
import { assertValidAssetKey } from './file-assets.js';

/** GetObject answers NoSuchKey, HeadObject a bare 404 (NotFound): both mean the object is absent. */
function isNotFound(error: unknown): boolean {
  return error instanceof NoSuchKey || error instanceof NotFound || (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 404;
}

export class S3AssetStore implements AssetStore {
  private readonly publicUrl: string;

  constructor(
    private readonly bucket: string,
    publicUrl: string,
    private readonly s3: S3Client,
  ) {
    this.publicUrl = publicUrl.replace(/\/+$/, '');
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    assertValidAssetKey(key);
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async get(key: string): Promise<{ body: Uint8Array; contentType: string } | null> {
    assertValidAssetKey(key);
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!out.Body) return null;
      return { body: await out.Body.transformToByteArray(), contentType: out.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertValidAssetKey(key);
    try {
      await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  url(key: string): string {
    assertValidAssetKey(key);
    return `${this.publicUrl}/${key}`;
  }
}
