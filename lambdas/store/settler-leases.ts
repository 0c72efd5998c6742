/**
 * Leases on settlement keys, so one key's nonce sequence stays correct across any number of function instances.
 * An instance holds a key's lease only from choosing the nonce to handing the signed transaction to the node (a few
 * RPC round trips), never while waiting for a receipt; the lease row remembers the last nonce sent, so an instance
 * that reads a node lagging behind its own pending pool still takes the next one. A lease that its holder never
 * released (the instance died) lapses after its time. The holder id is fresh per acquisition, so it fences: `renew`
 * right before a broadcast succeeds only for the holder that still has the key (docs/decisions/0005, "Fencing").
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, isConditionalFailure } from './dynamo.js';
import { storeConfig } from '../shared/config.js';

export interface KeyLease {
  /** The key's address (lower case). */
  address: string;
  /** Unique to one acquisition (a fresh id per settlement): the fencing token every later write is conditioned on. */
  holder: string;
  /** Epoch ms (the holder's clock) when the lease lapses unless renewed; whatever it holds must end before this. */
  until: number;
  /** The last nonce sent with this key, and when (epoch ms): absent on a key never used through a lease. */
  lastNonce?: number;
  lastSentAt?: number;
}

export interface SettlerLeases {
  /** The key's lease for `holder`, or undefined while another holder has it. */
  acquire(address: string, holder: string, leaseMs: number): Promise<KeyLease | undefined>;
  /**
   * The fence before a broadcast: extends the lease to `leaseMs` from now only while `lease.holder` still holds it
   * (a conditional write on the holder, which is unique to one acquisition). Returns the new expiry, or undefined
   * when another holder took the key meanwhile (or it was released): the caller must then not send.
   */
  renew(lease: KeyLease, leaseMs: number): Promise<number | undefined>;
  /** Gives the lease back, recording the nonce it sent (if it sent one). */
  release(lease: KeyLease, sentNonce?: number): Promise<void>;
}

export class DynamoSettlerLeases implements SettlerLeases {
  constructor(
    private readonly table = required(storeConfig().settlerLeasesTable),
    private readonly now: () => number = Date.now,
  ) {}

  async acquire(address: string, holder: string, leaseMs: number): Promise<KeyLease | undefined> {
    const now = this.now();
    try {
      const out = await documentClient().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: address.toLowerCase() },
          UpdateExpression: 'SET holder = :holder, leaseUntil = :until',
          ConditionExpression: 'attribute_not_exists(holder) OR leaseUntil < :now',
          ExpressionAttributeValues: { ':holder': holder, ':until': now + leaseMs, ':now': now },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const item = out.Attributes ?? {};
      return { address: address.toLowerCase(), holder, until: now + leaseMs, lastNonce: item.lastNonce as number | undefined, lastSentAt: item.lastSentAt as number | undefined };
    } catch (error) {
      if (isConditionalFailure(error)) return undefined;
      throw error;
    }
  }

  async renew(lease: KeyLease, leaseMs: number): Promise<number | undefined> {
    const until = this.now() + leaseMs;
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: lease.address },
          UpdateExpression: 'SET leaseUntil = :until',
          // Lapsed but not taken is still ours: nobody else has sent with the key since we read its nonce.
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': lease.holder, ':until': until },
        }),
      );
      return until;
    } catch (error) {
      if (isConditionalFailure(error)) return undefined;
      throw error;
    }
  }

  async release(lease: KeyLease, sentNonce?: number): Promise<void> {
    const sent = sentNonce !== undefined;
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: lease.address },
          UpdateExpression: `${sent ? 'SET lastNonce = :nonce, lastSentAt = :now ' : ''}REMOVE holder, leaseUntil`,
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': lease.holder, ...(sent ? { ':nonce': sentNonce, ':now': this.now() } : {}) },
        }),
      );
    } catch (error) {
      // The lease lapsed and another holder took it: its record of the last nonce is the newer one.
      if (!isConditionalFailure(error)) throw error;
    }
  }
}

function required(value: string | undefined): string {
  if (!value) throw new Error('Invalid storage configuration: SETTLER_LEASES_TABLE is required for self-settlement');
  return value;
}
