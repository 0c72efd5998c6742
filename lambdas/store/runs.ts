/**
 * Agent runs: one row per run (paid, free or dry), so an operator finds any run by the id its buyer holds. A paid
 * run's row is written `running` in the same ledger transaction as its payment lock, and becomes `done` (with its
 * receipt and result) in the transaction that records the settlement, or `failed` in the one that releases the
 * lock: a run row never claims a payment the ledger does not hold. Paid runs are kept (no TTL); free and dry runs
 * expire after 30 days. The result is stored when it is at most 256 KB of JSON (DynamoDB items are at most 400 KB);
 * its SHA-256 always is.
 *
 * An open paid run (`running`, or `settlement-unknown` until the chain decides) carries `openStatus`, the key of the
 * sparse OPEN_RUNS_INDEX, so the sweeper (lambdas/workflow/sweeper.ts) finds the runs whose function died before
 * its last write without scanning every run ever sold.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { documentClient } from './dynamo.js';
import type { LedgerItem, LedgerItems } from './ledger.js';
import { listOpen, transition, type OpenIndex } from './open-index.js';
import { storeConfig } from '../shared/config.js';

export type RunStatus = 'running' | 'done' | 'failed' | 'settlement-unknown';
/** `paid`: x402 (or AP2 + x402); `credit`: billed from a workspace's prepaid credit (MCP); the others move no money. */
export type RunMode = 'paid' | 'credit' | 'free' | 'dry-run';
/** The statuses a paid run can be left in; the others are final. */
export const OPEN_RUN_STATUSES: readonly RunStatus[] = ['running', 'settlement-unknown'];

/** The sparse index of open runs: `openStatus` (= status while open, removed when final), oldest `updatedAt` first. */
export const OPEN_RUNS_INDEX = 'OpenRuns';
export const OPEN_RUNS_KEY = { partition: 'openStatus', sort: 'updatedAt' } as const;

/** A wallet's paid runs (`GET /api/purchases`, docs/decisions/0020): `buyer` is the payer in lower case, by `createdAt`. */
export const BUYER_RUNS_INDEX = 'ByBuyer';
export const BUYER_RUNS_KEY = { partition: 'buyer', sort: 'createdAt' } as const;
export const BUYER_RUNS_PROJECTION = ['agent', 'status', 'cost', 'transaction', 'mode'] as const;

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
  /** The payer in lower case (paid runs): the key of BUYER_RUNS_INDEX. */
  buyer?: string;
  nonceKey?: string;
  /** The workspace whose credit paid (a `credit` run). */
  workspaceId?: string;
  transaction?: string;
  /** The result as JSON text, when at most MAX_STORED_RESULT bytes. */
  result?: string;
  resultSha256?: string;
  /** What each finding of the result rests on (the engine's evidence, the run's `outputs.evidence`), as JSON text. */
  evidence?: string;
  error?: string;
  /** Why a run ended without its usual fields (a run the sweeper reconciled from the chain has no result). */
  note?: string;
  /** Present (= status) only while a paid run is open: the key of the OPEN_RUNS_INDEX. */
  openStatus?: RunStatus;
  createdAt: string;
  updatedAt: string;
  expiresAt?: number;
}

const MAX_STORED_RESULT = 256 * 1024;
const UNPAID_TTL_SECONDS = 30 * 24 * 3600;
/**
 * A paid run's input is kept beside it (an item of its own, `input#<runId>`, expiring by the table's TTL) until the
 * run ends: a run whose function died after its transfer landed is finished from it when first fetched
 * (lambdas/http/agents/get-run.ts). At most this much JSON is kept (an item is at most 400 KB); a larger input is not.
 */
const MAX_KEPT_INPUT = 300 * 1024;
export const KEPT_INPUT_SECONDS = 7 * 24 * 3600;

