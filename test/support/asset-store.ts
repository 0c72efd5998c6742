/** An asset store on the local S3 endpoint, as the render tasks use on AWS (the adapters' component tests). */
import { S3Client } from '@aws-sdk/client-s3';
import { startLocalS3 } from '../../lib/local/s3-server.js';
import { S3AssetStore } from '../../lambdas/store/s3-assets.js';

export async function localS3AssetStore(dir: string): Promise<{ store: S3AssetStore; stop: () => Promise<void> }> {
  const s3 = await startLocalS3({ dir, buckets: ['assets'] });
  const client = new S3Client({ endpoint: s3.url, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  return {
    store: new S3AssetStore('assets', 'http://assets.test', client),
    stop: async () => {
      client.destroy();
      await s3.stop();
    },
  };
}
