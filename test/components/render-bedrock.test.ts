/**
 * The bedrock-stability adapter (lambdas/render/bedrock-stability/) driving the real `@aws-sdk/client-bedrock-runtime`
 * against the wire-level Bedrock fake (lib/local/providers/bedrock.ts), with the S3 asset store on the local S3
 * endpoint: what each aspect ratio and format really becomes (decoded from the stored bytes), and the outcome of each
 * failure marker.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localS3AssetStore } from '../support/asset-store.js';
import { startBedrockFake, type BedrockFake } from '../../lib/local/providers/bedrock.js';
import type { S3AssetStore } from '../../lambdas/store/s3-assets.js';
import { create, MESSAGES } from '../../lambdas/render/bedrock-stability/provider.js';
import { ContentRefusedError, RenderError, TransientRenderError, type RenderProvider, type RenderStatus } from '../../lambdas/render/provider.js';
import { IMAGE_ASPECT_RATIOS } from '../../lambdas/products/products.js';
import type { ImageRequest } from '../../lambdas/products/catalog.js';
import { logger } from '../../lambdas/shared/logger.js';
import { asFunction, installIamEnforcement } from '../../lib/local/iam/enforce.js';
import { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const ffmpegPath: string = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg').path;

const MODEL = 'stability.stable-image-core-v1:1';
let dir: string;
let stopStore: (() => Promise<void>) | undefined;
let store: S3AssetStore;
let fake: BedrockFake;
let bedrock: RenderProvider;
let jobs = 0;

function adapter(env: Record<string, string> = {}): RenderProvider {
  return create({
    store,
    secret: () => Promise.reject(new Error('Bedrock reads no API key')),
    imageProvider: () => Promise.reject(new Error('unused')),
    env: { BEDROCK_REGION: 'us-west-2', BEDROCK_IMAGE_MODEL_ID: MODEL, BEDROCK_RUNTIME_ENDPOINT: fake.url, ...env },
  });
}

beforeAll(async () => {
  // The SDK's default credential chain, as in a Lambda sandbox (the fake does not verify signatures).
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  dir = await mkdtemp(path.join(tmpdir(), 'render-bedrock-'));
  ({ store, stop: stopStore } = await localS3AssetStore(dir));
  fake = await startBedrockFake({ stateDir: dir, apiKey: 'unused', log: () => {} });
  bedrock = adapter();
});
afterAll(async () => {
  await fake?.stop();
  await stopStore?.();
  await rm(dir, { recursive: true, force: true });
});

async function render(request: Partial<ImageRequest> & { prompt: string }, provider = bedrock) {
  const jobId = `job-bedrock-${++jobs}`;
  const { renderId } = await provider.submit({ jobId, product: 'agent_image', request: request as ImageRequest });
  return { jobId, renderId, status: await provider.check(renderId, 'agent_image') };
}

async function stored(status: RenderStatus) {
  if (status.state !== 'done') throw new Error(`not done: ${JSON.stringify(status)}`);
  const got = await store.get(status.outputs[0].key!);
  return { bytes: Buffer.from(got!.body), contentType: got!.contentType };
}

/** The size a decoder finds in the file (PNG via zlib and the IHDR; JPEG by decoding it with jpeg-js). */
function decodedSize(bytes: Buffer): { format: 'png' | 'jpeg'; width: number; height: number } {
  if (bytes.subarray(0, 8).toString('hex') === '89504e470d0a1a0a') {
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    // Inflate every IDAT to prove the image data matches its header (one filter byte per row).
    const idat: Buffer[] = [];
    for (let o = 8; o < bytes.length; ) {
      const length = bytes.readUInt32BE(o);
      if (bytes.toString('ascii', o + 4, o + 8) === 'IDAT') idat.push(bytes.subarray(o + 8, o + 8 + length));
      o += 12 + length;
    }
    const channels = bytes[25] === 6 ? 4 : 3;
    expect(inflateSync(Buffer.concat(idat)).length).toBe((width * channels + 1) * height);
    return { format: 'png', width, height };
  }
  expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  const decoded = jpeg.decode(bytes, { useTArray: true });
  return { format: 'jpeg', width: decoded.width, height: decoded.height };
}

/** RGB24 pixels as ffmpeg decodes them (a decoder independent of the adapter's). */
function rgbOf(png: Buffer): Buffer {
  const file = path.join(dir, `decode-${Math.random().toString(36).slice(2)}.png`);
  writeFileSync(file, png);
  return execFileSync(ffmpegPath, ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 });
}

function lastBody(): Record<string, unknown> {
  return fake.requests.filter((r) => r.body).at(-1)!.body!;
}

