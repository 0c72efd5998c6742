/**
 * Job rows. A paid job is written `reserved` together with its nonce lock (before money moves), becomes `queued`
 * when settlement succeeds, `processing` when the render starts, and ends `completed` or `failed` (final).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ProductId } from '../products/catalog.js';
import type { OutputRole, RenderMetadata } from '../render/provider.js';
import { documentClient, isConditionalFailure } from './dynamo.js';
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

/** Jobs are kept 30 days; an expired id polls like an unknown one. */
export const JOB_TTL_SECONDS = 30 * 24 * 3600;

export interface JobRecord {
  jobId: string;
  product: ProductId;
  status: JobStatus;
  request: Record<string, unknown>;
  provider: string;
  payer?: string;
  paymentKind?: 'x402' | 'token';
  nonceKey?: string;
  /** x402: Unix seconds after which the authorization can no longer be used (the sweeper voids only after it). */
  validBefore?: number;
  transaction?: string;
  assets?: Partial<Record<OutputRole, string>>;
  metadata?: RenderMetadata;
  error?: string;
  /** Present (= status) only while the job is open: the key of the OPEN_JOBS_INDEX. */
  openStatus?: JobStatus;
  /** The render provider's own id of the job's render (a Bedrock request, a Gemini operation, a fal request), for operators. */
  providerJobId?: string;
  /** ISO time a poll last claimed the job's reconciliation (claimReconcile); never moves `updatedAt`. */
  reconcileClaimedAt?: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: number;
}

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class JobStore {
  constructor(
    private readonly table = storeConfig().jobsTable,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The ledger item that writes a new job `reserved`, in the same transaction as its payment lock. */
  reserveItem(job: JobRecord): LedgerItem {
    return { Put: { TableName: this.table, Item: { ...job, openStatus: job.status }, ConditionExpression: 'attribute_not_exists(jobId)' } };
  }

  /** The ledger item that makes a reserved job durable work (`queued`) with its receipt, as the payment settles. */
  queueItem(jobId: string, transaction: string): LedgerItem {
    return { Update: this.update(jobId, 'queued', ['reserved'], { transaction }) };
  }

  /** The ledger item that voids a reserved job whose payment did not settle (final `failed`). */
  voidItem(jobId: string, reason: string): LedgerItem {
    return { Update: this.update(jobId, 'failed', ['reserved'], { error: `Payment not settled: ${reason}` }) };
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
    try {
      await documentClient().send(
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
      return true;
    } catch (error) {
      if (isConditionalFailure(error)) return false;
      throw error;
    }
  }

  /** Moves a durable job to `processing`; a final job is left alone (returns false). */
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

  async markProcessing(jobId: string): Promise<boolean> {
    return this.transition(jobId, 'processing', ['queued', 'processing'], {});
  }

  async complete(jobId: string, assets: JobRecord['assets'], metadata: RenderMetadata): Promise<boolean> {
    return this.transition(jobId, 'completed', ['queued', 'processing'], { assets, metadata });
  }

  async fail(jobId: string, error: string, from: JobStatus[] = ['reserved', 'queued', 'processing']): Promise<boolean> {
    return this.transition(jobId, 'failed', from, { error });
  }

  private async transition(jobId: string, to: JobStatus, from: JobStatus[], set: Record<string, unknown>): Promise<boolean> {
    try {
      await documentClient().send(new UpdateCommand(this.update(jobId, to, from, set)));
      return true;
    } catch (error) {
      if (isConditionalFailure(error)) return false;
      throw error;
    }
  }

  /** The update that moves a job from one of `from` to `to` (touching `updatedAt`) and sets `set`'s defined members. */
  private update(jobId: string, to: JobStatus, from: JobStatus[], set: Record<string, unknown>) {
    return transition(this.index(), { id: jobId, to, from, open: !FINAL_STATUSES.includes(to), at: this.now().toISOString(), set });
  }

  private index(): OpenIndex {
    return { table: this.table, keyName: 'jobId', indexName: OPEN_JOBS_INDEX, keys: OPEN_JOBS_KEY };
  }

  /** Open jobs in the given states last touched before `olderThan` (for the sweeper), from the sparse index. */
  async listStale(olderThan: Date, statuses: JobStatus[] = ['queued', 'processing']): Promise<JobRecord[]> {
    return listOpen<JobRecord>(this.index(), statuses, olderThan);
  }
}
