/**
 * The fal-veo adapter (lambdas/render/fal-veo/) driving the real `@fal-ai/client` against the wire-level fal queue
 * fake (lib/local/providers/fal.ts), with the S3 asset store on the local S3 endpoint: the input each request becomes,
 * what each aspect ratio really becomes, and the outcome of each failure marker.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localS3AssetStore } from '../support/asset-store.js';
import { startFalFake, type FalFake } from '../../lib/local/providers/fal.js';
import type { S3AssetStore } from '../../lambdas/store/s3-assets.js';
import { create, MESSAGES } from '../../lambdas/render/fal-veo/provider.js';
import { RenderError, TransientRenderError, type RenderProvider, type RenderStatus } from '../../lambdas/render/provider.js';
import type { VideoRequest } from '../../lambdas/products/catalog.js';
import { ffprobe } from '../support/media.js';
import { logger } from '../../lambdas/shared/logger.js';

const API_KEY = 'test-fal-key-7c21:5ecret';
let dir: string;
let stopStore: (() => Promise<void>) | undefined;
let store: S3AssetStore;
let fake: FalFake;
let fal: RenderProvider;
let jobs = 0;

function adapter(env: Record<string, string>, apiKey = API_KEY): RenderProvider {
  return create({ store, secret: async () => apiKey, imageProvider: () => Promise.reject(new Error('unused')), env });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'render-fal-veo-'));
  ({ store, stop: stopStore } = await localS3AssetStore(dir));
  fake = await startFalFake({ stateDir: dir, apiKey: API_KEY, log: () => {}, pollsBeforeDone: 2 });
  fal = adapter({ FAL_QUEUE_BASE_URL: fake.url });
});
afterAll(async () => {
  await fake?.stop();
  await stopStore?.();
  await rm(dir, { recursive: true, force: true });
});

async function submit(request: Partial<VideoRequest> & { prompt: string }, provider = fal) {
  const jobId = `job-fal-${++jobs}`;
  const { renderId } = await provider.submit({ jobId, product: 'agent_video', request: request as VideoRequest });
  return { jobId, renderId };
}

/** Checks until the request is no longer running (the fake renders in the background: wait for it first). */
async function checkUntilSettled(renderId: string, limit = 6): Promise<{ status: RenderStatus; checks: number }> {
  await fake.idle();
  for (let checks = 1; checks <= limit; checks++) {
    const status = await fal.check(renderId, 'agent_video');
    if (status.state !== 'running') return { status, checks };
  }
  return { status: { state: 'running' }, checks: limit };
}

async function storedVideo(status: RenderStatus) {
  if (status.state !== 'done') throw new Error(`not done: ${JSON.stringify(status)}`);
  const got = await store.get(status.outputs[0].key!);
  return { bytes: Buffer.from(got!.body), contentType: got!.contentType };
}

const lastSubmit = () => fake.requests.filter((r) => r.method === 'POST').at(-1)!;

function frameOf(bytes: Buffer): [number, number] {
  const stream = ffprobe(bytes, 'mp4').streams.find((s) => s.codec_type === 'video')!;
  return [stream.width!, stream.height!];
}

