import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { imageRequestSchema, musicRequestSchema, videoRequestSchema } from '../../../lambdas/products/catalog.js';
import { LocalRenderProvider, manifestKey } from '../../../lambdas/render/local/provider.js';
import { runFfmpeg } from '../../../lambdas/render/local/ffmpeg.js';
import { FileAssetStore } from '../../../lambdas/store/file-assets.js';
import { ffmpegPath } from './media.js';

const dir = mkdtempSync(join(tmpdir(), 'provider-render-'));
const store = new FileAssetStore(dir, 'http://127.0.0.1:9/assets');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const image = imageRequestSchema.parse({ prompt: 'a paper boat' });
const music = musicRequestSchema.parse({ prompt: 'a short jingle', make_instrumental: true });

describe('Video and image jobs: render states through submit and check', () => {
  const provider = new LocalRenderProvider(store, ffmpegPath);

  it('is running before submit, done after with outputs in the store and a manifest', async () => {
    expect(provider.name).toBe('local');
    expect(await provider.check('job-states', 'agent_image')).toEqual({ state: 'running' });
    expect(await provider.submit({ jobId: 'job-states', product: 'agent_image', request: image })).toEqual({ renderId: 'job-states' });
    const status = await provider.check('job-states', 'agent_image');
    expect(status).toMatchObject({
      state: 'done',
      outputs: [{ role: 'image', contentType: 'image/png', key: 'renders/job-states/image.png' }],
      metadata: { width: 1024, height: 1024, modelVersion: 'local-image-1' },
    });
    expect(await store.exists('renders/job-states/image.png')).toBe(true);
    const manifest = JSON.parse(Buffer.from((await store.get(manifestKey('job-states')))!.body).toString('utf8'));
    expect(manifest).toMatchObject({ outputs: [{ role: 'image' }], metadata: { width: 1024 } });
  });

  it('a repeated submit of a finished job returns the same render without rendering again', async () => {
    const before = await store.get('renders/job-states/image.png');
    await provider.submit({ jobId: 'job-states', product: 'agent_image', request: imageRequestSchema.parse({ prompt: 'something else' }) });
    expect(Buffer.from((await store.get('renders/job-states/image.png'))!.body).equals(Buffer.from(before!.body))).toBe(true);
  });

  it('rejects a job id that is not a safe key segment', async () => {
    await expect(provider.submit({ jobId: '../escape', product: 'agent_image', request: image })).rejects.toMatchObject({ name: 'RenderError' });
  });
});

describe('Music job: render fails (failed is final)', () => {
  it('a missing ffmpeg fails the render with a RenderError safe to show, and check then reports failed', async () => {
    const provider = new LocalRenderProvider(store, '/nonexistent/bin/ffmpeg');
    const error = await provider.submit({ jobId: 'job-no-ffmpeg', product: 'create_music', request: music }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('RenderError');
    expect((error as Error).message).not.toContain('/nonexistent');
    const status = await provider.check('job-no-ffmpeg', 'create_music');
    expect(status).toEqual({ state: 'failed', error: (error as Error).message });
  });

  it('an encoder that exits non-zero is a RenderError, and temp files are cleaned up', async () => {
    const bin = join(dir, 'failing-ffmpeg');
    // Exits without reading its input: the frame feeder must stop on the broken pipe, not hang.
    writeFileSync(bin, '#!/bin/sh\necho "boom: /secret/path" >&2\nexit 3\n');
    chmodSync(bin, 0o755);
    // A private TMPDIR (os.tmpdir() reads it per call) so other test files' renders cannot disturb the count.
    const privateTmp = mkdtempSync(join(dir, 'tmp-'));
    const savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = privateTmp;
    const provider = new LocalRenderProvider(store, bin);
    const error = (await provider
      .submit({ jobId: 'job-exit-3', product: 'agent_video', request: videoRequestSchema.parse({ prompt: 'rain' }) })
      .catch((e: Error) => e)
      .finally(() => (process.env.TMPDIR = savedTmp))) as Error;
    expect(error.name).toBe('RenderError');
    expect(error.message).toBe('Video encoding failed');
    expect(String((error.cause as Error).message)).toContain('boom');
    expect(await provider.check('job-exit-3', 'agent_video')).toEqual({ state: 'failed', error: 'Video encoding failed' });
    expect(readdirSync(privateTmp)).toEqual([]);
  });

  it('an encoder that hangs is killed at the time limit', async () => {
    const bin = join(dir, 'hanging-ffmpeg');
    writeFileSync(bin, '#!/bin/sh\nexec sleep 30\n');
    chmodSync(bin, 0o755);
    const error = (await runFfmpeg(bin, [], { failure: 'Audio encoding failed', timeoutMs: 300 }).catch((e: Error) => e)) as Error;
    expect(error.name).toBe('RenderError');
    // Killed at the limit rather than left to finish its 30 s sleep (speed itself is for npm run bench).
    expect(error.message).toMatch(/timed out/);
  });
});
