/**
 * The configured asset store, built once per process: S3 when ASSETS_BUCKET is set (AWS, or a local
 * S3-compatible endpoint via S3_ENDPOINT), else the directory store under ASSETS_DIR.
 */
import { S3Client } from '@aws-sdk/client-s3';
import type { AssetStore } from '../render/provider.js';
import { assetConfig } from '../shared/config.js';
import { traceClient } from '../shared/tracing.js';
import { FileAssetStore } from './file-assets.js';
import { S3AssetStore } from './s3-assets.js';

let store: AssetStore | undefined;

export function assetStoreFromConfig(): AssetStore {
  if (store) return store;
  const config = assetConfig();
  if (config.bucket) {
    const client = traceClient(
      new S3Client(
        config.s3Endpoint
          ? {
              endpoint: config.s3Endpoint,
              // Local S3-compatible servers serve buckets by path, not by virtual host.
              forcePathStyle: true,
              region: process.env.AWS_REGION ?? 'us-east-1',
              credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
            }
          : {},
      ),
    );
    store = new S3AssetStore(config.bucket, config.publicUrl, client);
  } else {
    store = new FileAssetStore(config.dir!, config.publicUrl);
  }
  return store;
}
