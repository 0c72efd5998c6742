/**
 * The google-veo adapter (lambdas/render/google-veo/) driving the real `@google/genai` SDK against the wire-level
 * Gemini fake (lib/local/providers/gemini.ts), with the S3 asset store on the local S3 endpoint: what each aspect
 * ratio really becomes, and the outcome of each failure marker.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localS3AssetStore } from '../support/asset-store.js';
import { startGeminiFake, type GeminiFake } from '../../lib/local/providers/gemini.js';
import type { S3AssetStore } from '../../lambdas/store/s3-assets.js';
import { create, MESSAGES } from '../../lambdas/render/google-veo/provider.js';
import { RenderError, TransientRenderError, type RenderProvider, type RenderStatus } from '../../lambdas/render/provider.js';
import type { VideoRequest } from '../../lambdas/products/catalog.js';
import { ffprobe } from '../support/media.js';
import { logger } from '../../lambdas/shared/logger.js';

const API_KEY = 'test-gemini-key-3f9a';
let dir: string;
let stopStore: (() => Promise<void>) | undefined;
let store: S3AssetStore;
let fake: GeminiFake;
let veo: RenderProvider;
let jobs = 0;

function adapter(env: Record<string, string>, apiKey = API_KEY): RenderProvider {
  return create({ store, secret: async () => apiKey, imageProvider: () => Promise.reject(new Error('unused')), env });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'render-veo-'));
  ({ store, stop: stopStore } = await localS3AssetStore(dir));
  fake = await startGeminiFake({ stateDir: dir, apiKey: API_KEY, log: () => {}, veo: { pollsBeforeDone: 1 } });
  veo = adapter({ GEMINI_API_BASE_URL: fake.url });
});
afterAll(async () => {
  await fake?.stop();
  await stopStore?.();
  await rm(dir, { recursive: true, force: true });
});

async function submit(request: Partial<VideoRequest> & { prompt: string }, provider = veo) {
  const jobId = `job-veo-${++jobs}`;
  const { renderId } = await provider.submit({ jobId, product: 'agent_video', request: request as VideoRequest });
  return { jobId, renderId };
}

/** Checks until the operation is no longer running (the fake renders in the background: wait for it first). */
async function checkUntilSettled(renderId: string, limit = 5): Promise<{ status: RenderStatus; checks: number }> {
  await fake.idle();
  for (let checks = 1; checks <= limit; checks++) {
    const status = await veo.check(renderId, 'agent_video');
    if (status.state !== 'running') return { status, checks };
  }
  return { status: { state: 'running' }, checks: limit };
}

async function storedVideo(status: RenderStatus) {
  if (status.state !== 'done') throw new Error(`not done: ${JSON.stringify(status)}`);
  const got = await store.get(status.outputs[0].key!);
  return { bytes: Buffer.from(got!.body), contentType: got!.contentType };
}

function lastPredictBody(): { instances: { prompt: string }[]; parameters: Record<string, unknown> } {
  const post = fake.requests.filter((r) => r.method === 'POST').at(-1)!;
  return JSON.parse(post.body!);
}