/** Runs `work` with logger.error/warn captured; returns everything they were called with, as text. */
async function logged(work: () => Promise<unknown>): Promise<string> {
  const spies = [vi.spyOn(logger, 'error'), vi.spyOn(logger, 'warn'), vi.spyOn(logger, 'info')];
  try {
    await work();
    return JSON.stringify(spies.map((spy) => spy.mock.calls));
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

describe('fal-veo: parameters and outputs', () => {
  const prompt = 'waves break on a rocky shore, gulls cry, wind hums';

  it('16:9: queues fal-ai/veo3.1/fast with the mapped input and the key, is running until COMPLETED, then stores a 1280x720 8 s MP4 with audio', async () => {
    const { jobId, renderId } = await submit({ prompt, aspectRatio: '16:9', durationSeconds: 8 });
    expect(renderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lastSubmit()).toMatchObject({ path: '/fal-ai/veo3.1/fast', authorized: true, status: 200 });
    expect(lastSubmit().input).toEqual({ prompt, aspect_ratio: '16:9', duration: '8s', resolution: '720p', generate_audio: true });
    const { status, checks } = await checkUntilSettled(renderId);
    expect(checks).toBe(3); // IN_QUEUE, IN_PROGRESS, then COMPLETED
    expect(status).toEqual({
      state: 'done',
      outputs: [{ role: 'video', contentType: 'video/mp4', key: `renders/${jobId}/video.mp4` }],
      metadata: { width: 1280, height: 720, durationSeconds: 8, modelVersion: 'fal-ai/veo3.1/fast' },
    });
    const { bytes, contentType } = await storedVideo(status);
    expect(contentType).toBe('video/mp4');
    const probe = ffprobe(bytes, 'mp4');
    expect(frameOf(bytes)).toEqual([1280, 720]);
    expect(probe.streams.some((s) => s.codec_type === 'audio')).toBe(true);
    expect(Number(probe.format.duration)).toBeCloseTo(8, 0);
    // Status and result use the app's path (no endpoint path), with the key; the media is fetched without it.
    const served = fake.requests.filter((r) => r.path.includes(renderId));
    expect(served.map((r) => r.path)).toEqual([
      `/fal-ai/veo3.1/requests/${renderId}/status`,
      `/fal-ai/veo3.1/requests/${renderId}/status`,
      `/fal-ai/veo3.1/requests/${renderId}/status`,
      `/fal-ai/veo3.1/requests/${renderId}`,
    ]);
    expect(served.every((r) => r.authorized)).toBe(true);
    const media = fake.requests.filter((r) => r.path.startsWith('/files/'));
    expect(media.at(-1)).toMatchObject({ method: 'GET', sentKey: false, status: 200 });
  });

  it('9:16: rendered natively, stored 720x1280', async () => {
    const { renderId } = await submit({ prompt: 'a tall waterfall roars into a pool', aspectRatio: '9:16' });
    expect(lastSubmit().input?.aspect_ratio).toBe('9:16');
    const { status } = await checkUntilSettled(renderId);
    expect(frameOf((await storedVideo(status)).bytes)).toEqual([720, 1280]);
    expect(status.state === 'done' && status.metadata).toMatchObject({ width: 720, height: 1280 });
  });

  it('1:1: asks for 16:9 (Veo makes no square clips) and stores the centre crop, 720x720 with the audio kept', async () => {
    const { renderId } = await submit({ prompt, aspectRatio: '1:1' });
    expect(lastSubmit().input?.aspect_ratio).toBe('16:9');
    const { status } = await checkUntilSettled(renderId);
    const { bytes } = await storedVideo(status);
    expect(frameOf(bytes)).toEqual([720, 720]);
    expect(ffprobe(bytes, 'mp4').streams.some((s) => s.codec_type === 'audio')).toBe(true);
    expect(status.state === 'done' && status.metadata).toMatchObject({ width: 720, height: 720, durationSeconds: 8 });
  });

  it('durationSeconds: any requested length renders "8s", and the mapping is recorded with the render', async () => {
    const { jobId, renderId } = await submit({ prompt, aspectRatio: '16:9', durationSeconds: 12 });
    expect(lastSubmit().input?.duration).toBe('8s');
    const record = JSON.parse(Buffer.from((await store.get(`renders/${jobId}/fal-veo.json`))!.body).toString('utf8'));
    expect(record).toMatchObject({ requestId: renderId, model: 'fal-ai/veo3.1/fast', requestedDurationSeconds: 12, durationSeconds: 8, aspectRatio: '16:9', crop: false });
    const { status } = await checkUntilSettled(renderId);
    expect(status.state === 'done' && status.metadata.durationSeconds).toBe(8);
  });

  it('a retried submit of the same job returns its request and queues no second one', async () => {
    const jobId = `job-fal-${++jobs}`;
    const request = { jobId, product: 'agent_video' as const, request: { prompt, aspectRatio: '16:9' } as VideoRequest };
    const first = await fal.submit(request);
    const posts = fake.requests.filter((r) => r.method === 'POST').length;
    expect(await fal.submit(request)).toEqual(first);
    expect(fake.requests.filter((r) => r.method === 'POST').length).toBe(posts);
  });

  it('a check repeated after the video was stored answers done without asking fal again', async () => {
    const { renderId } = await submit({ prompt, aspectRatio: '16:9' });
    const { status } = await checkUntilSettled(renderId);
    const served = fake.requests.length;
    expect(await fal.check(renderId, 'agent_video')).toEqual(status);
    expect(fake.requests.length).toBe(served);
  });

  it('the fake refuses what fal’s schema refuses (1:1, a 12 s clip, no prompt) with 422, and an unknown model with 404', async () => {
    const post = (model: string, input: Record<string, unknown>) =>
      fetch(`${fake.url}/${model}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Key ${API_KEY}` }, body: JSON.stringify(input) });
    for (const input of [{ prompt, aspect_ratio: '1:1' }, { prompt, duration: '12s' }, { aspect_ratio: '16:9' }]) {
      const response = await post('fal-ai/veo3.1/fast', input);
      expect(response.status).toBe(422);
      expect((await response.json()).detail[0]).toMatchObject({ loc: ['body', expect.any(String)], type: expect.any(String) });
    }
    expect((await post('fal-ai/sora-2', { prompt })).status).toBe(404);
  });
});

