import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileAssetStore, isValidAssetKey, readAssetForServing } from '../../../lambdas/store/file-assets.js';

const dir = mkdtempSync(join(tmpdir(), 'file-assets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = new FileAssetStore(dir, 'http://127.0.0.1:4000/assets/');

describe('File asset store: put, get, exists, url', () => {
  it('round-trips bytes and the stored content type', async () => {
    const body = new Uint8Array([1, 2, 3, 250]);
    await store.put('renders/job-1/audio.mp3', body, 'audio/mpeg');
    expect(await store.exists('renders/job-1/audio.mp3')).toBe(true);
    const got = await store.get('renders/job-1/audio.mp3');
    expect(Buffer.from(got!.body)).toEqual(Buffer.from(body));
    expect(got!.contentType).toBe('audio/mpeg');
  });

  it('keeps a content type that differs from the extension (sidecar), and overwrites atomically', async () => {
    await store.put('renders/job-1/data.bin', Buffer.from('one'), 'application/x-custom');
    await store.put('renders/job-1/data.bin', Buffer.from('two'), 'application/x-custom');
    const got = await store.get('renders/job-1/data.bin');
    expect(Buffer.from(got!.body).toString()).toBe('two');
    expect(got!.contentType).toBe('application/x-custom');
    // No temp files are left next to the asset.
    expect(readdirSync(join(dir, 'renders', 'job-1')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('concurrent writers of one key leave one complete body', async () => {
    const a = Buffer.alloc(200_000, 0x61);
    const b = Buffer.alloc(300_000, 0x62);
    await Promise.all([store.put('renders/race/x.png', a, 'image/png'), store.put('renders/race/x.png', b, 'image/png')]);
    const got = Buffer.from((await store.get('renders/race/x.png'))!.body);
    expect(got.equals(a) || got.equals(b)).toBe(true);
  });

  it('answers null / false for a missing key and builds public URLs from the base', async () => {
    expect(await store.get('renders/none/audio.mp3')).toBeNull();
    expect(await store.exists('renders/none/audio.mp3')).toBe(false);
    expect(store.url('renders/job-1/audio.mp3')).toBe('http://127.0.0.1:4000/assets/renders/job-1/audio.mp3');
  });

  it('derives the type from the extension when a file has no sidecar', async () => {
    mkdirSync(join(dir, 'loose'), { recursive: true });
    writeFileSync(join(dir, 'loose', 'pic.jpg'), 'jpeg bytes');
    expect((await store.get('loose/pic.jpg'))!.contentType).toBe('image/jpeg');
  });
});

describe('File asset store: keys cannot escape the directory', () => {
  const bad = ['../etc/passwd', 'renders/../../x', '/abs/path', 'a//b', 'a\\b', '', 'renders/job/audio.mp3.meta.json', './x', 'a/./b', 'sp ace'];

  it.each(bad)('rejects %j', async (key) => {
    expect(isValidAssetKey(key)).toBe(false);
    await expect(store.put(key, Buffer.from('x'), 'text/plain')).rejects.toMatchObject({ name: 'InvalidAssetKeyError' });
    expect(await readAssetForServing(dir, key)).toBeNull();
  });
});

describe('Local gateway asset serving', () => {
  it('serves a stored key with its type, and null for a missing key or a sidecar', async () => {
    await store.put('renders/job-2/image.png', Buffer.from('png'), 'image/png');
    expect(await readAssetForServing(dir, 'renders/job-2/image.png')).toMatchObject({ contentType: 'image/png' });
    expect(await readAssetForServing(dir, 'renders/job-2/missing.png')).toBeNull();
    expect(await readAssetForServing(dir, 'renders/job-2/image.png.meta.json')).toBeNull();
  });
});