describe('google-veo: parameters and outputs', () => {
  const prompt = 'waves break on a rocky shore, gulls cry, wind hums';

  it('16:9: starts an operation named by the API, is running until done, then stores a 1280x720 8 s MP4 with audio', async () => {
    const { jobId, renderId } = await submit({ prompt, aspectRatio: '16:9', durationSeconds: 8 });
    expect(renderId).toMatch(/^models\/veo-3\.1-fast-generate-preview\/operations\/[a-z0-9]+$/);
    expect(lastPredictBody()).toEqual({ instances: [{ prompt }], parameters: { aspectRatio: '16:9', durationSeconds: 8, resolution: '720p', sampleCount: 1 } });
    const { status, checks } = await checkUntilSettled(renderId);
    expect(checks).toBe(2); // one "not done" poll, then done
    expect(status).toEqual({
      state: 'done',
      outputs: [{ role: 'video', contentType: 'video/mp4', key: `renders/${jobId}/video.mp4` }],
      metadata: { width: 1280, height: 720, durationSeconds: 8, modelVersion: 'veo-3.1-fast-generate-preview' },
    });
    const { bytes, contentType } = await storedVideo(status);
    expect(contentType).toBe('video/mp4');
    const probe = ffprobe(bytes, 'mp4');
    const video = probe.streams.find((s) => s.codec_type === 'video')!;
    expect([video.width, video.height]).toEqual([1280, 720]);
    expect(probe.streams.some((s) => s.codec_type === 'audio')).toBe(true);
    expect(Number(probe.format.duration)).toBeCloseTo(8, 0);
    // The file was fetched with the key from the API and through its redirect.
    expect(fake.requests.map((r) => r.path).filter((p) => p.includes('files/') || p.startsWith('/fake-storage/'))).toHaveLength(2);
  });

  it('9:16: rendered natively, stored 720x1280', async () => {
    const { renderId } = await submit({ prompt: 'a tall waterfall roars into a pool', aspectRatio: '9:16' });
    expect(lastPredictBody().parameters.aspectRatio).toBe('9:16');
    const { status } = await checkUntilSettled(renderId);
    const probe = ffprobe((await storedVideo(status)).bytes, 'mp4');
    const video = probe.streams.find((s) => s.codec_type === 'video')!;
    expect([video.width, video.height]).toEqual([720, 1280]);
    expect(status.state === 'done' && status.metadata).toMatchObject({ width: 720, height: 1280 });
  });

  it('1:1: asks Veo for 16:9 (it makes no square clips) and stores the centre crop, 720x720 with the audio kept', async () => {
    const { renderId } = await submit({ prompt, aspectRatio: '1:1' });
    expect(lastPredictBody().parameters.aspectRatio).toBe('16:9');
    const { status } = await checkUntilSettled(renderId);
    const probe = ffprobe((await storedVideo(status)).bytes, 'mp4');
    const video = probe.streams.find((s) => s.codec_type === 'video')!;
    expect([video.width, video.height]).toEqual([720, 720]);
    expect(probe.streams.some((s) => s.codec_type === 'audio')).toBe(true);
    expect(status.state === 'done' && status.metadata).toMatchObject({ width: 720, height: 720, durationSeconds: 8 });
  });

  it('durationSeconds: any requested length renders the supported 8 s, and the mapping is recorded with the render', async () => {
    const { jobId, renderId } = await submit({ prompt, aspectRatio: '16:9', durationSeconds: 12 });
    expect(lastPredictBody().parameters.durationSeconds).toBe(8);
    const record = JSON.parse(Buffer.from((await store.get(`renders/${jobId}/google-veo.json`))!.body).toString('utf8'));
    expect(record).toMatchObject({ operation: renderId, requestedDurationSeconds: 12, durationSeconds: 8, aspectRatio: '16:9', crop: false });
    const { status } = await checkUntilSettled(renderId);
    expect(status.state === 'done' && status.metadata.durationSeconds).toBe(8);
  });

  it('a retried submit of the same job returns its operation and starts no second one', async () => {
    const jobId = `job-veo-${++jobs}`;
    const request = { jobId, product: 'agent_video' as const, request: { prompt, aspectRatio: '16:9' } as VideoRequest };
    const first = await veo.submit(request);
    const posts = fake.requests.filter((r) => r.method === 'POST').length;
    expect(await veo.submit(request)).toEqual(first);
    expect(fake.requests.filter((r) => r.method === 'POST').length).toBe(posts);
  });

  it('a check repeated after the video was stored answers done without downloading again', async () => {
    const { renderId } = await submit({ prompt, aspectRatio: '16:9' });
    const { status } = await checkUntilSettled(renderId);
    const served = fake.requests.length;
    expect(await veo.check(renderId, 'agent_video')).toEqual(status);
    expect(fake.requests.length).toBe(served);
  });

  it('the fake refuses what the Gemini API refuses: generateAudio, 1:1, a 12 s clip', async () => {
    for (const parameters of [{ generateAudio: true }, { aspectRatio: '1:1' }, { durationSeconds: 12 }]) {
      const response = await fetch(`${fake.url}/v1beta/models/veo-3.1-fast-generate-preview:predictLongRunning`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': API_KEY },
        body: JSON.stringify({ instances: [{ prompt }], parameters }),
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error.status).toBe('INVALID_ARGUMENT');
    }
  });
});

describe('google-veo: failure markers and provider errors', () => {
  it('[fake:content-filter]: the operation ends RAI-filtered → failed with the buyer-safe message', async () => {
    const { renderId } = await submit({ prompt: 'a street scene [fake:content-filter]' });
    const { status } = await checkUntilSettled(renderId);
    expect(status).toEqual({ state: 'failed', error: MESSAGES.filtered, refusal: 'content' });
  });

  it.each(['429', '500'])('[fake:%s]: starting the render is a TransientRenderError (retried by the state machine), logged without the key', async (marker) => {
    const errors = vi.spyOn(logger, 'error');
    let logged = '';
    try {
      const error = await submit({ prompt: `rain on a tin roof [fake:${marker}]` }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransientRenderError);
      expect((error as Error).message).toBe(`${MESSAGES.busy} (HTTP ${marker})`);
      logged = JSON.stringify(errors.mock.calls);
    } finally {
      errors.mockRestore();
    }
    expect(logged).toContain('veo call failed');
    expect(logged).toContain(marker === '429' ? 'RESOURCE_EXHAUSTED' : 'INTERNAL');
    expect(logged).not.toContain(API_KEY);
  });

  it('[fake:hang]: the operation never finishes; every check answers running (the state machine’s check limit ends it)', async () => {
    const { renderId } = await submit({ prompt: 'a clock ticks [fake:hang]' });
    const { status, checks } = await checkUntilSettled(renderId, 6);
    expect(status).toEqual({ state: 'running' });
    expect(checks).toBe(6);
  });

  it('[fake:malformed]: an unreadable operation body is a RenderError the buyer can read', async () => {
    const { renderId } = await submit({ prompt: 'a kettle whistles [fake:malformed]' });
    await fake.idle();
    await expect(veo.check(renderId, 'agent_video')).resolves.toEqual({ state: 'running' });
    const error = await veo.check(renderId, 'agent_video').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect((error as Error).message).toBe(MESSAGES.unreadable);
  });

  it('a wrong API key is a RenderError (ours to fix), not retried', async () => {
    const error = await submit({ prompt: 'a fox' }, adapter({ GEMINI_API_BASE_URL: fake.url }, 'wrong-key')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect((error as Error).message).toBe(MESSAGES.unavailable);
  });

  it('an unreachable endpoint is a TransientRenderError', async () => {
    const error = await submit({ prompt: 'a fox' }, adapter({ GEMINI_API_BASE_URL: 'http://127.0.0.1:9' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientRenderError);
  });
});
