import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'assets-config-'));

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** Config and the store are memoised per module instance, so each case imports fresh modules. */
async function freshStore() {
  const { assetStoreFromConfig } = await import('../../../lambdas/store/assets.js');
  return assetStoreFromConfig;
}

describe('Asset store from configuration', () => {
  it('uses the directory store when only ASSETS_DIR is set, built once', async () => {
    vi.stubEnv('ASSETS_BUCKET', undefined);
    vi.stubEnv('ASSETS_DIR', dir);
    vi.stubEnv('ASSETS_PUBLIC_URL', 'http://127.0.0.1:4000/assets');
    const get = await freshStore();
    const { FileAssetStore } = await import('../../../lambdas/store/file-assets.js');
    expect(get()).toBeInstanceOf(FileAssetStore);
    expect(get()).toBe(get());
    expect(get().url('renders/a/b.png')).toBe('http://127.0.0.1:4000/assets/renders/a/b.png');
    rmSync(dir, { recursive: true, force: true });
  });

  it('uses S3 when ASSETS_BUCKET is set', async () => {
    vi.stubEnv('ASSETS_BUCKET', 'bucket');
    vi.stubEnv('S3_ENDPOINT', 'http://127.0.0.1:9000');
    vi.stubEnv('ASSETS_PUBLIC_URL', 'http://127.0.0.1:9000/bucket');
    const get = await freshStore();
    const { S3AssetStore } = await import('../../../lambdas/store/s3-assets.js');
    expect(get()).toBeInstanceOf(S3AssetStore);
  });
});
