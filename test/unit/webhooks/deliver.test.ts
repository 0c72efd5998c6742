/**
 * One delivery attempt of a job's webhook (lambdas/webhooks/deliver.ts), against fakes of the store and the POST: the
 * body and signature a receiver verifies with `standardwebhooks`, the schedule, what is recorded, and when it stops.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { deliverWebhook, RETRY_SCHEDULE_SECONDS, type DeliverDeps } from '../../../lambdas/webhooks/deliver.js';
import { startWebhook } from '../../../lambdas/jobs/webhook-start.js';
import { webhookSecret } from '../../../lambdas/jobs/job-secrets.js';
import type { JobRecord, WebhookState, WebhookTarget } from '../../../lambdas/store/jobs.js';
import type { WebhookAttempt } from '../../../lambdas/webhooks/post.js';

process.env.ASSETS_PUBLIC_URL ??= 'https://assets.test';
process.env.ASSETS_DIR ??= '/tmp/assets';

const KEY = Buffer.alloc(32, 7);
const JOB_ID = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
// Now (whole seconds): the library refuses a signature older than its tolerance (5 minutes).
const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);

function job(over: Partial<JobRecord> = {}, hook: Partial<WebhookState> = {}): JobRecord {
  return {
    jobId: JOB_ID,
    product: 'agent_image',
    status: 'completed',
    request: { prompt: 'p' },
    provider: 'local',
    assets: { image: `assets/${JOB_ID}/image.png` },
    webhook: { attempts: 0, lastStatus: null, nextAttemptAt: null, delivered: false, ...hook },
    webhookTarget: { url: 'https://hooks.example/x', base: 'https://api.test' },
    webhookOpen: 'waiting',
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
    expiresAt: 0,
    ...over,
  };
}

function deps(row: JobRecord | undefined, answers: WebhookAttempt[], recordWins = true) {
  const posts: { url: string; body: string; headers: Record<string, string> }[] = [];
  const records: { webhook: WebhookState; target: WebhookTarget; previous: number; open: boolean }[] = [];
  const d: DeliverDeps = {
    jobs: { get: async () => row },
    webhooks: {
      record: async (_id, webhook, target, previous, open) => {
        records.push({ webhook, target, previous, open });
        return recordWins;
      },
    },
    key: async () => KEY,
    post: async (url, body, headers) => {
      posts.push({ url, body, headers });
      return answers.shift() ?? { delivered: false, error: 'no answer scripted' };
    },
    policy: { allowLoopback: false },
    now: () => NOW,
  };
  return { d, posts, records };
}

describe('deliverWebhook', () => {
  it('POSTs the poll body signed with the job\'s secret (standardwebhooks verifies it), records a delivery and stops', async () => {
    const { d, posts, records } = deps(job(), [{ delivered: true, status: 204 }]);
    expect(await deliverWebhook(d, JOB_ID)).toEqual({ done: true });
    expect(posts).toHaveLength(1);
    const [post] = posts;
    expect(post.url).toBe('https://hooks.example/x');
    const verified = new Webhook(webhookSecret(KEY, JOB_ID)).verify(post.body, post.headers) as Record<string, unknown>;
    expect(verified).toMatchObject({ jobId: JOB_ID, status: 'completed', imageUrl: `https://assets.test/assets/${JOB_ID}/image.png` });
    expect(post.headers).toMatchObject({ 'webhook-id': `msg_${JOB_ID}`, 'webhook-timestamp': String(NOW.getTime() / 1000) });
    // Another job's secret does not verify it.
    expect(() => new Webhook(webhookSecret(KEY, 'another-job')).verify(post.body, post.headers)).toThrow();
    expect(records).toEqual([
      {
        previous: 0,
        open: false,
        webhook: { attempts: 1, lastStatus: 204, nextAttemptAt: null, delivered: true },
        target: { url: 'https://hooks.example/x', base: 'https://api.test', lastAttemptAt: NOW.toISOString() },
      },
    ]);
    // The delivered body is the poll body: it shows the deliveries so far, never where they go.
    expect(verified).toMatchObject({ webhook: { attempts: 0, delivered: false } });
    expect(post.body).not.toContain('hooks.example');
  });

  it('a refused attempt is recorded with the next one\'s time and the machine waits the schedule\'s first interval', async () => {
    const { d, records } = deps(job(), [{ delivered: false, status: 500 }]);
    expect(await deliverWebhook(d, JOB_ID)).toEqual({ done: false, waitSeconds: RETRY_SCHEDULE_SECONDS[0] });
    expect(records[0]).toMatchObject({
      previous: 0,
      open: true,
      webhook: { attempts: 1, lastStatus: 500, delivered: false, nextAttemptAt: new Date(NOW.getTime() + 5_000).toISOString() },
    });
  });

  it('no answer: lastStatus null and the reason kept for operators', async () => {
    const { d, records } = deps(job({}, { attempts: 2, nextAttemptAt: NOW.toISOString() }), [{ delivered: false, error: 'timed out after 10 s' }]);
    expect(await deliverWebhook(d, JOB_ID)).toEqual({ done: false, waitSeconds: RETRY_SCHEDULE_SECONDS[2] });
    expect(records[0].webhook).toMatchObject({ attempts: 3, lastStatus: null });
    expect(records[0].target).toMatchObject({ lastError: 'timed out after 10 s' });
    expect(records[0].previous).toBe(2);
  });

  it('the schedule spans more than a day, and the eighth failed attempt is the last', async () => {
    expect(RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * 3600);
    const { d, records } = deps(job({}, { attempts: 7, nextAttemptAt: NOW.toISOString() }), [{ delivered: false, status: 500 }]);
    expect(await deliverWebhook(d, JOB_ID)).toEqual({ done: true });
    expect(records[0]).toMatchObject({ open: false, webhook: { attempts: 8, nextAttemptAt: null, delivered: false } });
  });

  it('nothing to send: no job, no webhook, already delivered, or given up', async () => {
    for (const row of [undefined, job({ webhook: undefined, webhookTarget: undefined }), job({}, { delivered: true }), job({}, { attempts: 8, nextAttemptAt: null })]) {
      const { d, posts } = deps(row, []);
      expect(await deliverWebhook(d, JOB_ID)).toEqual({ done: true });
      expect(posts).toHaveLength(0);
    }
  });

  it('a job not ended yet is not announced: the machine waits and looks again', async () => {
    const { d, posts } = deps(job({ status: 'processing' }), []);
    expect(await deliverWebhook(d, JOB_ID)).toEqual({ done: false, waitSeconds: 60 });
    expect(posts).toHaveLength(0);
  });

  it('an attempt that lost the race to record (another delivery of the job recorded it) stops this delivery', async () => {
    const { d } = deps(job(), [{ delivered: false, status: 500 }], false);
    expect(await deliverWebhook(d, JOB_ID)).toEqual({ done: true });
  });
});

describe('startWebhook', () => {
  const starter = (fail = false) => {
    const started: string[] = [];
    return {
      started,
      start: async (jobId: string) => {
        if (fail) throw new Error('throttled');
        started.push(jobId);
        return 'started' as const;
      },
    };
  };

  it('starts an ended job\'s webhook still waiting; not an open job, one without a webhook, or one a delivery took', async () => {
    const s = starter();
    expect(await startWebhook(s, job())).toBe(true);
    expect(await startWebhook(s, job({ status: 'failed' }))).toBe(true);
    expect(await startWebhook(s, job({ status: 'processing' }))).toBe(false);
    expect(await startWebhook(s, job({ webhook: undefined, webhookTarget: undefined, webhookOpen: undefined }))).toBe(false);
    expect(await startWebhook(s, job({ webhookOpen: 'delivering' }))).toBe(false);
    expect(await startWebhook(s, undefined)).toBe(false);
    expect(s.started).toEqual([JOB_ID, JOB_ID]);
  });

  it('never throws: a start that failed is left to the sweeper', async () => {
    expect(await startWebhook(starter(true), job())).toBe(false);
  });
});

describe('JobStore.voidItem: the webhook of a purchase refused to its buyer goes with it, and so does its place in the wallet\'s purchases', () => {
  it('removes the OpenWebhooks and ByBuyer keys only when the paying request itself was refused', async () => {
    const { JobStore } = await import('../../../lambdas/store/jobs.js');
    const store = new JobStore('jobs');
    const refused = store.voidItem(JOB_ID, 'insufficient funds', true).Update!;
    expect(refused.UpdateExpression).toMatch(/ REMOVE #open, #webhookOpen, #buyer$/);
    expect(refused.ExpressionAttributeNames).toMatchObject({ '#open': 'openStatus', '#webhookOpen': 'webhookOpen', '#buyer': 'buyer' });
    // Voided later (its 202 was given while the outcome was unknown): the webhook stays, to be delivered.
    const later = store.voidItem(JOB_ID, 'authorization expired').Update!;
    expect(later.UpdateExpression).toMatch(/ REMOVE #open$/);
  });
});
