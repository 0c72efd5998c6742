/**
 * Single use of AP2 checkout nonces: the first authorized run of a checkout writes `ap2-checkout#<nonce>` in the
 * idempotency table with a conditional put (that table already serves every run function, so no grant is added);
 * any later presentation of the same checkout finds it and is refused as replayed. The record outlives the
 * checkout (TTL `expiresAt`), after which the checkout itself has expired.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { sendConditional } from './dynamo.js';
import { storeConfig } from '../shared/config.js';

/** Keys of this store in the idempotency table: never an X-Idempotency-Key scope (those start `run:`/`a2a:`…). */
export const CHECKOUT_NONCE_PREFIX = 'ap2-checkout#';
/** How long past the checkout's expiry the use is kept (clock skew of the mandates' checks). */
const KEEP_AFTER_EXPIRY_SECONDS = 3600;

export class CheckoutNonceStore {
  constructor(private readonly table = storeConfig().idempotencyTable ?? '') {}

  /** True when this call used the nonce; false when it was used before. */
  async use(nonce: string, checkoutExpiresAt: number, runScope: string, now: number): Promise<boolean> {
    return sendConditional(
      new PutCommand({
        TableName: this.table,
        Item: { pk: `${CHECKOUT_NONCE_PREFIX}${nonce}`, usedAt: now, scope: runScope, expiresAt: checkoutExpiresAt + KEEP_AFTER_EXPIRY_SECONDS },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }
}
