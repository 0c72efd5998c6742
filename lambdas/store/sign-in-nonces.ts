/**
 * Single use of sign-in-with-x nonces (docs/decisions/0020): an accepted sign-in writes `siwx-nonce#<nonce>` in the idempotency
 * table with a conditional put, so a sign-in header presented again — by its wallet's client or by whoever copied it —
 * is refused on every instance. The record outlives the message (TTL `expiresAt`): past it, the message's `issuedAt`
 * is too old to be accepted anyway.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { sendConditional } from './dynamo.js';
import { storeConfig } from '../shared/config.js';

/** Keys of this store in the idempotency table: never an idempotency scope or an AP2 checkout nonce. */
export const SIGN_IN_NONCE_PREFIX = 'siwx-nonce#';

export class SignInNonceStore {
  constructor(private readonly table = storeConfig().idempotencyTable ?? '') {}

  /** True when this call used the nonce; false when it was used before. `keepUntil`: Unix seconds. */
  async use(nonce: string, address: string, keepUntil: number): Promise<boolean> {
    return sendConditional(
      new PutCommand({
        TableName: this.table,
        Item: { pk: `${SIGN_IN_NONCE_PREFIX}${nonce}`, address, expiresAt: keepUntil },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }
}