describe('fal-veo: failure markers and provider errors', () => {
  it('[fake:content-filter]: the request completes, its result is a content_policy_violation → failed with the buyer-safe message', async () => {
    const { renderId } = await submit({ prompt: 'a street scene [fake:content-filter]' });
    let status: RenderStatus | undefined;
    const logs = await logged(async () => ({ status } = await checkUntilSettled(renderId)));
    expect(status).toEqual({ state: 'failed', error: MESSAGES.filtered, refusal: 'content' });
    expect(logs).toContain('content_policy_violation');
    expect(logs).not.toContain(API_KEY);
  });

  it.each(['429', '500'])('[fake:%s]: queueing the request is a TransientRenderError after one attempt (the state machine retries), logged without the key', async (marker) => {
    const posts = fake.requests.filter((r) => r.method === 'POST').length;
    let error: unknown;
    const logs = await logged(async () => (error = await submit({ prompt: `rain on a tin roof [fake:${marker}]` }).catch((e: unknown) => e)));
    expect(error).toBeInstanceOf(TransientRenderError);
    expect((error as Error).message).toBe(`${MESSAGES.busy} (HTTP ${marker})`);
    // The SDK's own retries are off: one POST reached the fake.
    expect(fake.requests.filter((r) => r.method === 'POST').length).toBe(posts + 1);
    expect(logs).toContain('fal call failed');
    expect(logs).toContain(marker === '429' ? 'Too many requests' : 'Internal Server Error');
    expect(logs).not.toContain(API_KEY);
  });

  it('[fake:hang]: the request never completes; every check answers running (the state machine’s check limit ends it)', async () => {
    const { renderId } = await submit({ prompt: 'a clock ticks [fake:hang]' });
    const { status, checks } = await checkUntilSettled(renderId, 8);
    expect(status).toEqual({ state: 'running' });
    expect(checks).toBe(8);
  });

  it('[fake:malformed]: an unreadable result ends the render failed with a message the buyer can read', async () => {
    const { renderId } = await submit({ prompt: 'a kettle whistles [fake:malformed]' });
    const { status } = await checkUntilSettled(renderId);
    expect(status).toEqual({ state: 'failed', error: MESSAGES.unreadable });
  });

  it('a wrong key is a RenderError (ours to fix), not retried, and the key is not logged', async () => {
    let error: unknown;
    const logs = await logged(async () => (error = await submit({ prompt: 'a fox' }, adapter({ FAL_QUEUE_BASE_URL: fake.url }, 'wrong-key-91ab')).catch((e: unknown) => e)));
    expect(error).toBeInstanceOf(RenderError);
    expect((error as Error).message).toBe(MESSAGES.unavailable);
    expect(fake.requests.at(-1)).toMatchObject({ sentKey: true, authorized: false, status: 401 });
    expect(logs).not.toContain('wrong-key-91ab');
  });

  it('an unreachable endpoint is a TransientRenderError after one attempt', async () => {
    const error = await submit({ prompt: 'a fox' }, adapter({ FAL_QUEUE_BASE_URL: 'http://127.0.0.1:9' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientRenderError);
    expect((error as Error).message).toBe(`${MESSAGES.busy} (unreachable)`);
  });

  it('without FAL_QUEUE_BASE_URL the SDK addresses fal’s own queue host (nothing reaches the fake)', async () => {
    const seen: string[] = [];
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      seen.push(String(input instanceof Request ? input.url : input));
      return realFetch(`${fake.url}/unknown-app/x`, init);
    });
    try {
      await submit({ prompt: 'a fox' }, adapter({})).catch(() => undefined);
    } finally {
      spy.mockRestore();
    }
    expect(seen).toEqual(['https://queue.fal.run/fal-ai/veo3.1/fast']);
  });
});
