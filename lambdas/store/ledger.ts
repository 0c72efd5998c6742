/**
 * The payment ledger: one row per authorization (x402: network, asset, payer and EIP-3009 nonce; a token: issuer
 * and token id). Its three moves — lock, mark settled, mark failed — are each one DynamoDB transaction that also
 * carries the purchased item (a job row, later an agent-run row or a credit increment), so a lock never exists
 * without its purchase, and a settled payment always has its item and its receipt.
 *
 *   lock         the row is written `locked` (condition: no row yet) with the item, before any money moves;
 *   charging     a token's charge is about to be sent (the sweeper must know whether it was ever attempted);
 *   settled      the receipt (transaction) is recorded with the item's update, and kept (its TTL removed);
 *   failed       nothing moved: the row is deleted (the buyer may retry with the same authorization); or money
 *                may have moved: the row stays, `uncertain`, so the authorization can never pay twice.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, failedConditionIndex, isConditionalFailure } from './dynamo.js';
import { storeConfig } from '../shared/config.js';

/** One more item of a ledger transaction (a Put, Update, Delete or ConditionCheck on another table). */
export type LedgerItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
/** What a purchased item writes in one ledger move: one entry, or several (a credit top-up: its entry and the balance). */
export type LedgerItems = LedgerItem | readonly LedgerItem[];

export type LockState = 'locked' | 'charging' | 'settled' | 'uncertain';

export interface PaymentLock {
  nonceKey: string;
  /** USDC base units. */
  amount: bigint;
  payer: string;
  /** What the payment buys, e.g. `job#<jobId>`: where the sweeper and an operator find the item. */
  purchase: string;
}

/** The authorization was already used (or is being used right now) for another purchase. */
export class PaymentAlreadyUsedError extends Error {
  override name = 'PaymentAlreadyUsedError';
  constructor() {
    super('Payment authorization already used');
  }
}

/** The purchased item's own condition failed (for example a job row that moved on): a lost race, not a reuse. */
export class PurchaseConflictError extends Error {
  override name = 'PurchaseConflictError';
}

export interface PaymentLedger {
  lock(lock: PaymentLock, item?: LedgerItems): Promise<void>;
  markCharging(nonceKey: string): Promise<void>;
  markSettled(nonceKey: string, transaction: string, item?: LedgerItems): Promise<void>;
  markFailed(nonceKey: string, reason: string, outcome: 'nothing-moved' | 'may-have-moved', item?: LedgerItems): Promise<void>;
  state(nonceKey: string): Promise<LockState | undefined>;
}

/** Locks and uncertain rows outlive any authorization's validity window by far; settled receipts never expire. */
const LEDGER_TTL_SECONDS = 365 * 24 * 3600;

export class DynamoPaymentLedger implements PaymentLedger {
  constructor(
    private readonly table = required(storeConfig().paymentsTable, 'PAYMENTS_TABLE'),
    private readonly now: () => Date = () => new Date(),
  ) {}

  async lock(lock: PaymentLock, item?: LedgerItems): Promise<void> {
    const at = this.now();
    const row: LedgerItem = {
      Put: {
        TableName: this.table,
        Item: {
          pk: lock.nonceKey,
          state: 'locked' satisfies LockState,
          purchase: lock.purchase,
          payer: lock.payer,
          amount: lock.amount.toString(),
          createdAt: at.toISOString(),
          expiresAt: Math.floor(at.getTime() / 1000) + LEDGER_TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    await this.transact([row, item], (index) => (index === 0 ? new PaymentAlreadyUsedError() : undefined));
  }

  async markCharging(nonceKey: string): Promise<void> {
    await this.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: nonceKey },
        UpdateExpression: 'SET #state = :charging, chargedAt = :now',
        ConditionExpression: '#state = :locked',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':charging': 'charging', ':locked': 'locked', ':now': this.now().toISOString() },
      }),
    );
  }

  /** A single write whose failed condition means the row is not in the state the purchase left it in. */
  private async send(command: UpdateCommand): Promise<void> {
    try {
      await documentClient().send(command);
    } catch (error) {
      if (isConditionalFailure(error)) throw new PurchaseConflictError(`the ledger row is no longer locked`, { cause: error });
      throw error;
    }
  }

  /** `transaction` is the hash, or `reconciled` when the sweeper learnt from the chain that the authorization was used. */
  async markSettled(nonceKey: string, transaction: string, item?: LedgerItems): Promise<void> {
    const row: LedgerItem = {
      Update: {
        TableName: this.table,
        Key: { pk: nonceKey },
        // A receipt is the record of a sale: kept, not expired with the lock's TTL.
        UpdateExpression: 'SET #state = :settled, #tx = :tx, settledAt = :now REMOVE expiresAt',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#state': 'state', '#tx': 'transaction' },
        ExpressionAttributeValues: { ':settled': 'settled', ':tx': transaction, ':now': this.now().toISOString() },
      },
    };
    await this.transact([row, item]);
  }

  async markFailed(nonceKey: string, reason: string, outcome: 'nothing-moved' | 'may-have-moved', item?: LedgerItems): Promise<void> {
    // A settled payment is never released or marked uncertain, whatever the caller's item says.
    const row: LedgerItem =
      outcome === 'nothing-moved'
        ? {
            Delete: {
              TableName: this.table,
              Key: { pk: nonceKey },
              ConditionExpression: 'attribute_not_exists(pk) OR #state <> :settled',
              ExpressionAttributeNames: { '#state': 'state' },
              ExpressionAttributeValues: { ':settled': 'settled' },
            },
          }
        : {
            Update: {
              TableName: this.table,
              Key: { pk: nonceKey },
              UpdateExpression: 'SET #state = :uncertain, reason = :reason',
              ConditionExpression: 'attribute_exists(pk) AND #state <> :settled',
              ExpressionAttributeNames: { '#state': 'state' },
              ExpressionAttributeValues: { ':uncertain': 'uncertain', ':reason': reason, ':settled': 'settled' },
            },
          };
    await this.transact([row, item]);
  }

  async state(nonceKey: string): Promise<LockState | undefined> {
    const out = await documentClient().send(new GetCommand({ TableName: this.table, Key: { pk: nonceKey }, ConsistentRead: true }));
    return out.Item?.state as LockState | undefined;
  }

  private async transact(items: (LedgerItems | undefined)[], onCondition?: (index: number) => Error | undefined): Promise<void> {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: items.flat().filter((i): i is LedgerItem => i !== undefined) }));
    } catch (error) {
      const index = failedConditionIndex(error);
      if (index < 0) throw error;
      throw onCondition?.(index) ?? new PurchaseConflictError(`ledger transaction item ${index} failed its condition`, { cause: error });
    }
  }
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`Invalid storage configuration: ${name} is required`);
  return value;
}