/** The key of a run's kept input (never a run id: those start `run_`). */
export function keptInputKey(runId: string): string {
  return `input#${runId}`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class RunStore {
  constructor(
    private readonly table = required(storeConfig().runsTable),
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The ledger items that write a paid run `running` (and keep its input, when given), with its payment lock. */
  reserveItem(run: RunRecord, input?: unknown): LedgerItems {
    const items: LedgerItem[] = [{ Put: { TableName: this.table, Item: { ...run, openStatus: run.status }, ConditionExpression: 'attribute_not_exists(runId)' } }];
    const text = input === undefined ? undefined : JSON.stringify(input);
    if (text !== undefined && Buffer.byteLength(text) <= MAX_KEPT_INPUT) {
      const expiresAt = Math.floor(this.now().getTime() / 1000) + KEPT_INPUT_SECONDS;
      items.push({ Put: { TableName: this.table, Item: { runId: keptInputKey(run.runId), input: text, expiresAt } } });
    }
    return items;
  }

  /** A run's kept input (its JSON text), if it is still kept. */
  async keptInput(runId: string): Promise<string | undefined> {
    const out = await documentClient().send(new GetCommand({ TableName: this.table, Key: { runId: keptInputKey(runId) }, ConsistentRead: true }));
    return (out.Item as { input?: string } | undefined)?.input;
  }

  /**
   * Records the result of a run the sweeper found paid without one (its function died after the transfer), computed
   * from its kept input: once (on condition it has none yet), the note removed; then the input is dropped.
   */
  async finish(runId: string, result: unknown, evidence?: unknown[]): Promise<boolean> {
    const fields = resultFields(result, evidence);
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { runId },
          // A result too large to keep records its SHA-256 alone, as a paid run's does.
          UpdateExpression: `SET ${fields.result === undefined ? '' : '#result = :result, '}${fields.evidence === undefined ? '' : 'evidence = :evidence, '}resultSha256 = :sha, updatedAt = :at REMOVE note`,
          ConditionExpression: '#status = :done AND attribute_not_exists(#result) AND attribute_not_exists(resultSha256)',
          ExpressionAttributeNames: { '#result': 'result', '#status': 'status' },
          ExpressionAttributeValues: {
            ...(fields.result === undefined ? {} : { ':result': fields.result }),
            ...(fields.evidence === undefined ? {} : { ':evidence': fields.evidence }),
            ':sha': fields.resultSha256, ':at': this.now().toISOString(), ':done': 'done' },
        }),
      );
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
    await documentClient().send(new DeleteCommand({ TableName: this.table, Key: { runId: keptInputKey(runId) } }));
    return true;
  }

  /** Drops a run's kept input in the transaction that ends the run. */
  private dropInput(runId: string): LedgerItem {
    return { Delete: { TableName: this.table, Key: { runId: keptInputKey(runId) } } };
  }

  /**
   * The ledger item that records a settled run `done`, with its receipt and result; `engine` when what produced the
   * result is not the engine the run was reserved with (a model-reasoned run, ADR 0023).
   */
  doneItem(runId: string, transaction: string, result: unknown, engine?: string, evidence?: unknown[]): LedgerItems {
    return [{ Update: this.update(runId, 'done', ['running'], { transaction, ...resultFields(result, evidence), ...(engine ? { engine } : {}) }) }, this.dropInput(runId)];
  }

  /** The ledger item that closes a run whose payment did not settle, or whose work failed (no result kept). */
  /** `unlisted`: nothing was charged and the buyer was answered so (a 402, or the work's error): not a purchase, so it leaves the wallet's purchases (the `buyer` key of that sparse index). */
  failItem(runId: string, error: string, from: readonly RunStatus[] = ['running'], unlisted = false): LedgerItems {
    return [{ Update: this.update(runId, 'failed', from, { error }, unlisted ? [BUYER_RUNS_KEY.partition] : []) }, this.dropInput(runId)];
  }

  /**
   * A run whose settlement may have happened without a record of it (broadcast without a receipt; or, from the
   * sweeper, a run that never recorded its end): its result, when the run computed one, is kept in the row but
   * withheld (GET /api/runs/{runId} answers 202) until the chain decides.
   */
  unknownItem(runId: string, error: string, result?: unknown, evidence?: unknown[]): LedgerItem {
    return { Update: this.update(runId, 'settlement-unknown', ['running'], { error, ...(result === undefined ? {} : resultFields(result, evidence)) }) };
  }

  /**
   * The sweeper's: an open run whose authorization the chain shows as used ends `done` with the receipt the sweeper
   * could reconstruct. The result it kept while its settlement was unknown becomes the run's; `note` says why a run
   * has none (it never recorded one).
   */
  reconciledItem(runId: string, transaction: string, note?: string): LedgerItems {
    const done: LedgerItem = { Update: this.update(runId, 'done', OPEN_RUN_STATUSES, { transaction, note }) };
    // Without its result the run keeps its input: GET /api/runs/{runId} finishes it from there (RunStore.finish).
    return note === undefined ? [done, this.dropInput(runId)] : done;
  }

  /**
   * The ledger item that writes a credit-billed run `done` with its result, in the transaction of its debit
   * (lambdas/agents/credit-run.ts): the run exists, finished, exactly when its price left the balance. Kept (no TTL).
   */
  creditDoneItem(run: RunRecord, result: unknown, engine?: string, evidence?: unknown[]): LedgerItem {
    const item = { ...run, status: 'done', ...resultFields(result, evidence), ...(engine ? { engine } : {}), updatedAt: this.now().toISOString() };
    return { Put: { TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(runId)' } };
  }

  /** A free or dry run: written once, finished. */
  async recordUnpaid(run: RunRecord, result: unknown, evidence?: unknown[]): Promise<void> {
    const expiresAt = Math.floor(this.now().getTime() / 1000) + UNPAID_TTL_SECONDS;
    await documentClient().send(new PutCommand({ TableName: this.table, Item: { ...run, ...resultFields(result, evidence), expiresAt } }));
  }

  async get(runId: string): Promise<RunRecord | undefined> {
    const out = await documentClient().send(new GetCommand({ TableName: this.table, Key: { runId }, ConsistentRead: true }));
    return out.Item as RunRecord | undefined;
  }

  /** Open paid runs in the given states last touched before `olderThan` (for the sweeper), from the sparse index. */
  async listStale(olderThan: Date, statuses: readonly RunStatus[] = OPEN_RUN_STATUSES): Promise<RunRecord[]> {
    return listOpen<RunRecord>(this.index(), statuses, olderThan);
  }

  /** The update that moves a run from one of `from` to `to` (touching `updatedAt`, keeping `openStatus` in step). */
  private update(runId: string, to: RunStatus, from: readonly RunStatus[], set: Record<string, unknown>, remove: readonly string[] = []) {
    return transition(this.index(), { id: runId, to, from, open: OPEN_RUN_STATUSES.includes(to), at: this.now().toISOString(), set, remove });
  }

  private index(): OpenIndex {
    return { table: this.table, keyName: 'runId', indexName: OPEN_RUNS_INDEX, keys: OPEN_RUNS_KEY };
  }
}

/**
 * The stored result, its hash, and its evidence when there is some. The evidence is kept only beside a kept result
 * and within the same budget (it quotes the input, so it can be as long): a run answers its evidence with its result
 * or not at all.
 */
function resultFields(result: unknown, evidence?: unknown[]): { result?: string; resultSha256: string; evidence?: string } {
  const text = JSON.stringify(result);
  const kept = Buffer.byteLength(text) <= MAX_STORED_RESULT;
  const cited = kept && evidence !== undefined ? JSON.stringify(evidence) : undefined;
  const withEvidence = cited !== undefined && Buffer.byteLength(text) + Buffer.byteLength(cited) <= MAX_STORED_RESULT;
  return { ...(kept ? { result: text } : {}), resultSha256: sha256(text), ...(withEvidence ? { evidence: cited } : {}) };
}

function required(value: string | undefined): string {
  if (!value) throw new Error('RUNS_TABLE is not set');
  return value;
}
