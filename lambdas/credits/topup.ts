/**
 * A credit top-up (spec: `POST /api/gateway/topup`), on the payment core's purchase skeleton
 * (lambdas/payments/core/purchase.ts, docs/decisions/0011 and 0013) with the top-up as its item:
 *  1. lock the authorization and write the top-up's ledger entry `reserved`: one transaction, before money moves;
 *  2. settle through the payment core:
 *     - refused / unavailable: nothing moved; the entry is removed with the lock → 402 / 503;
 *     - unknown outcome: money may have moved; the entry becomes `pending` and the lock `uncertain` → 503; the
 *       sweeper credits it when the chain shows our transfer (or removes it when the buyer canceled);
 *  3. settled: the receipt, the entry `credited` and the balance increment in one transaction → 200.
 * The entry is keyed by the authorization's nonce key, and every move of it is conditional on its status, so one
 * settlement credits exactly once: a replayed payment fails the lock, a retried or concurrent record fails the
 * entry's condition, and whoever records it (the request or the sweeper) writes the increment in the same
 * transaction as the entry.
 */
import type { AcceptedPayment } from '../payments/core/types.js';
import { purchase, type PurchasedItem, type PurchaseSkeletonDeps } from '../payments/core/purchase.js';
import type { PaymentReceipt } from '../payments/types.js';
import { topUpKey, type CreditStore, type Workspace } from '../store/credits.js';
import { logger } from '../shared/logger.js';
import { annotate } from '../shared/tracing.js';
import { TOPUP_TIERS, type TopUpTier } from './offers.js';

export interface TopUpDeps extends PurchaseSkeletonDeps {
  credits: Pick<CreditStore, 'reserveTopUpItem' | 'creditTopUpItems' | 'voidTopUpItem' | 'pendingTopUpItem'>;
}

export interface TopUpInput {
  workspace: Pick<Workspace, 'keyHash' | 'workspaceId'>;
  tier: TopUpTier;
  /** An x402 payment of the tier's amount, verified by the payment core. */
  payment: AcceptedPayment;
  deadline?: number;
}

export type TopUpOutcome =
  /** `recorded` false: the settlement landed but its record failed; the sweeper credits the entry. */
  | { type: 'credited'; amount: bigint; receipt: PaymentReceipt; recorded: boolean }
  | { type: 'refused'; reason: string; retryAfterSeconds?: number }
  | { type: 'unavailable'; reason: string }
  /** Broadcast without a receipt: the top-up is pending, credited once the chain shows the transfer. */
  | { type: 'pending'; entryKey: string; reason: string };

export async function topUp(deps: TopUpDeps, input: TopUpInput): Promise<TopUpOutcome> {
  const { workspace, payment, tier } = input;
  const amount = TOPUP_TIERS[tier];
  if (payment.kind !== 'x402') throw new Error('a top-up is paid with x402 only');
  if (payment.amount !== amount) throw new Error(`a tier ${tier} top-up needs a payment of ${amount}, not ${payment.amount}`);
  annotate({ workspaceId: workspace.workspaceId, payer: payment.payer });
  const log = logger.createChild({ persistentKeys: { workspaceId: workspace.workspaceId, payer: payment.payer, tier } });

  const entry = { workspaceId: workspace.workspaceId, entryKey: topUpKey(payment.nonceKey), keyHash: workspace.keyHash, amount };
  const item: PurchasedItem<void> = {
    ref: `topup#${workspace.workspaceId}`,
    sold: `topup-${tier}`,
    reserve: deps.credits.reserveTopUpItem(workspace, { nonceKey: payment.nonceKey, amount, tier, payer: payment.payer }),
    refused: () => deps.credits.voidTopUpItem(entry),
    unknown: (reason) => deps.credits.pendingTopUpItem(entry, reason),
    settled: (transaction) => deps.credits.creditTopUpItems(entry, transaction),
  };
  const outcome = await purchase(deps, payment, item, { log, deadline: input.deadline });
  switch (outcome.type) {
    case 'refused':
    case 'unavailable':
      return outcome;
    case 'unknown':
      return { type: 'pending', entryKey: entry.entryKey, reason: outcome.reason };
    case 'settled':
      log.info('top-up credited', { transaction: outcome.receipt.transaction, recorded: outcome.recorded });
      return { type: 'credited', amount, receipt: outcome.receipt, recorded: outcome.recorded };
  }
}