describe('bedrock-stability: parameters and outputs', () => {
  const prompt = 'a red fox in the snow at dawn';

  it('1:1 PNG: one signed InvokeModel of the configured model, the picture stored as is under the job, metadata from the file', async () => {
    const { jobId, renderId, status } = await render({ prompt, aspectRatio: '1:1', outputFormat: 'png' });
    const call = fake.requests.at(-1)!;
    // Over the HTTP/1.1 handler the adapter sets (the fake speaks HTTP/2 as well, on the same port).
    expect(call).toMatchObject({ method: 'POST', path: `/model/${encodeURIComponent(MODEL)}/invoke`, modelId: MODEL, region: 'us-west-2', status: 200, httpVersion: '1.1' });
    expect(call.body).toEqual({ prompt, aspect_ratio: '1:1', output_format: 'png', seed: expect.any(Number) });
    // The render id is Bedrock's request id (the job row keeps it for operators).
    expect(renderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(status).toEqual({
      state: 'done',
      outputs: [{ role: 'image', contentType: 'image/png', key: `renders/${jobId}/image.png` }],
      metadata: { title: expect.any(String), width: 1024, height: 1024, modelVersion: MODEL },
    });
    const { bytes, contentType } = await stored(status);
    expect(contentType).toBe('image/png');
    expect(decodedSize(bytes)).toEqual({ format: 'png', width: 1024, height: 1024 });
    // Exactly 1:1 already: Bedrock's bytes, untouched.
    expect(bytes.length).toBe(call.imageBytes);
  });

  const ratios = IMAGE_ASPECT_RATIOS.map((ratio) => [ratio] as const);
  it.each(ratios)('%s: the stored picture is exactly that ratio, and its metadata says its real size', async (ratio) => {
    const { status } = await render({ prompt: `mountains at dusk ${ratio}`, aspectRatio: ratio });
    const expected = { '3:4': '4:5', '4:3': '5:4' }[ratio as string] ?? ratio;
    expect(lastBody().aspect_ratio).toBe(expected);
    const size = decodedSize((await stored(status)).bytes);
    const [w, h] = ratio.split(':').map(Number);
    expect(size.width * h).toBe(size.height * w);
    expect(status.state === 'done' && status.metadata).toMatchObject({ width: size.width, height: size.height });
    // The largest window of that ratio inside what Stability rendered: no more than one ratio step lost per side.
    expect(Math.max(size.width, size.height)).toBeGreaterThanOrEqual(640);
  });

  it('3:4 and 4:3: rendered 4:5 / 5:4 (Stability has neither) and centre-cropped, e.g. 896x1088 → 816x1088', async () => {
    const portrait = await render({ prompt, aspectRatio: '3:4' });
    expect(decodedSize((await stored(portrait.status)).bytes)).toEqual({ format: 'png', width: 816, height: 1088 });
    const landscape = await render({ prompt, aspectRatio: '4:3', outputFormat: 'jpeg' });
    expect(lastBody()).toMatchObject({ aspect_ratio: '5:4', output_format: 'jpeg' });
    expect(decodedSize((await stored(landscape.status)).bytes)).toEqual({ format: 'jpeg', width: 1088, height: 816 });
  });

  it('the crop keeps the centre of the picture: the stored 16:9 is the middle rows of what Bedrock returned, pixel for pixel', async () => {
    // 16:9 is rendered 1344x768 and cut to 1344x756: 6 rows off the top, 6 off the bottom.
    const { status } = await render({ prompt: 'a city skyline at night', aspectRatio: '16:9' });
    const body = lastBody();
    const cropped = (await stored(status)).bytes;
    expect(decodedSize(cropped)).toMatchObject({ width: 1344, height: 756 });
    // The uncropped original: the same call again, straight through the SDK.
    const sdk = new BedrockRuntimeClient({ region: 'us-west-2', endpoint: fake.url, credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, requestHandler: new NodeHttpHandler() });
    const answer = await sdk.send(new InvokeModelCommand({ modelId: MODEL, contentType: 'application/json', body: JSON.stringify(body) }));
    sdk.destroy();
    const original = Buffer.from(JSON.parse(new TextDecoder().decode(answer.body)).images[0], 'base64');
    const rowBytes = 1344 * 3;
    const source = rgbOf(original);
    expect(source.length).toBe(rowBytes * 768);
    expect(rgbOf(cropped).equals(source.subarray(6 * rowBytes, (6 + 756) * rowBytes))).toBe(true);
  });

  it('jpeg: JPEG magic bytes, image/jpeg, stored as image.jpg', async () => {
    const { jobId, status } = await render({ prompt, aspectRatio: '1:1', outputFormat: 'jpeg' });
    expect(lastBody().output_format).toBe('jpeg');
    expect(status.state === 'done' && status.outputs[0]).toEqual({ role: 'image', contentType: 'image/jpeg', key: `renders/${jobId}/image.jpg` });
    const { bytes, contentType } = await stored(status);
    expect(contentType).toBe('image/jpeg');
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(decodedSize(bytes)).toEqual({ format: 'jpeg', width: 1024, height: 1024 });
  });

  it('a retried submit of a rendered job calls Bedrock no second time (InvokeModel has no idempotency token) and answers the same', async () => {
    const jobId = `job-bedrock-${++jobs}`;
    const request = { jobId, product: 'agent_image' as const, request: { prompt, aspectRatio: '2:3', outputFormat: 'png' } as ImageRequest };
    const first = await bedrock.submit(request);
    const calls = fake.requests.length;
    expect(await bedrock.submit(request)).toEqual(first);
    expect(fake.requests.length).toBe(calls);
    expect(await bedrock.check(first.renderId, 'agent_image')).toMatchObject({ state: 'done' });
  });

  it('a retried submit whose picture was stored but whose manifest was not reuses the picture, with its size read from the file', async () => {
    const first = await render({ prompt, aspectRatio: '16:9', outputFormat: 'png' });
    const picture = Buffer.from((await stored(first.status)).bytes);
    // As if the task died between its two writes: the job's picture is in the store, its manifest is not.
    const jobId = `job-bedrock-${++jobs}`;
    await store.put(`renders/${jobId}/image.png`, picture, 'image/png');
    const calls = fake.requests.length;
    const { renderId } = await bedrock.submit({ jobId, product: 'agent_image', request: { prompt, aspectRatio: '16:9', outputFormat: 'png' } as ImageRequest });
    expect(fake.requests.length).toBe(calls);
    expect(renderId).toBe(jobId);
    expect(await bedrock.check(renderId, 'agent_image')).toEqual({
      state: 'done',
      outputs: [{ role: 'image', contentType: 'image/png', key: `renders/${jobId}/image.png` }],
      metadata: { width: 1344, height: 756, modelVersion: MODEL },
    });
    expect(Buffer.from((await store.get(`renders/${jobId}/image.png`))!.body).equals(picture)).toBe(true);
  });

  it('the seed is derived from the job id: the same job asks for the same picture, another job for another', async () => {
    await render({ prompt });
    const a = lastBody().seed;
    await render({ prompt });
    expect(lastBody().seed).not.toBe(a);
  });

  it('a check of an unknown render is a RenderError, not an endless wait', async () => {
    await expect(bedrock.check('no-such-render', 'agent_image')).rejects.toBeInstanceOf(RenderError);
  });
});

describe('bedrock-stability: failure markers and provider errors', () => {
  async function failure(prompt: string, provider = bedrock) {
    const errors = vi.spyOn(logger, 'error');
    try {
      const error = await provider.submit({ jobId: `job-bedrock-${++jobs}`, product: 'agent_image', request: { prompt } as ImageRequest }).catch((e: unknown) => e);
      return { error: error as Error, logged: JSON.stringify(errors.mock.calls) };
    } finally {
      errors.mockRestore();
    }
  }

  it('[fake:content-filter]: a filter finish reason is a ContentRefusedError with the buyer-safe message, and the manifest says refused', async () => {
    const jobId = `job-bedrock-${++jobs}`;
    const error = await bedrock.submit({ jobId, product: 'agent_image', request: { prompt: 'a street scene [fake:content-filter]' } as ImageRequest }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentRefusedError);
    expect((error as Error).message).toBe(MESSAGES.filtered);
    expect(MESSAGES.filtered).toBe("The image was blocked by the provider's content filter");
    const manifest = JSON.parse(Buffer.from((await store.get(`renders/${jobId}/manifest.json`))!.body).toString('utf8'));
    expect(manifest).toMatchObject({ state: 'failed', error: MESSAGES.filtered, refusal: 'content' });
    expect(await store.exists(`renders/${jobId}/image.png`)).toBe(false);
  });

  it('[fake:429]: ThrottlingException is a TransientRenderError (the state machine retries it), Bedrock’s words in the logs', async () => {
    const { error, logged } = await failure('rain on a tin roof [fake:429]');
    expect(error).toBeInstanceOf(TransientRenderError);
    expect(error.message).toBe(`${MESSAGES.busy} (ThrottlingException)`);
    expect(logged).toContain('bedrock call failed');
    expect(logged).toContain('Too many requests');
    expect(logged).toContain('"status":429');
  });

  it('[fake:500]: InternalServerException is a TransientRenderError', async () => {
    const { error, logged } = await failure('a lighthouse [fake:500]');
    expect(error).toBeInstanceOf(TransientRenderError);
    expect(error.message).toBe(`${MESSAGES.busy} (InternalServerException)`);
    expect(logged).toContain('"status":500');
  });

  it('[fake:hang]: the per-call timeout ends the call as a TransientRenderError', async () => {
    const { error } = await failure('a clock ticks [fake:hang]', adapter({ BEDROCK_CALL_TIMEOUT_MS: '300' }));
    expect(error).toBeInstanceOf(TransientRenderError);
    expect(error.message).toBe(`${MESSAGES.busy} (no answer in time)`);
  });

  it('[fake:malformed]: a body that is not JSON is a RenderError the buyer can read', async () => {
    const { error, logged } = await failure('a kettle whistles [fake:malformed]');
    expect(error).toBeInstanceOf(RenderError);
    expect(error.message).toBe(MESSAGES.unreadable);
    expect(logged).toContain('not JSON');
  });

  it('a model the fake (like Bedrock) does not know is a RenderError the operator fixes (ValidationException), not retried', async () => {
    const { error, logged } = await failure('a fox', adapter({ BEDROCK_IMAGE_MODEL_ID: 'stability.sd3-large-v1:0' }));
    expect(error).toBeInstanceOf(RenderError);
    expect(error.message).toBe(MESSAGES.refused);
    expect(logged).toContain('The provided model identifier is invalid');
  });

  it('the wrong region for Stability models is refused as Bedrock refuses it', async () => {
    const { error } = await failure('a fox', adapter({ BEDROCK_REGION: 'eu-west-1' }));
    expect(error).toBeInstanceOf(RenderError);
    expect(fake.requests.at(-1)).toMatchObject({ region: 'eu-west-1', status: 400 });
  });

  it('an unreachable endpoint is a TransientRenderError', async () => {
    const { error } = await failure('a fox', adapter({ BEDROCK_RUNTIME_ENDPOINT: 'http://127.0.0.1:9' }));
    expect(error).toBeInstanceOf(TransientRenderError);
  });

  it('a bad configuration fails when the adapter is built, naming the variable', () => {
    expect(() => adapter({ BEDROCK_IMAGE_MODEL_ID: 'amazon.nova-canvas-v1:0' })).toThrow(/BEDROCK_IMAGE_MODEL_ID/);
  });
});

describe('bedrock-stability under the local IAM enforcement', () => {
  it('a model the function’s policy does not grant is refused before it reaches Bedrock: AccessDeniedException, a RenderError for operators', async () => {
    const policies = {
      RenderBedrockStability: [
        { Effect: 'Allow' as const, Action: 'bedrock:InvokeModel', Resource: `arn:aws:bedrock:us-west-2::foundation-model/${MODEL}` },
        { Effect: 'Allow' as const, Action: ['s3:GetObject', 's3:PutObject'], Resource: 'arn:aws:s3:::assets/renders/*' },
      ],
    };
    const enforcement = installIamEnforcement(policies);
    const errors = vi.spyOn(logger, 'error');
    try {
      const granted = await asFunction('RenderBedrockStability', () => bedrock.submit({ jobId: `job-bedrock-${++jobs}`, product: 'agent_image', request: { prompt: 'a fox' } as ImageRequest }));
      expect(granted.renderId).toMatch(/^[0-9a-f-]{36}$/);
      const calls = fake.requests.length;
      const ultra = adapter({ BEDROCK_IMAGE_MODEL_ID: 'stability.stable-image-ultra-v1:1' });
      const error = await asFunction('RenderBedrockStability', () => ultra.submit({ jobId: `job-bedrock-${++jobs}`, product: 'agent_image', request: { prompt: 'a fox' } as ImageRequest })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RenderError);
      expect((error as Error).message).toBe(MESSAGES.unavailable);
      expect(fake.requests.length).toBe(calls);
      expect(enforcement.denials).toEqual([expect.objectContaining({ functionId: 'RenderBedrockStability', action: 'bedrock:InvokeModel', resource: 'arn:aws:bedrock:us-west-2::foundation-model/stability.stable-image-ultra-v1:1' })]);
      const logged = JSON.stringify(errors.mock.calls);
      expect(logged).toContain('AccessDeniedException');
      expect(logged).toContain('"status":403');
    } finally {
      errors.mockRestore();
      enforcement.uninstall();
    }
  });
});
