/**
 * agent_image rendered by the bedrock-stability adapter end to end on the embedded default, in its own process
 * (`RENDER_PROVIDER_AGENT_IMAGE=bedrock-stability`): a paid POST, the state machine running the adapter in the
 * Submit render task's instances under their synthesized IAM policy (bedrock:InvokeModel on the configured model,
 * enforced locally), `@aws-sdk/client-bedrock-runtime` talking to the Bedrock fake on loopback, the picture stored in
 * the local S3 bucket and served from it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded.js';
import { download, fetchFrom, payingFetch, pollUntil, type FetchLike } from '../support/buyer.js';
import { fundFromState } from '../../bin/fund.js';
import { MESSAGES } from '../../lambdas/render/bedrock-stability/provider.js';

const IP = '127.0.0.72';
const json = { 'Content-Type': 'application/json' };
let service: EmbeddedProcess;
let pay: FetchLike;

beforeAll(async () => {
  service = await startEmbeddedProcess({ env: { RENDER_PROVIDER_AGENT_IMAGE: 'bedrock-stability' } });
  // This process has its own chain: the buyer is funded in its state dir (freshBuyer funds the shared service's).
  const privateKey = generatePrivateKey();
  await fundFromState(service.stateDir, privateKeyToAccount(privateKey).address, 5_000_000n);
  pay = payingFetch(privateKey, IP);
}, 120_000);
afterAll(async () => {
  await service?.stop();
});

async function buyImage(body: Record<string, unknown>): Promise<{ jobId: string; pollUrl: string; provider: string }> {
  const response = await pay(`${service.info.baseUrl}/agent/image`, { method: 'POST', headers: json, body: JSON.stringify(body) });
  expect(response.status).toBe(202);
  return (await response.json()) as { jobId: string; pollUrl: string; provider: string };
}

const settled = (b: { status: string }) => b.status === 'completed' || b.status === 'failed';

describe('agent_image through bedrock-stability (embedded default, Bedrock fake)', () => {
  it('a paid 4:3 JPEG completes with provider bedrock-stability and a real 1088x816 JPEG (rendered 5:4, centre-cropped)', async () => {
    const accepted = await buyImage({ prompt: 'a red fox in the snow at dawn', aspectRatio: '4:3', outputFormat: 'jpeg' });
    expect(accepted.provider).toBe('bedrock-stability');
    const job = await pollUntil(fetchFrom(IP), accepted.pollUrl, settled, 90_000);
    expect(job, service.output().slice(-3000)).toMatchObject({ status: 'completed', provider: 'bedrock-stability', imageUrl: expect.any(String) });
    const image = await download(fetchFrom(IP), job.imageUrl);
    expect(image.status).toBe(200);
    expect(image.contentType).toBe('image/jpeg');
    expect([...image.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const decoded = jpeg.decode(image.bytes, { useTArray: true });
    expect([decoded.width, decoded.height]).toEqual([1088, 816]);
    // The task ran under its synthesized policy: no call was refused.
    expect(service.output()).not.toMatch(/\[iam\].*bedrock/);
  }, 120_000);

  it('a [fake:content-filter] prompt ends failed with the buyer-safe message, and the payment is refunded', async () => {
    const accepted = await buyImage({ prompt: 'a crowded market [fake:content-filter]' });
    const job = await pollUntil(fetchFrom(IP), accepted.pollUrl, (b) => b.status === 'failed' && b.refund?.status === 'refunded', 90_000);
    expect(job).toMatchObject({
      status: 'failed',
      provider: 'bedrock-stability',
      imageUrl: null,
      error: `Generation failed: ${MESSAGES.filtered}`,
      refund: { status: 'refunded', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    });
  }, 120_000);
});
