import { beforeAll, describe, expect, it } from 'vitest';
import { songReader } from '../../../lambdas/protocols/mcp/songs.js';
import type { JobRecord } from '../../../lambdas/store/jobs.js';
import { BASE } from './fixtures.js';
import { job as baseJob } from '../fixtures/jobs.js';

beforeAll(() => {
  process.env.ASSETS_PUBLIC_URL = 'https://cdn.test';
  process.env.ASSETS_DIR = '/tmp/unused';
});

const job = (over: Partial<JobRecord>): JobRecord =>
  baseJob({ jobId: 's1', request: { prompt: 'night drive synthwave', style: 'synthwave' }, ...over });
const store = (row: JobRecord | undefined) => ({ get: async () => row });

describe('Token-paid music poll tool: the same song row and visibility as GET /api/songs/{songId}', () => {
  it('returns the song row of a music job', async () => {
    const row = await songReader(store(job({})))('s1', BASE);
    expect(row).toMatchObject({ id: 's1', model_version: 'pending', prompt: 'night drive synthwave', genre: 'synthwave', is_public: true });
    expect(row!.image_url).toBe('https://cdn.test/static/cover-placeholder.png');
  });
  it('knows no song for an unknown id or a video job', async () => {
    expect(await songReader(store(undefined))('s1', BASE)).toBeUndefined();
    expect(await songReader(store(job({ product: 'agent_video' })))('s1', BASE)).toBeUndefined();
  });
  it('reads a paid song whose settlement is still being confirmed (reserved) as pending, never unknown', async () => {
    expect(await songReader(store(job({ status: 'reserved' })))('s1', BASE)).toMatchObject({ id: 's1', model_version: 'pending', duration: 0 });
  });
});
