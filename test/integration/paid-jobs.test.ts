/**
 * The generation surface paid end to end with an unmodified x402 client against the embedded service:
 * 402 → sign → 202 + pollUrl → free polls → a real asset; `?async=false` → 200 with the asset.
 */
import { describe, expect, it } from 'vitest';
import { decodePaymentResponseHeader } from '@x402/fetch';
import { download, fetchFrom, freshBuyer, payingFetch, pollUntil, runtime, transfersFrom, usdcBalance } from '../support/buyer.js';
import { ffprobe, pngSize } from '../support/media.js';

const IP = '127.0.0.11';
const json = { 'Content-Type': 'application/json' };

describe('Paid image job (POST /agent/image, GET /agent/image/{jobId})', () => {
  it('accepts a paid call with 202 and a pollUrl, charges exactly the price, and polls to a real image', async () => {
    const info = runtime();
    const buyer = await freshBuyer();
    const pay = payingFetch(buyer.privateKey, IP);
    const before = await usdcBalance(buyer.address);

    const response = await pay(`${info.baseUrl}/agent/image`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ prompt: 'a red fox in a snowy forest', aspectRatio: '16:9' }),
    });
    expect(response.status).toBe(202);
    expect(response.headers.get('service-api-version')).toBe('1');
    const accepted = (await response.json()) as Record<string, unknown>;
    expect(accepted).toMatchObject({ status: 'queued', provider: 'local', imageUrl: null });
    expect(accepted.jobId).toEqual(expect.any(String));
    expect(accepted.pollUrl).toBe(`${info.baseUrl}/agent/image/${accepted.jobId}`);

    const receipt = decodePaymentResponseHeader(response.headers.get('payment-response')!);
    expect(receipt.success).toBe(true);
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await usdcBalance(buyer.address)).toBe(before - 150000n);
    // payTo is shared with the other files' buyers, so the buyer's own Transfer logs say where its money went.
    expect(await transfersFrom(buyer.address)).toEqual([{ to: info.payTo, value: 150000n }]);

    const plain = fetchFrom(IP);
    const done = await pollUntil(plain, String(accepted.pollUrl), (b) => b.status === 'completed' || b.status === 'failed');
    expect(done).toMatchObject({ jobId: accepted.jobId, status: 'completed', provider: 'local', pollUrl: null });
    const image = await download(plain, done.imageUrl);
    expect(image.status).toBe(200);
    expect(image.contentType).toBe('image/png');
    const size = pngSize(image.bytes);
    expect(size.width / size.height).toBeCloseTo(16 / 9, 1);
    // polling is free
    expect(await usdcBalance(buyer.address)).toBe(before - 150000n);
  });

  it('blocks with ?async=false and answers 200 with the poll shape carrying the asset', async () => {
    const info = runtime();
    const pay = payingFetch((await freshBuyer()).privateKey, IP);
    const response = await pay(`${info.baseUrl}/agent/image?async=false`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ prompt: 'blue ocean waves at dawn', outputFormat: 'jpeg', aspectRatio: '1:1' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, any>;
    expect(body).toMatchObject({ status: 'completed', pollUrl: null });
    const image = await download(fetchFrom(IP), body.imageUrl);
    expect(image.contentType).toBe('image/jpeg');
    expect(image.bytes.subarray(0, 2).toString('hex')).toBe('ffd8');
  });
});

describe('Asynchronous mode rules', () => {
  it('asyncMode: true switches async back on under ?async=false; ?async=1 counts as false (blocks)', async () => {
    const info = runtime();
    const pay = payingFetch((await freshBuyer()).privateKey, IP);
    const on = await pay(`${info.baseUrl}/agent/image?async=false`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ prompt: 'a paper boat', asyncMode: true }),
    });
    expect(on.status).toBe(202);
    expect((await on.json()).pollUrl).toEqual(expect.any(String));
    const one = await pay(`${info.baseUrl}/agent/image?async=1`, { method: 'POST', headers: json, body: JSON.stringify({ prompt: 'a kite' }) });
    expect(one.status).toBe(200);
    expect((await one.json()).status).toBe('completed');
  });
});

