/**
 * Signed completion webhooks (docs/decisions/0018), end to end on the embedded runtime's real parts: a buyer pays with the
 * official `@x402/fetch` client and a `webhook` in the body; the paid 202 gives the job's `whsec_` secret; when the job
 * ends, the webhook machine (the synthesised ASL on the local Step Functions, its task in its own function instances,
 * its AWS calls checked against its policy) POSTs the job's poll body to a receiver on loopback, which verifies every
 * delivery with the official `standardwebhooks` library. A URL inside a network is a 422 that charges nothing.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedRuntime } from '../../lib/local/runtime.js';
import { chainReader, paidJobThatFails, until } from '../support/refunds.js';
import { cancel, fundedBuyer, jobOf, sweepLater } from '../support/cancel.js';

interface Delivery {
  headers: Record<string, string>;
  body: string;
}

/** A webhook receiver on loopback answering each delivery with the next of `statuses` (the last one repeats). */
async function receiver(statuses: number[]) {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = statuses[Math.min(deliveries.length - 1, statuses.length - 1)];
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/paycall?receiver=token-123`, deliveries, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let runtime: EmbeddedRuntime;
let stateDir: string;
const closers: (() => Promise<void>)[] = [];
/** While set, every render task waits for it (as a full render reservation holds a job `queued` on AWS). */
let hold: { released: Promise<void>; release: () => void } | undefined;
function holdRenders() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  hold = { released, release };
  return () => {
    hold = undefined;
    release();
  };
}

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'webhooks-'));
  runtime = await startEmbedded({
    generationPort: 0,
    chainPort: 0,
    stateDir,
    log: () => {},
    renderWaitMs: 50,
    sweepIntervalMs: 0,
    webhookWaitMs: 100,
    beforeTask: async (stateName) => {
      if (hold && stateName.startsWith('Submit render')) await hold.released;
    },
  });
  // The sweeper's variable naming the refund wallet's secret (sweepLater runs the sweeper's pass here).
  const { REFUND_ENV } = await import('../../lambdas/payments/refund.js');
  process.env[REFUND_ENV.secretId] = 'paycall/refund-key';
});

afterAll(async () => {
  hold?.release();
  for (const close of closers) await close();
  await runtime?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

async function buyImage(webhook: string) {
  const { address, pay } = await fundedBuyer(runtime, 1_000_000n);
  const response = await pay(`${runtime.info.baseUrl}/agent/image`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ prompt: 'a lighthouse at dusk', webhook }),
  });
  return { address, response, body: (await response.json()) as Record<string, any> };
}

const poll = async (url: string) => (await (await fetch(url)).json()) as Record<string, any>;

describe('Signed completion webhooks', () => {
  it('a completed job POSTs its poll body, signed: standardwebhooks verifies it with the 202\'s secret, and the poll shows it delivered', async () => {
    const hook = await receiver([204]);
    closers.push(hook.close);
    const { response, body } = await buyImage(hook.url);
    expect(response.status).toBe(202);
    expect(body.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // The request the render gets has no webhook in it: it is the job's, not the render's.
    const { JobStore } = await import('../../lambdas/store/jobs.js');
    expect((await new JobStore().get(body.jobId))?.request).not.toHaveProperty('webhook');

    await until(async () => hook.deliveries.length, (n) => n >= 1, 'the webhook');
    const [delivery] = hook.deliveries;
    const payload = new Webhook(body.webhookSecret).verify(delivery.body, delivery.headers) as Record<string, any>;
    expect(payload).toMatchObject({ jobId: body.jobId, status: 'completed', imageUrl: expect.stringContaining(`/assets/`) });
    expect(delivery.headers['webhook-id']).toBe(`msg_${body.jobId}`);
    expect(delivery.headers['content-type']).toBe('application/json');
    // Another job's secret does not verify it.
    const other = await buyImage(hook.url);
    expect(() => new Webhook(other.body.webhookSecret).verify(delivery.body, delivery.headers)).toThrow();

    const polled = await until(() => poll(body.pollUrl.replace(/\/$/, '')), (p) => p.webhook?.delivered === true, 'the poll to show the delivery');
    expect(polled.webhook).toEqual({ attempts: 1, lastStatus: 204, nextAttemptAt: null, delivered: true });
    // The poll shows neither the URL nor the secret.
    expect(JSON.stringify(polled)).not.toContain('receiver=token-123');
    expect(JSON.stringify(polled)).not.toContain('whsec_');
  });

  it('a receiver that fails three times then answers 200: four signed attempts, exactly one successful delivery recorded, no more attempts', async () => {
    const hook = await receiver([500, 503, 502, 200]);
    closers.push(hook.close);
    const { body } = await buyImage(hook.url);
    const polled = await until(() => poll(body.pollUrl), (p) => p.webhook?.delivered === true, 'the fourth attempt');
    expect(polled.webhook).toEqual({ attempts: 4, lastStatus: 200, nextAttemptAt: null, delivered: true });
    expect(hook.deliveries).toHaveLength(4);
    for (const delivery of hook.deliveries) {
      expect(new Webhook(body.webhookSecret).verify(delivery.body, delivery.headers)).toMatchObject({ jobId: body.jobId, status: 'completed' });
      expect(delivery.headers['webhook-id']).toBe(`msg_${body.jobId}`);
    }
    // The machine has ended: no fifth attempt comes.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(hook.deliveries).toHaveLength(4);
  });

  it('a failed paid job\'s webhook carries its failure and its refund', async () => {
    const hook = await receiver([204]);
    closers.push(hook.close);
    const { jobId } = await paidJobThatFails(runtime, undefined, { url: hook.url, base: runtime.info.baseUrl });
    await until(async () => hook.deliveries.length, (n) => n >= 1, 'the failed job\'s webhook');
    const { webhookSecret, serviceKey } = await import('../../lambdas/jobs/job-secrets.js');
    const payload = new Webhook(webhookSecret(await serviceKey(), jobId)).verify(hook.deliveries[0].body, hook.deliveries[0].headers);
    expect(payload).toMatchObject({ jobId, status: 'failed', error: expect.any(String), refund: { status: expect.stringMatching(/pending|refunded/) } });
  });

  it('a canceled job\'s webhook arrives too: failed, "canceled", its refund owed', async () => {
    const hook = await receiver([204]);
    closers.push(hook.close);
    const release = holdRenders();
    try {
      const { body } = await buyImage(hook.url);
      expect((await cancel(body.cancelUrl, body.cancelToken)).status).toBe(200);
    } finally {
      release();
    }
    await until(async () => hook.deliveries.length, (n) => n >= 1, 'the canceled job\'s webhook');
    const [delivery] = hook.deliveries;
    const payload = JSON.parse(delivery.body) as Record<string, any>;
    const { webhookSecret, serviceKey } = await import('../../lambdas/jobs/job-secrets.js');
    expect(new Webhook(webhookSecret(await serviceKey(), payload.jobId)).verify(delivery.body, delivery.headers)).toMatchObject({ status: 'failed', error: 'canceled', refund: { status: 'pending' } });
  });

  it('an ended job whose ender died before starting its delivery: the sweeper, running as its function, starts it', async () => {
    const hook = await receiver([204]);
    closers.push(hook.close);
    // A completed job written as its ender would leave it had it died right after its final write: `waiting`, no
    // delivery started.
    const { randomUUID } = await import('node:crypto');
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient } = await import('../../lambdas/store/dynamo.js');
    const { storeConfig } = await import('../../lambdas/shared/config.js');
    const jobId = randomUUID();
    const at = new Date(Date.now() - 120_000).toISOString();
    await documentClient().send(
      new PutCommand({
        TableName: storeConfig().jobsTable,
        Item: {
          jobId,
          product: 'agent_image',
          status: 'completed',
          request: { prompt: 'p' },
          provider: 'local',
          assets: { image: `assets/${jobId}/image.png` },
          webhook: { attempts: 0, lastStatus: null, nextAttemptAt: null, delivered: false },
          webhookTarget: { url: hook.url, base: runtime.info.baseUrl },
          webhookOpen: 'waiting',
          createdAt: at,
          updatedAt: at,
          expiresAt: Math.floor(Date.now() / 1000) + 3600,
        },
      }),
    );
    const swept = await sweepLater();
    expect(swept.webhooksStarted).toContain(jobId);
    await until(async () => hook.deliveries.length, (n) => n >= 1, 'the swept job\'s webhook');
    const { webhookSecret, serviceKey } = await import('../../lambdas/jobs/job-secrets.js');
    expect(new Webhook(webhookSecret(await serviceKey(), jobId)).verify(hook.deliveries[0].body, hook.deliveries[0].headers)).toMatchObject({ jobId, status: 'completed' });
    // Taken: the next sweep starts nothing for it.
    await until(async () => (await jobOf(jobId))?.webhookOpen, (open) => open === undefined, 'the delivery to end');
    expect((await sweepLater()).webhooksStarted).not.toContain(jobId);
  });

  it.each([
    ['a private address', 'https://10.0.0.5/hook'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a name that resolves to loopback, over https', 'https://localhost.:1/hook'],
    ['plain http to a public host', 'http://example.com/hook'],
    ['not a URL', 'not a url'],
  ])('a webhook at %s is a 422 at the paid POST, and nothing is charged', async (_what, webhook) => {
    const { address, response, body } = await buyImage(webhook);
    if (webhook.startsWith('https://localhost')) {
      // Loopback is the embedded default's allowance (its receivers run here): this one is accepted, not refused.
      expect(response.status).toBe(202);
      return;
    }
    expect(response.status).toBe(422);
    expect(body.detail).toEqual([expect.objectContaining({ loc: ['body', 'webhook'] })]);
    expect(await chainReader(runtime).balanceOf(address)).toBe(1_000_000n);
  });
});
