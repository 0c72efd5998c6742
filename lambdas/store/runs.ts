/**
 * Agent runs: one row per run (paid, free or dry), so an operator finds any run by the id its buyer holds. A paid
 * run's row is written `running` in the same ledger transaction as its payment lock, and becomes `done` (with its
 * receipt and result) in the transaction that records the settlement, or `failed` in the one that releases the
 * lock: a run row never claims a payment the ledger does not hold. Paid runs are kept (no TTL); free and dry runs
 * expire after 30 days. The result is stored when it is at most 256 KB of JSON (DynamoDB items are at most 400 KB);
 * its SHA-256 always is.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { documentClient } from './dynamo.js';
import type { LedgerItem } from './ledger.js';
import { storeConfig } from '../shared/config.js';

export type RunStatus = 'running' | 'done' | 'failed' | 'settlement-unknown';
export type RunMode = 'paid' | 'free' | 'dry-run';

export interface RunRecord {
  runId: string;
  agent: string;
  agentVersion: string;
  engine: string;
  mode: RunMode;
  status: RunStatus;
  inputSha256: string;
  /** USDC base units, as a decimal string (what the run costs; 0 for free and dry runs). */
  cost: string;
  payer?: string;
  nonceKey?: string;
  transaction?: string;
  /** The result as JSON text, when at most MAX_STORED_RESULT bytes. */
  result?: string;
  resultSha256?: string;
  error?: string;
  createdAt: string;
  updatedAt: string;
  expiresAt?: number;
}

const MAX_STORED_RESULT = 256 * 1024;
const UNPAID_TTL_SECONDS = 30 * 24 * 3600;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class RunStore {
  constructor(
    private readonly table = required(storeConfig().runsTable),
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The ledger item that writes a paid run `running`, with its payment lock. */
  reserveItem(run: RunRecord): LedgerItem {
    return { Put: { TableName: this.table, Item: run, ConditionExpression: 'attribute_not_exists(runId)' } };
  }

  /** The ledger item that records a settled run `done`, with its receipt and result. */
  doneItem(runId: string, transaction: string, result: unknown): LedgerItem {
    return { Update: this.update(runId, 'done', { transaction, ...resultFields(result) }) };
  }

  /** The ledger item that closes a run whose payment did not settle, or whose work failed (no result kept). */
  failItem(runId: string, error: string): LedgerItem {
    return { Update: this.update(runId, 'failed', { error }) };
  }

  /** A run whose settlement was broadcast without a receipt: its result is withheld until the chain decides. */
  unknownItem(runId: string, error: string): LedgerItem {
    return { Update: this.update(runId, 'settlement-unknown', { error }) };
  }

  /** A free or dry run: written once, finished. */
  async recordUnpaid(run: RunRecord, result: unknown): Promise<void> {
    const expiresAt = Math.floor(this.now().getTime() / 1000) + UNPAID_TTL_SECONDS;
    await documentClient().send(new PutCommand({ TableName: this.table, Item: { ...run, ...resultFields(result), expiresAt } }));
  }

  async get(runId: string): Promise<RunRecord | undefined> {
    const out = await documentClient().send(new GetCommand({ TableName: this.table, Key: { runId }, ConsistentRead: true }));
    return out.Item as RunRecord | undefined;
  }

  private update(runId: string, to: RunStatus, set: Record<string, unknown>) {
    const names: Record<string, string> = { '#status': 'status', '#updatedAt': 'updatedAt' };
    const values: Record<string, unknown> = { ':to': to, ':now': this.now().toISOString(), ':running': 'running' };
    const assignments = ['#status = :to', '#updatedAt = :now'];
    for (const [key, value] of Object.entries(set)) {
      if (value === undefined) continue;
      names[`#${key}`] = key;
      values[`:${key}`] = value;
      assignments.push(`#${key} = :${key}`);
    }
    return {
      TableName: this.table,
      Key: { runId },
      UpdateExpression: `SET ${assignments.join(', ')}`,
      ConditionExpression: 'attribute_exists(runId) AND #status = :running',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
  }
}

function resultFields(result: unknown): { result?: string; resultSha256: string } {
  const text = JSON.stringify(result);
  return { ...(Buffer.byteLength(text) <= MAX_STORED_RESULT ? { result: text } : {}), resultSha256: sha256(text) };
}

function required(value: string | undefined): string {
  if (!value) throw new Error('RUNS_TABLE is not set');
  return value;
}
