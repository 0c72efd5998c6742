/**
 * Workspaces and their prepaid credit (docs/decisions/0013). Two tables:
 *
 * - workspaces, keyed by the SHA-256 of the workspace key (the key itself is shown once and never stored), holding
 *   the workspace id and its `balance` in integer USDC base units;
 * - the credit ledger, keyed by workspace id and an entry key that names the effect (`topup#<nonceKey>`,
 *   `debit#<runId>`, `credit-back#<runId>`), so an effect can be written once only, forever: every balance change is
 *   one TransactWriteItems of its entry (a Put on condition it is absent, or a status move) and the balance update
 *   (a debit on condition `balance >= amount`). The balance never goes negative and a retried write never applies
 *   twice. The `ByTime` index lists a workspace's entries newest first; the sparse `OpenTopUps` index holds top-ups
 *   whose payment is not decided yet (the sweeper's).
 *
 * A top-up is an item of the purchase skeleton (lambdas/credits/topup.ts): its entry is written `reserved` with the
 * payment lock, `credited` together with the balance increment when the settlement lands, deleted when nothing moved,
 * `pending` when the outcome is unknown (the sweeper credits it when the chain shows our transfer).
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, failedConditionIndex } from './dynamo.js';
import type { LedgerItem } from './ledger.js';
import { listOpen } from './open-index.js';
import { storeConfig } from '../shared/config.js';
import { DependencyError } from '../shared/errors.js';

export interface Workspace {
  /** SHA-256 (hex) of the workspace key: the row's key. */
  keyHash: string;
  workspaceId: string;
  /** USDC base units. */
  balance: bigint;
  createdAt: string;
}

export type EntryKind = 'topup' | 'debit' | 'credit-back';
/** A top-up's status: `reserved` with its payment lock, `pending` (outcome unknown), `credited` (the balance has it). */
export type TopUpStatus = 'reserved' | 'pending' | 'credited';
export const OPEN_TOPUP_STATUSES: readonly TopUpStatus[] = ['reserved', 'pending'];

export interface LedgerEntry {
  workspaceId: string;
  /** The effect's key: `topup#<nonceKey>`, `debit#<runId>`, `credit-back#<runId>`. */
  entryKey: string;
  kind: EntryKind;
  /** USDC base units, positive; a debit takes it off the balance, the others add it. */
  amount: bigint;
  /** When the balance changed (a top-up not credited yet: when it was reserved). The ByTime index's sort key. */
  at: string;
  status?: TopUpStatus;
  tier?: number;
  payer?: string;
  nonceKey?: string;
  /** The settlement's transaction (a credited top-up). */
  transaction?: string;
  runId?: string;
  /** The agent a debit paid for. */
  agent?: string;
  reason?: string;
  /** The workspace row's key, on a top-up: the sweeper credits the workspace from the entry alone. */
  keyHash?: string;
  openStatus?: TopUpStatus;
  createdAt: string;
  updatedAt: string;
}

/** The ledger's indexes (lib/storage.ts creates them from these). */
export const LEDGER_KEY = { partition: 'workspaceId', sort: 'entryKey' } as const;
export const LEDGER_BY_TIME_INDEX = 'ByTime';
export const LEDGER_BY_TIME_SORT = 'at';
export const OPEN_TOPUPS_INDEX = 'OpenTopUps';
export const OPEN_TOPUPS_KEY = { partition: 'openStatus', sort: 'updatedAt' } as const;

/** The balance does not cover the debit (or the workspace is gone): nothing was written. */
export class InsufficientCreditError extends Error {
  override name = 'InsufficientCreditError';
  constructor(
    readonly balance: bigint,
    readonly price: bigint,
  ) {
    super(`Insufficient credit: the balance is ${balance} base units, the call costs ${price}`);
  }
}

/** A credit-back whose debit does not exist (or differs in amount): nothing was written. */
export class NoSuchDebitError extends Error {
  override name = 'NoSuchDebitError';
}

export type DebitOutcome = { type: 'debited' } | { type: 'already-debited' };
export type CreditBackOutcome = { type: 'credited-back' } | { type: 'already-credited-back' };

