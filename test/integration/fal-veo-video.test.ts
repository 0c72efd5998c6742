/**
 * agent_video rendered by the fal-veo adapter end to end on the embedded default, in its own process
 * (`RENDER_PROVIDER_AGENT_VIDEO=fal-veo`): a paid POST, the state machine (Submit render ▸ Wait ▸ Check render …)
 * running the adapter in its task instances under their synthesized IAM policies (the fal key read from the local
 * Secrets Manager by its template's secret name), `@fal-ai/client` talking to the fal queue fake on loopback, the
 * video stored in the local S3 bucket — and a refused render refunded on the local chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, http, parseAbi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded.js';
import { download, fetchFrom, payingFetch, pollUntil, type FetchLike } from '../support/buyer.js';
import { fundFromState } from '../../bin/fund.js';
import { ffprobe } from '../support/media.js';
import { MESSAGES } from '../../lambdas/render/fal-veo/provider.js';

const IP = '127.0.0.64';
const PRICE = 4_990_000n;
const json = { 'Content-Type': 'application/json' };
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)']);
let service: EmbeddedProcess;
let pay: FetchLike;
let buyer: Hex;

beforeAll(async () => {
  service = await startEmbeddedProcess({ env: { RENDER_PROVIDER_AGENT_VIDEO: 'fal-veo' } });
  // This process has its own chain: the buyer is funded in its state dir.
  const privateKey = generatePrivateKey();
  buyer = privateKeyToAccount(privateKey).address;
  await fundFromState(service.stateDir, buyer, 20_000_000n);
  pay = payingFetch(privateKey, IP);
}, 120_000);
afterAll(async () => {
  await service?.stop();
});

function balance(): Promise<bigint> {
  const client = createPublicClient({ transport: http(service.info.rpcUrl, { retryCount: 0 }) });
  return client.readContract({ address: service.info.usdcAddress, abi: erc20, functionName: 'balanceOf', args: [buyer] });
}

async function buyVideo(body: Record<string, unknown>): Promise<{ jobId: string; pollUrl: string; provider: string }> {
  const response = await pay(`${service.info.baseUrl}/agent/video`, { method: 'POST', headers: json, body: JSON.stringify(body) });
  expect(response.status).toBe(202);
  return (await response.json()) as { jobId: string; pollUrl: string; provider: string };
}

describe('agent_video through fal-veo (embedded default, fal queue fake)', () => {
  it('a paid 9:16 clip completes with provider fal-veo and a real 720x1280 8 s MP4 with audio', async () => {
    const before = await balance();
    const accepted = await buyVideo({ prompt: 'a tall waterfall roars into a pool, birds call', aspectRatio: '9:16', durationSeconds: 6 });
    expect(accepted.provider).toBe('fal-veo');
    const job = await pollUntil(fetchFrom(IP), accepted.pollUrl, (b) => b.status === 'completed' || b.status === 'failed', 90_000);
    expect(job, service.output().slice(-3000)).toMatchObject({ status: 'completed', provider: 'fal-veo', videoUrl: expect.any(String) });
    const video = await download(fetchFrom(IP), job.videoUrl);
    expect(video.status).toBe(200);
    expect(video.contentType).toBe('video/mp4');
    const probe = ffprobe(video.bytes, 'mp4');
    const stream = probe.streams.find((s) => s.codec_type === 'video')!;
    expect([stream.width, stream.height]).toEqual([720, 1280]);
    expect(probe.streams.some((s) => s.codec_type === 'audio')).toBe(true);
    expect(Number(probe.format.duration)).toBeCloseTo(8, 0);
    expect(await balance()).toBe(before - PRICE);
    // The tasks ran under their synthesized policies: no call was refused.
    expect(service.output()).not.toMatch(/\[iam\]/);
  }, 120_000);

  it('a [fake:content-filter] prompt ends failed with the buyer-safe message, is refunded, and the buyer ends where they started', async () => {
    const before = await balance();
    const accepted = await buyVideo({ prompt: 'a crowded market [fake:content-filter]' });
    const job = await pollUntil(fetchFrom(IP), accepted.pollUrl, (b) => b.status === 'failed' && b.refund?.status === 'refunded', 90_000);
    expect(job, service.output().slice(-3000)).toMatchObject({
      status: 'failed',
      provider: 'fal-veo',
      videoUrl: null,
      error: `Generation failed: ${MESSAGES.filtered}`,
      refund: { status: 'refunded', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    });
    expect(await balance()).toBe(before);
  }, 120_000);
});
