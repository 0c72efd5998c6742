/**
 * Leases on settlement keys, so one key's nonce sequence stays correct across any number of function instances.
 * An instance holds a key's lease only to choose a nonce (docs/decisions/0005): it acquires the key, picks the
 * nonce, and `commit`s it, a write conditioned on its holder id (the fence) that records the nonce as sent-by a
 * deadline and gives the key back in the same write. The broadcast happens after the lease, so the next instance
 * takes the key while this one's transaction is on its way; the row's record of the nonces being sent is what keeps
 * the sequence whole: a broadcast the node refused is withdrawn (or, once others have sent after it, left as a gap
 * the next holder fills), and a nonce whose sender went silent past its deadline without reaching the node is a gap
 * the next holder fills. The holder id is fresh per acquisition; a lease its holder never committed or released (the
 * instance died) lapses after its time.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, isConditionalFailure } from './dynamo.js';
import { storeConfig } from '../shared/config.js';

export interface KeyLease {
  /** The key's address (lower case). */
  address: string;
  /** Unique to one acquisition (a fresh id per settlement): the fencing token the commit is conditioned on. */
  holder: string;
  /** Epoch ms (the holder's clock) when the lease lapses; the nonce must be committed before this. */
  until: number;
  /** The highest nonce committed with this key, and when (epoch ms): absent on a key never used through a lease. */
  lastNonce?: number;
  lastSentAt?: number;
  /** The nonces committed and not yet known to have reached the node, each with its sender's deadline (epoch ms). */
  sending: Map<number, number>;
}

/** What a commit writes: the nonce, the sender's deadline, and the row's new highest nonce. */
export interface NonceCommit {
  nonce: number;
  sendBy: number;
  /** max(lastNonce, nonce): a gap filled below the highest leaves the highest as it was. */
  lastNonce: number;
  /** Entries of `sending` found to have reached the node (or been filled): removed in the same write. */
  cleared: number[];
}

export interface SettlerLeases {
  /** The key's lease for `holder`, or undefined while another holder has it. */
  acquire(address: string, holder: string, leaseMs: number): Promise<KeyLease | undefined>;
  /**
   * The fence and the release in one write: records the nonce (as being sent until `sendBy`) and gives the key back,
   * only while `lease.holder` still holds it. False when another holder took the key meanwhile: the caller must then
   * not send.
   */
  commit(lease: KeyLease, commit: NonceCommit): Promise<boolean>;
  /** The broadcast reached the node: the nonce is no longer being sent. Never fails the caller. */
  sent(address: string, nonce: number): Promise<void>;
  /**
   * The node refused the broadcast (nothing entered its pool): takes the nonce back when nobody has committed or
   * holds the key since (the row's highest is still this nonce), restoring the record before it. False when
   * another holder came after: the nonce is then marked overdue, a gap for the next holder (or the caller) to fill.
   */
  withdraw(lease: KeyLease, nonce: number): Promise<boolean>;
  /** Gives the lease back without committing a nonce (nothing was sent). */
  release(lease: KeyLease): Promise<void>;
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
          // The map of nonces being sent exists from the first acquisition, so a commit can set one entry of it.
          UpdateExpression: 'SET holder = :holder, leaseUntil = :until, sending = if_not_exists(sending, :empty)',
          ConditionExpression: 'attribute_not_exists(holder) OR leaseUntil < :now',
          ExpressionAttributeValues: { ':holder': holder, ':until': now + leaseMs, ':now': now, ':empty': {} },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const item = out.Attributes ?? {};
      const sending = new Map(Object.entries((item.sending ?? {}) as Record<string, number>).map(([nonce, sendBy]) => [Number(nonce), Number(sendBy)]));
      return {
        address: address.toLowerCase(),
        holder,
        until: now + leaseMs,
        lastNonce: item.lastNonce as number | undefined,
        lastSentAt: item.lastSentAt as number | undefined,
        sending,
      };
    } catch (error) {
      if (isConditionalFailure(error)) return undefined;
      throw error;
    }
  }

  async commit(lease: KeyLease, commit: NonceCommit): Promise<boolean> {
    const cleared = commit.cleared.filter((nonce) => nonce !== commit.nonce);
    const names: Record<string, string> = { '#n': String(commit.nonce) };
    cleared.forEach((nonce, i) => (names[`#c${i}`] = String(nonce)));
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: lease.address },
          UpdateExpression: `SET lastNonce = :last, lastSentAt = :now, lastHolder = :holder, sending.#n = :sendBy, prevNonce = :prev, prevSentAt = :prevAt REMOVE holder, leaseUntil${cleared.map((_, i) => `, sending.#c${i}`).join('')}`,
          // Lapsed but not taken is still ours: nobody else has committed a nonce with the key since we chose ours.
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: {
            ':holder': lease.holder,
            ':last': commit.lastNonce,
            ':now': this.now(),
            ':sendBy': commit.sendBy,
            // What a withdrawal restores: the record as it was before this commit (-1: none).
            ':prev': lease.lastNonce ?? -1,
            ':prevAt': lease.lastSentAt ?? 0,
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalFailure(error)) return false;
      throw error;
    }
  }

  async sent(address: string, nonce: number): Promise<void> {
    await documentClient()
      .send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: address },
          UpdateExpression: 'REMOVE sending.#n',
          ExpressionAttributeNames: { '#n': String(nonce) },
        }),
      )
      .catch(() => undefined);
  }

  async withdraw(lease: KeyLease, nonce: number): Promise<boolean> {
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: lease.address },
          UpdateExpression: 'SET lastNonce = prevNonce, lastSentAt = prevSentAt REMOVE sending.#n',
          // Ours was the last commit (a gap filled after it would have made another the last), and nobody holds the key.
          ConditionExpression: 'lastHolder = :holder AND lastNonce = :nonce AND attribute_not_exists(holder)',
          ExpressionAttributeNames: { '#n': String(nonce) },
          ExpressionAttributeValues: { ':nonce': nonce, ':holder': lease.holder },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionalFailure(error)) throw error;
    }
    // Someone came after: the nonce is a gap now, overdue at once, for the next holder to fill. A failed write leaves
    // the entry with its deadline, overdue a little later.
    await documentClient().send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: lease.address },
        UpdateExpression: 'SET sending.#n = :overdue',
        ExpressionAttributeNames: { '#n': String(nonce) },
        ExpressionAttributeValues: { ':overdue': 0 },
      }),
    ).catch(() => undefined);
    return false;
  }

  async release(lease: KeyLease): Promise<void> {
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: lease.address },
          UpdateExpression: 'REMOVE holder, leaseUntil',
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': lease.holder },
        }),
      );
    } catch (error) {
      // The lease lapsed and another holder took it.
      if (!isConditionalFailure(error)) throw error;
    }
  }
}

function required(value: string | undefined): string {
  if (!value) throw new Error('Invalid storage configuration: SETTLER_LEASES_TABLE is required for self-settlement');
  return value;
}