describe('Paid music job (POST /create-music, GET /api/songs/{songId})', () => {
  it('queues a public song whose audio_url is the cover image until the MP3 is ready', async () => {
    const info = runtime();
    const pay = payingFetch((await freshBuyer()).privateKey, IP);
    const response = await pay(`${info.baseUrl}/create-music`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ prompt: 'upbeat synthwave with driving drums', style: 'synthwave', make_instrumental: true, tags: 'retro,night' }),
    });
    expect(response.status).toBe(202);
    const accepted = (await response.json()) as Record<string, any>;
    expect(accepted.status).toMatch(/^(queued|processing)$/);
    expect(accepted.songId).toEqual(expect.any(String));
    expect(accepted.pollUrl).toBe(`${info.baseUrl}/api/songs/${accepted.songId}`);
    expect(accepted.shareUrl).toEqual(expect.stringContaining(accepted.songId));

    const plain = fetchFrom(IP);
    const first = await (await plain(accepted.pollUrl)).json();
    expect(first).toMatchObject({ id: accepted.songId, is_public: true, genre: 'synthwave', prompt: 'upbeat synthwave with driving drums' });
    if (first.model_version === 'pending') {
      expect(first.audio_url).toBe(first.image_url);
      expect(first.duration).toBe(0);
    }
    const song = await pollUntil(plain, accepted.pollUrl, (b) => b.model_version !== 'pending', 90_000);
    expect(song.model_version).not.toBe('failed');
    expect(song.duration).toBeGreaterThan(0);
    expect(song.audio_url).not.toBe(song.image_url);
    const mp3 = await download(plain, song.audio_url);
    expect(mp3.contentType).toBe('audio/mpeg');
    const probe = ffprobe(mp3.bytes, 'mp3');
    expect(probe.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('mp3');
    expect(Number(probe.format.duration)).toBeCloseTo(song.duration, 0);
    const cover = await download(plain, song.image_url);
    expect(cover.status).toBe(200);
    expect(cover.contentType).toMatch(/^image\//);

    const page = await plain(accepted.shareUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(song.audio_url);
  });

  it('answers 404 { error } for an unknown songId', async () => {
    const info = runtime();
    const response = await fetchFrom(IP)(`${info.baseUrl}/api/songs/does-not-exist`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
});

describe('Paid video job (POST /agent/video, GET /agent/video/{jobId})', () => {
  it('renders an 8-second 1280x720 MP4 with an audio track', async () => {
    const info = runtime();
    const pay = payingFetch((await freshBuyer()).privateKey, IP);
    const response = await pay(`${info.baseUrl}/agent/video`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ prompt: 'rain on a tin roof at night, distant thunder', durationSeconds: 12 }),
    });
    expect(response.status).toBe(202);
    const accepted = (await response.json()) as Record<string, any>;
    expect(accepted).toMatchObject({ status: 'queued', videoUrl: null, pollUrl: `${info.baseUrl}/agent/video/${accepted.jobId}` });
    const plain = fetchFrom(IP);
    const done = await pollUntil(plain, accepted.pollUrl, (b) => b.status === 'completed' || b.status === 'failed', 120_000);
    expect(done).toMatchObject({ status: 'completed', pollUrl: null, videoId: accepted.jobId });
    const mp4 = await download(plain, done.videoUrl);
    const probe = ffprobe(mp4.bytes, 'mp4');
    const video = probe.streams.find((s) => s.codec_type === 'video')!;
    expect([video.codec_name, video.width, video.height]).toEqual(['h264', 1280, 720]);
    expect(probe.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    expect(Number(probe.format.duration)).toBeCloseTo(8, 0);
  });

  it('answers 200 failed with pollUrl null for an unknown jobId', async () => {
    const info = runtime();
    const response = await fetchFrom(IP)(`${info.baseUrl}/agent/video/nope`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jobId: 'nope',
      status: 'failed',
      videoUrl: null,
      pollUrl: null,
      error: expect.any(String),
      etaSeconds: null,
    });
  });
});
