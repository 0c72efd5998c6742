/**
 * Job rows. A paid job is written `reserved` together with its nonce lock (before money moves), becomes `queued`
 * when settlement succeeds, `processing` when the render starts, and ends `completed` or `failed` (final).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ProductId } from '../products/catalog.js';
import type { OutputRole, RenderMetadata } from '../render/provider.js';
import { documentClient, sendConditional } from './dynamo.js';
import type { LedgerItem } from './ledger.js';
import { listOpen, transition, type OpenIndex } from './open-index.js';
import { storeConfig } from '../shared/config.js';

export type JobStatus = 'reserved' | 'queued' | 'processing' | 'completed' | 'failed';
export const FINAL_STATUSES: JobStatus[] = ['completed', 'failed'];

/**
 * The sparse index of open jobs: `openStatus` holds the status while a job is open (reserved, queued, processing)
 * and is removed when it ends, so the sweeper queries only open jobs (by status, oldest `updatedAt` first) instead of
 * scanning every job ever sold.
 */
export const OPEN_JOBS_INDEX = 'OpenJobs';
export const OPEN_JOBS_KEY = { partition: 'openStatus', sort: 'updatedAt' } as const;

/**
 * The sparse index of refunds still owed: `refundOpen` holds the refund's status while it is `pending` or `failed`
 * (removed once `refunded`), `refundAt` when it last changed; the sweeper retries them from here.
 */
export const OPEN_REFUNDS_INDEX = 'OpenRefunds';
export const OPEN_REFUNDS_KEY = { partition: 'refundOpen', sort: 'refundAt' } as const;

/**
 * The sparse index of webhooks not yet taken by a delivery: `webhookOpen` is `waiting` from the purchase of a job with
 * a webhook until its delivery's first attempt (then `delivering`), and removed once delivered or given up. The
 * sweeper starts the delivery of an ended job still `waiting` (its ender died before starting it, or none starts one:
 * a voided payment, a render the sweeper failed).
 */
export const OPEN_WEBHOOKS_INDEX = 'OpenWebhooks';
export const OPEN_WEBHOOKS_KEY = { partition: 'webhookOpen', sort: 'updatedAt' } as const;

/**
 * The index of a wallet's purchases (`GET /api/purchases`, docs/decisions/0020): `buyer` is the paying address in lower case,
 * set on jobs paid over x402 (a token-paid job has no wallet of its own), sorted by `createdAt`; it projects what a
 * purchase's summary shows, not the request.
 */
export const BUYER_JOBS_INDEX = 'ByBuyer';
export const BUYER_JOBS_KEY = { partition: 'buyer', sort: 'createdAt' } as const;
export const BUYER_JOBS_PROJECTION = ['product', 'status', 'amount', 'transaction', 'refund'] as const;

/** A job's webhook deliveries so far (docs/decisions/0018): exactly what its poll shows as `webhook`. */
export interface WebhookState {
  attempts: number;
  /** HTTP status of the last attempt; null before one, or when it got no answer. */
  lastStatus: number | null;
  /** ISO time of the next attempt; null when none is planned (not ended yet, delivered, or given up). */
  nextAttemptAt: string | null;
  delivered: boolean;
}

/** Where a job's webhook goes, never shown: the poll URL is a capability others may hold. */
export interface WebhookTarget {
  url: string;
  /** The generation API's base URL as the buyer called it, for the URLs in the delivered poll body. */
  base: string;
  /** Why the last attempt got no 2xx, and when it was (operators). */
  lastError?: string;
  lastAttemptAt?: string;
}

/** A failed paid job's refund, as the poll answers show it (`refund`, additive to the spec's shapes). */
export interface JobRefund {
  status: 'pending' | 'refunded' | 'failed';
  /** The refund's transaction (x402), once sent. */
  transaction?: string;
  /** Why the last attempt failed (operators; the poll shows only status and transaction). */
  reason?: string;
  /** Token payments: the issuer has no refund interface here, so the refund is recorded as owed. */
  owed?: 'token';
}

