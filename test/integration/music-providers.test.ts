/**
 * A paid song rendered end to end by a model adapter: its own embedded process (`npm start` with
 * RENDER_PROVIDER_CREATE_MUSIC=<adapter>), an unmodified x402 client, the Submit/Check render task instances calling
 * the adapter under their synthesized IAM, the adapter calling the vendor's wire-level fake on loopback, the MP3 in
 * the local S3 bucket. A content-filter marker ends the song failed with the buyer-safe message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { fundFromState } from '../../bin/fund.js';
import { FAILURE } from '../../lambdas/render/song.js';
import { download, fetchFrom, payingFetch, pollUntil } from '../support/buyer.js';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded.js';
import { ffprobe, pngSize } from '../support/media.js';

const IP = '127.0.0.61';
const json = { 'Content-Type': 'application/json' };

const ADAPTERS = [
  { provider: 'minimax-music', model: 'music-2.6' },
  { provider: 'google-lyria', model: 'lyria-3-pro-preview' },
] as const;

describe.each(ADAPTERS)('create_music rendered by $provider through the embedded runtime', ({ provider, model }) => {
  let service: EmbeddedProcess;
  beforeAll(async () => {
    service = await startEmbeddedProcess({ env: { RENDER_PROVIDER_CREATE_MUSIC: provider } });
  });
  afterAll(async () => {
    await service?.stop();
  });

  /** A buyer of this process's chain, funded the way `npm run fund` funds one. */
  async function buyer(): Promise<Hex> {
    const privateKey = generatePrivateKey();
    await fundFromState(service.stateDir, privateKeyToAccount(privateKey).address, 5_000_000n);
    return privateKey;
  }

  async function buySong(body: Record<string, unknown>): Promise<string> {
    const pay = payingFetch(await buyer(), IP);
    const response = await pay(`${service.info.baseUrl}/create-music`, { method: 'POST', headers: json, body: JSON.stringify(body) });
    expect(response.status).toBe(202);
    return ((await response.json()) as { pollUrl: string }).pollUrl;
  }

  it(`a paid song completes with the model's MP3, its duration, a cover, and model_version ${model}`, async () => {
    const pollUrl = await buySong({ prompt: 'a short folk tune about rain on a tin roof', style: 'folk', vocal_gender: 'f', custom_mode: true, lyrics: 'Rain on the roof\nsinging me to sleep' });
    const plain = fetchFrom(IP);
    const song = await pollUntil(plain, pollUrl, (b) => b.model_version !== 'pending', 90_000);
    expect(song.model_version).toBe(model);
    expect(song.title).toBe('Rain Roof');
    const mp3 = await download(plain, song.audio_url);
    expect(mp3.contentType).toBe('audio/mpeg');
    const probe = ffprobe(mp3.bytes, 'mp3');
    expect(probe.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('mp3');
    expect(song.duration).toBeCloseTo(Number(probe.format.duration), 1);
    const cover = await download(plain, song.image_url);
    expect(cover.contentType).toBe('image/png');
    expect(pngSize(cover.bytes).width).toBeGreaterThan(0);
  });

  it('a prompt the model refuses ([fake:content-filter]) ends failed with the buyer-safe message', async () => {
    const pollUrl = await buySong({ prompt: 'a song the filter refuses [fake:content-filter]' });
    const song = await pollUntil(fetchFrom(IP), pollUrl, (b) => b.model_version !== 'pending', 90_000);
    expect(song.model_version).toBe('failed');
    expect(song.error).toBe(`Generation failed: ${FAILURE.filtered}`);
  });
});
