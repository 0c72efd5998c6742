import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoRequestSchema } from '../../../lambdas/products/catalog.js';
import { LocalRenderProvider } from '../../../lambdas/render/local/provider.js';
import { soundsIn } from '../../../lambdas/render/local/video/scene.js';
import { videoDimensions, videoRenderSeconds } from '../../../lambdas/render/local/video/render-video.js';
import type { RenderStatus } from '../../../lambdas/render/provider.js';
import { FileAssetStore } from '../../../lambdas/store/file-assets.js';
import { decodeAudio, decodeGreyFrame, ffmpegPath, probe, rms } from './media.js';

const dir = mkdtempSync(join(tmpdir(), 'video-render-'));
const store = new FileAssetStore(dir, 'http://127.0.0.1:9/assets');
const provider = new LocalRenderProvider(store, ffmpegPath);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function render(jobId: string, body: Record<string, unknown>) {
  await provider.submit({ jobId, product: 'agent_video', request: videoRequestSchema.parse(body) });
  const status = (await provider.check(jobId, 'agent_video')) as Extract<RenderStatus, { state: 'done' }>;
  expect(status.state).toBe('done');
  const asset = (await store.get(status.outputs[0].key!))!;
  return { status, contentType: asset.contentType, video: Buffer.from(asset.body) };
}

let rainy: Awaited<ReturnType<typeof render>>;
let silent: Awaited<ReturnType<typeof render>>;
beforeAll(async () => {
  rainy = await render('video-rain', { prompt: 'heavy rain falling on a mountain valley at dusk' });
  silent = await render('video-still', { prompt: 'a still, silent snowy forest', aspectRatio: '9:16', durationSeconds: 15 });
});

describe('Video request body: aspectRatio and durationSeconds (8 s render, 720p)', () => {
  it('16:9 is an 8 s H.264 1280×720 MP4 with an AAC audio track', () => {
    const info = probe(rainy.video, 'mp4');
    const v = info.streams.find((s) => s.codec_type === 'video')!;
    const a = info.streams.find((s) => s.codec_type === 'audio')!;
    expect(rainy.contentType).toBe('video/mp4');
    expect(info.format.format_name).toContain('mp4');
    expect(v).toMatchObject({ codec_name: 'h264', width: 1280, height: 720, pix_fmt: 'yuv420p' });
    expect(a.codec_name).toBe('aac');
    expect(Math.abs(Number(info.format.duration) - 8)).toBeLessThanOrEqual(0.2);
    expect(rainy.status.metadata).toMatchObject({ width: 1280, height: 720, durationSeconds: 8 });
    expect(rainy.status.metadata.title).toBeTruthy();
  });

  it('9:16 is 720×1280, and a requested 15 s is rendered at the supported 8 s', () => {
    const info = probe(silent.video, 'mp4');
    expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 720, height: 1280 });
    expect(Math.abs(Number(info.format.duration) - 8)).toBeLessThanOrEqual(0.2);
    expect(silent.status.metadata).toMatchObject({ width: 720, height: 1280, durationSeconds: 8 });
  });

  it('maps every allowed length to 8 s and every aspect ratio to a 720p frame', () => {
    for (const s of [3, 8, 15, undefined]) expect(videoRenderSeconds(s)).toBe(8);
    expect(videoDimensions('16:9')).toEqual({ width: 1280, height: 720 });
    expect(videoDimensions('9:16')).toEqual({ width: 720, height: 1280 });
    expect(videoDimensions('1:1')).toEqual({ width: 720, height: 720 });
  });

  it('moves: frames early and late in the clip differ', () => {
    const early = decodeGreyFrame(rainy.video, 1.5);
    const late = decodeGreyFrame(rainy.video, 6);
    let diff = 0;
    for (let i = 0; i < early.length; i++) diff += Math.abs(early[i] - late[i]);
    expect(diff / early.length).toBeGreaterThan(1);
  });
});

describe('Video audio is generated from the scene (a still silent scene renders near-silent)', () => {
  it('a prompt naming rain is far louder than a silent scene', () => {
    const rain = rms(decodeAudio(rainy.video, 'mp4'));
    const still = rms(decodeAudio(silent.video, 'mp4'));
    expect(rain).toBeGreaterThan(20 * still);
    expect(rain / 32768).toBeGreaterThan(0.03);
  });

  it('the silent scene is a low noise floor, not digital silence', () => {
    const still = decodeAudio(silent.video, 'mp4');
    const level = rms(still) / 32768;
    expect(level).toBeGreaterThan(0);
    expect(20 * Math.log10(level)).toBeLessThan(-50);
  });

  it('maps sound words to layers and names none for a still scene', () => {
    expect(soundsIn('a still, silent snowy forest')).toEqual([]);
    expect(soundsIn('thunderstorm over the ocean with seagulls')).toEqual(expect.arrayContaining(['rain', 'thunder', 'ocean', 'birds']));
    expect(soundsIn('busy street with traffic and a cheering crowd')).toEqual(expect.arrayContaining(['traffic', 'crowd']));
  });
});