/** Jobs are kept 30 days; an expired id polls like an unknown one. */
export const JOB_TTL_SECONDS = 30 * 24 * 3600;

export interface JobRecord {
  jobId: string;
  product: ProductId;
  status: JobStatus;
  request: Record<string, unknown>;
  provider: string;
  payer?: string;
  /** x402 payer in lower case: the key of BUYER_JOBS_INDEX. */
  buyer?: string;
  paymentKind?: 'x402' | 'token';
  /**
   * The x402 transfer was answered on its preconfirmation and its sealed block has not been seen yet: nothing of the
   * job is delivered, and no refund is sent, until it has (docs/decisions/0021).
   */
  preconfirmed?: boolean;
  nonceKey?: string;
  /** x402: Unix seconds after which the authorization can no longer be used (the sweeper voids only after it). */
  validBefore?: number;
  transaction?: string;
  assets?: Partial<Record<OutputRole, string>>;
  metadata?: RenderMetadata;
  error?: string;
  /** Present (= status) only while the job is open: the key of the OPEN_JOBS_INDEX. */
  openStatus?: JobStatus;
  /** Base units paid for the job (x402: the authorization's value; tokens: the price charged). */
  amount?: string;
  refund?: JobRefund;
  /** Present (= refund.status) only while a refund is owed: the key of OPEN_REFUNDS_INDEX. */
  refundOpen?: 'pending' | 'failed';
  refundAt?: string;
  /** The render provider's own id of the job's render (a Bedrock request, a Gemini operation, a fal request), for operators. */
  providerJobId?: string;
  webhook?: WebhookState;
  webhookTarget?: WebhookTarget;
  /** The key of OPEN_WEBHOOKS_INDEX while the webhook is owed. */
  webhookOpen?: 'waiting' | 'delivering';
  /** ISO time a poll last claimed the job's reconciliation (claimReconcile); never moves `updatedAt`. */
  reconcileClaimedAt?: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: number;
}

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class JobStore {
  constructor(
    protected readonly table = storeConfig().jobsTable,
    protected readonly now: () => Date = () => new Date(),
  ) {}

  /** The ledger item that writes a new job `reserved`, in the same transaction as its payment lock. */
  reserveItem(job: JobRecord): LedgerItem {
    return { Put: { TableName: this.table, Item: { ...job, openStatus: job.status }, ConditionExpression: 'attribute_not_exists(jobId)' } };
  }

  /** The ledger item that makes a reserved job durable work (`queued`) with its receipt, as the payment settles. */
  /** `preconfirmed`: the transfer is preconfirmed, its sealed block still to come (docs/decisions/0021). */
  queueItem(jobId: string, transaction: string, preconfirmed = false): LedgerItem {
    return { Update: this.update(jobId, 'queued', ['reserved'], { transaction, ...(preconfirmed ? { preconfirmed: true } : {}) }) };
  }

  /**
   * The ledger item that voids a reserved job whose payment did not settle (final `failed`). `refusedToBuyer`: the
   * paying request itself was refused (a 402), so its buyer holds no webhook secret and its webhook is dropped (no
   * delivery), and it was never a purchase: it leaves the wallet's purchases (the `buyer` key of that sparse index).
   * A job voided later (its 202 given while the outcome was unknown) keeps both, and its end is delivered.
   */
  voidItem(jobId: string, reason: string, refusedToBuyer = false): LedgerItem {
    const remove = refusedToBuyer ? [OPEN_WEBHOOKS_KEY.partition, BUYER_JOBS_KEY.partition] : [];
    return { Update: this.update(jobId, 'failed', ['reserved'], { error: `Payment not settled: ${reason}` }, remove) };
  }

  /**
   * An id that is not a UUID (the only ids purchase mints) is unknown without a read: DynamoDB refuses a key over
   * 2048 bytes with a ValidationException, which would answer a poll of a hostile id with a 5xx.
   */
  async get(jobId: string): Promise<JobRecord | undefined> {
    if (!JOB_ID.test(jobId)) return undefined;
    const out = await documentClient().send(new GetCommand({ TableName: this.table, Key: { jobId }, ConsistentRead: true }));
    const item = out.Item as JobRecord | undefined;
    if (item && item.expiresAt * 1000 < this.now().getTime()) return undefined;
    return item;
  }

  /**
   * Claims a reserved job's reconciliation for one poll: true for at most one caller per `intervalSeconds`, across
   * every instance (a conditional write), so polls cost the chain one read per job per interval and two polls never
   * reconcile the same job at once. It leaves `updatedAt` alone: the sweeper's void grace counts from the reservation.
   */
  async claimReconcile(jobId: string, intervalSeconds: number): Promise<boolean> {
    const now = this.now();
    return sendConditional(
      new UpdateCommand({
        TableName: this.table,
        Key: { jobId },
        UpdateExpression: 'SET #claimed = :now',
        ConditionExpression: '#status = :reserved AND (attribute_not_exists(#claimed) OR #claimed <= :before)',
        ExpressionAttributeNames: { '#claimed': 'reconcileClaimedAt', '#status': 'status' },
        ExpressionAttributeValues: {
          ':now': now.toISOString(),
          ':before': new Date(now.getTime() - intervalSeconds * 1000).toISOString(),
          ':reserved': 'reserved',
        },
      }),
    );
  }

  /** Records the provider's id of the job's render (operators look renders up by it); never moves the job. */
  async recordProviderJob(jobId: string, providerJobId: string): Promise<void> {
    await documentClient().send(
      new UpdateCommand({
        TableName: this.table,
        Key: { jobId },
        UpdateExpression: 'SET providerJobId = :id',
        ConditionExpression: 'attribute_exists(jobId)',
        ExpressionAttributeValues: { ':id': providerJobId },
      }),
    );
  }

  /** Moves a durable job to `processing`; a final job is left alone (returns false). */
  async markProcessing(jobId: string): Promise<boolean> {
    return this.transition(jobId, 'processing', ['queued', 'processing'], {});
  }

  async complete(jobId: string, assets: JobRecord['assets'], metadata: RenderMetadata): Promise<boolean> {
    return this.transition(jobId, 'completed', ['queued', 'processing'], { assets, metadata });
  }

  /**
   * Ends a job `failed`. `refund`: the job was paid for (its payment settled), so a refund is owed from now on — set
   * in the same write, so no failed paid job is ever without its refund record.
   */
  async fail(jobId: string, error: string, from: JobStatus[] = ['reserved', 'queued', 'processing'], refund = false): Promise<boolean> {
    const at = this.now().toISOString();
    const owed = refund ? { refund: { status: 'pending' } satisfies JobRefund, refundOpen: 'pending', refundAt: at } : {};
    return this.transition(jobId, 'failed', from, { error, ...owed });
  }

  private async transition(jobId: string, to: JobStatus, from: JobStatus[], set: Record<string, unknown>): Promise<boolean> {
    return sendConditional(new UpdateCommand(this.update(jobId, to, from, set)));
  }

  /** The update that moves a job from one of `from` to `to` (touching `updatedAt`) and sets `set`'s defined members. */
  protected update(jobId: string, to: JobStatus, from: JobStatus[], set: Record<string, unknown>, remove: readonly string[] = []) {
    return transition(this.index(), { id: jobId, to, from, open: !FINAL_STATUSES.includes(to), at: this.now().toISOString(), set, remove });
  }

  private index(): OpenIndex {
    return { table: this.table, keyName: 'jobId', indexName: OPEN_JOBS_INDEX, keys: OPEN_JOBS_KEY };
  }

  /** Open jobs in the given states last touched before `olderThan` (for the sweeper), from the sparse index. */
  async listStale(olderThan: Date, statuses: JobStatus[] = ['queued', 'processing']): Promise<JobRecord[]> {
    return listOpen<JobRecord>(this.index(), statuses, olderThan);
  }
}