export interface EntryPage {
  entries: LedgerEntry[];
  /** The ByTime index's key to continue after, when there may be more. */
  next?: Record<string, unknown>;
}

/** How often a debit is retried when DynamoDB cancels it for a concurrent transaction on the same balance. */
const CONFLICT_ATTEMPTS = 40;

export class CreditStore {
  constructor(
    private readonly workspaces = required(storeConfig().workspacesTable, 'WORKSPACES_TABLE'),
    private readonly ledger = required(storeConfig().creditLedgerTable, 'CREDIT_LEDGER_TABLE'),
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A new workspace with no credit; its key hash must be new (a UUID's collision is a bug, not a retry). */
  async createWorkspace(keyHash: string, workspaceId: string): Promise<Workspace> {
    const createdAt = this.now().toISOString();
    await documentClient().send(
      new PutCommand({
        TableName: this.workspaces,
        Item: { keyHash, workspaceId, balance: 0n, createdAt },
        ConditionExpression: 'attribute_not_exists(keyHash)',
      }),
    );
    return { keyHash, workspaceId, balance: 0n, createdAt };
  }

  async findWorkspace(keyHash: string): Promise<Workspace | undefined> {
    const out = await documentClient().send(new GetCommand({ TableName: this.workspaces, Key: { keyHash }, ConsistentRead: true }));
    if (!out.Item) return undefined;
    return { keyHash, workspaceId: String(out.Item.workspaceId), balance: BigInt(out.Item.balance as number), createdAt: String(out.Item.createdAt) };
  }

  /** A page of the workspace's entries, newest first. */
  async listEntries(workspaceId: string, limit: number, after?: Record<string, unknown>): Promise<EntryPage> {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: this.ledger,
        IndexName: LEDGER_BY_TIME_INDEX,
        KeyConditionExpression: '#ws = :ws',
        ExpressionAttributeNames: { '#ws': LEDGER_KEY.partition },
        ExpressionAttributeValues: { ':ws': workspaceId },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: after,
      }),
    );
    return { entries: (out.Items ?? []).map(toEntry), ...(out.LastEvaluatedKey ? { next: out.LastEvaluatedKey } : {}) };
  }

  async getEntry(workspaceId: string, entryKey: string): Promise<LedgerEntry | undefined> {
    const out = await documentClient().send(new GetCommand({ TableName: this.ledger, Key: { workspaceId, entryKey }, ConsistentRead: true }));
    return out.Item ? toEntry(out.Item) : undefined;
  }

  /** A ledger entry written once: its key (workspace, effect) makes a retried write fail instead of applying twice. */
  private newEntry(item: Record<string, unknown> & { workspaceId: string; entryKey: string }): LedgerItem {
    return { Put: { TableName: this.ledger, Item: item, ConditionExpression: 'attribute_not_exists(entryKey)' } };
  }

  /**
   * The balance moved by `delta` base units, in the transaction of the entry that explains it. A debit (delta < 0)
   * is conditional on the balance covering it, so a balance never goes negative; its failure returns the old row.
   */
  private balanceBy(keyHash: string, delta: bigint): LedgerItem {
    const Key = { keyHash };
    return delta < 0n
      ? {
          Update: {
            TableName: this.workspaces,
            Key,
            UpdateExpression: 'SET balance = balance - :price',
            ConditionExpression: 'attribute_exists(keyHash) AND balance >= :price',
            ExpressionAttributeValues: { ':price': -delta },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        }
      : {
          Update: {
            TableName: this.workspaces,
            Key,
            UpdateExpression: 'SET balance = balance + :amount',
            ConditionExpression: 'attribute_exists(keyHash)',
            ExpressionAttributeValues: { ':amount': delta },
          },
        };
  }

  // --- top-ups: the purchase skeleton's entries -------------------------------------------------------------------

  /** The top-up's entry, written `reserved` with its payment lock (nothing credited yet). */
  reserveTopUpItem(workspace: Pick<Workspace, 'keyHash' | 'workspaceId'>, topUp: { nonceKey: string; amount: bigint; tier: number; payer: string }): LedgerItem {
    const at = this.now().toISOString();
    const item = {
      workspaceId: workspace.workspaceId,
      entryKey: topUpKey(topUp.nonceKey),
      kind: 'topup',
      status: 'reserved',
      openStatus: 'reserved',
      amount: topUp.amount,
      tier: topUp.tier,
      payer: topUp.payer,
      nonceKey: topUp.nonceKey,
      keyHash: workspace.keyHash,
      at,
      createdAt: at,
      updatedAt: at,
    };
    return this.newEntry(item);
  }

  /**
   * The settled top-up: its entry `credited` with the transaction, and the balance increment, in the transaction that
   * records the receipt. The entry moves only from an open status, so the increment applies once whoever records it
   * (the request, or the sweeper after an unknown outcome) and however often it is retried.
   */
  creditTopUpItems(entry: Pick<LedgerEntry, 'workspaceId' | 'entryKey' | 'keyHash' | 'amount'>, transaction: string): LedgerItem[] {
    if (!entry.keyHash) throw new Error(`top-up entry ${entry.entryKey} names no workspace row`);
    const now = this.now().toISOString();
    return [
      {
        Update: {
          TableName: this.ledger,
          Key: { workspaceId: entry.workspaceId, entryKey: entry.entryKey },
          UpdateExpression: 'SET #status = :credited, #tx = :tx, #at = :now, updatedAt = :now REMOVE openStatus',
          ConditionExpression: 'attribute_exists(entryKey) AND #status IN (:reserved, :pending)',
          ExpressionAttributeNames: { '#status': 'status', '#tx': 'transaction', '#at': LEDGER_BY_TIME_SORT },
          ExpressionAttributeValues: { ':credited': 'credited', ':tx': transaction, ':now': now, ':reserved': 'reserved', ':pending': 'pending' },
        },
      },
      this.balanceBy(entry.keyHash, entry.amount),
    ];
  }

  /** Nothing moved: the top-up's entry is removed (the ledger lists money, and none came). */
  voidTopUpItem(entry: Pick<LedgerEntry, 'workspaceId' | 'entryKey'>): LedgerItem {
    return {
      Delete: {
        TableName: this.ledger,
        Key: { workspaceId: entry.workspaceId, entryKey: entry.entryKey },
        ConditionExpression: '#status IN (:reserved, :pending)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':reserved': 'reserved', ':pending': 'pending' },
      },
    };
  }

  /** Money may have moved: the top-up waits `pending` (in the OpenTopUps index) until the chain decides. */
  pendingTopUpItem(entry: Pick<LedgerEntry, 'workspaceId' | 'entryKey'>, reason: string): LedgerItem {
    return {
      Update: {
        TableName: this.ledger,
        Key: { workspaceId: entry.workspaceId, entryKey: entry.entryKey },
        UpdateExpression: 'SET #status = :pending, openStatus = :pending, reason = :reason, updatedAt = :now',
        ConditionExpression: '#status = :reserved',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending', ':reserved': 'reserved', ':reason': reason, ':now': this.now().toISOString() },
      },
    };
  }

  /** Top-ups still open (reserved, pending) last touched before `olderThan`, for the sweeper. */
  async listOpenTopUps(olderThan: Date, statuses: readonly TopUpStatus[] = OPEN_TOPUP_STATUSES): Promise<LedgerEntry[]> {
    const rows = await listOpen<Record<string, unknown>>(
      { table: this.ledger, keyName: LEDGER_KEY.sort, indexName: OPEN_TOPUPS_INDEX, keys: OPEN_TOPUPS_KEY },
      statuses,
      olderThan,
    );
    return rows.map(toEntry);
  }

  // --- debits and credit-backs (credit-billed calls) ---------------------------------------------------------------

  /**
   * Takes `price` off the balance for the call `runId`, once: the entry `debit#<runId>` and the balance update in one
   * transaction, the update on condition `balance >= price`, with `also` (what the debit pays for: a credit-billed
   * run's record). A retry of an applied debit answers `already-debited`; a balance short of the price throws
   * InsufficientCreditError (with the balance, read from the failed condition).
   */
  async debit(
    workspace: Pick<Workspace, 'keyHash' | 'workspaceId'>,
    runId: string,
    price: bigint,
    also: { agent?: string; items?: readonly LedgerItem[] } = {},
  ): Promise<DebitOutcome> {
    if (price <= 0n) throw new Error('a debit takes a positive price');
    const at = this.now().toISOString();
    const entry = { workspaceId: workspace.workspaceId, entryKey: debitKey(runId), kind: 'debit', amount: price, runId, at, createdAt: at, updatedAt: at };
    const items: LedgerItem[] = [
      this.newEntry(also.agent ? { ...entry, agent: also.agent } : entry),
      this.balanceBy(workspace.keyHash, -price),
      ...(also.items ?? []),
    ];
    const failed = await this.transact(items);
    if (failed === undefined) return { type: 'debited' };
    if (failed.index === 0) return { type: 'already-debited' };
    if (failed.index === 1) throw new InsufficientCreditError(failed.balance ?? 0n, price);
    throw new Error(`debit ${runId}: what it pays for could not be written (item ${failed.index - 2} of also.items)`);
  }

  /**
   * Gives a debited call's price back when the call failed on our side: the entry `credit-back#<runId>` (once) and the
   * balance increment, on condition the debit exists with that amount.
   */
  async creditBack(workspace: Pick<Workspace, 'keyHash' | 'workspaceId'>, runId: string, amount: bigint, reason: string): Promise<CreditBackOutcome> {
    const at = this.now().toISOString();
    const items: LedgerItem[] = [
      this.newEntry({ workspaceId: workspace.workspaceId, entryKey: `credit-back#${runId}`, kind: 'credit-back', amount, runId, reason, at, createdAt: at, updatedAt: at }),
      {
        ConditionCheck: {
          TableName: this.ledger,
          Key: { workspaceId: workspace.workspaceId, entryKey: debitKey(runId) },
          ConditionExpression: 'attribute_exists(entryKey) AND amount = :amount',
          ExpressionAttributeValues: { ':amount': amount },
        },
      },
      this.balanceBy(workspace.keyHash, amount),
    ];
    const failed = await this.transact(items);
    if (failed === undefined) return { type: 'credited-back' };
    if (failed.index === 0) return { type: 'already-credited-back' };
    throw new NoSuchDebitError(`no debit of ${amount} for ${runId} in workspace ${workspace.workspaceId}`);
  }

  /**
   * One balance transaction; a cancellation for a concurrent transaction on the same items (TransactionConflict) is
   * retried with jittered backoff: it applied nothing. Returns the item whose condition failed, if one did.
   */
  private async transact(items: LedgerItem[]): Promise<{ index: number; balance?: bigint } | undefined> {
    for (let attempt = 1; ; attempt++) {
      try {
        await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
        return undefined;
      } catch (error) {
        const index = failedConditionIndex(error);
        if (index >= 0) {
          const old = (error as TransactionCanceledException).CancellationReasons?.[index]?.Item as Record<string, { N?: string }> | undefined;
          return { index, ...(old?.balance?.N !== undefined ? { balance: BigInt(old.balance.N) } : {}) };
        }
        if (!isTransactionConflict(error) || attempt >= CONFLICT_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 10 * attempt)));
      }
    }
  }
}

export function topUpKey(nonceKey: string): string {
  return `topup#${nonceKey}`;
}

export function debitKey(runId: string): string {
  return `debit#${runId}`;
}

/** Cancelled only because another transaction held an item (the document client raises it as a DependencyError). */
function isTransactionConflict(error: unknown): boolean {
  const cancelled = error instanceof DependencyError ? error.cause : error;
  return (
    cancelled instanceof TransactionCanceledException &&
    (cancelled.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict')
  );
}

function toEntry(item: Record<string, unknown>): LedgerEntry {
  return { ...(item as unknown as LedgerEntry), amount: BigInt(item.amount as number) };
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`Invalid storage configuration: ${name} is required`);
  return value;
}
