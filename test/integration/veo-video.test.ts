/**
 * agent_video rendered by the google-veo adapter end to end on the embedded default: a paid POST, the state machine
 * (Submit render ▸ Wait ▸ Check render …) running the adapter in its task instances under their synthesized IAM
 * policies, `@google/genai` talking to the Gemini fake on loopback, the video stored in the local S3 bucket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded.js';
import { download, fetchFrom, payingFetch, pollUntil, type FetchLike } from '../support/buyer.js';
import { fundFromState } from '../../bin/fund.js';
import { ffprobe } from '../support/media.js';
import { MESSAGES } from '../../lambdas/render/google-veo/provider.js';

const IP = '127.0.0.62';
const json = { 'Content-Type': 'application/json' };
let service: EmbeddedProcess;
let pay: FetchLike;

beforeAll(async () => {
  service = await startEmbeddedProcess({ env: { RENDER_PROVIDER_AGENT_VIDEO: 'google-veo' } });
  const privateKey = generatePrivateKey();
  await fundFromState(service.stateDir, privateKeyToAccount(privateKey).address, 20_000_000n);
  pay = payingFetch(privateKey, IP);
}, 120_000);
afterAll(async () => {
  await service?.stop();
});

async function buyVideo(body: Record<string, unknown>): Promise<{ jobId: string; pollUrl: string; provider: string }> {
  const response = await pay(`${service.info.baseUrl}/agent/video`, { method: 'POST', headers: json, body: JSON.stringify(body) });
  expect(response.status).toBe(202);
  return (await response.json()) as { jobId: string; pollUrl: string; provider: string };
}

describe('agent_video through google-veo (embedded default, Gemini fake)', () => {
  it('a paid 1:1 clip completes with provider google-veo and a real 720x720 MP4 with audio', async () => {
    const accepted = await buyVideo({ prompt: 'a lighthouse at dusk, waves crash, a foghorn sounds', aspectRatio: '1:1', durationSeconds: 10 });
    expect(accepted.provider).toBe('google-veo');
    const job = await pollUntil(fetchFrom(IP), accepted.pollUrl, (b) => b.status === 'completed' || b.status === 'failed', 90_000);
    expect(job).toMatchObject({ status: 'completed', provider: 'google-veo', videoUrl: expect.any(String) });
    const video = await download(fetchFrom(IP), job.videoUrl);
    expect(video.status).toBe(200);
    expect(video.contentType).toBe('video/mp4');
    const probe = ffprobe(video.bytes, 'mp4');
    const stream = probe.streams.find((s) => s.codec_type === 'video')!;
    expect([stream.width, stream.height]).toEqual([720, 720]);
    expect(probe.streams.some((s) => s.codec_type === 'audio')).toBe(true);
    expect(Number(probe.format.duration)).toBeCloseTo(8, 0);
  }, 120_000);

  it('a [fake:content-filter] prompt ends failed with the buyer-safe message', async () => {
    const accepted = await buyVideo({ prompt: 'a crowded market [fake:content-filter]' });
    const job = await pollUntil(fetchFrom(IP), accepted.pollUrl, (b) => b.status === 'completed' || b.status === 'failed', 90_000);
    expect(job).toMatchObject({ status: 'failed', videoUrl: null, error: `Generation failed: ${MESSAGES.filtered}` });
  }, 120_000);
});
