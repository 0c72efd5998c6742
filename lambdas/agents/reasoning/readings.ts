/**
 * What the model reads, per engine family (ADR 0023): the same typed reading the deterministic reader produces, in
 * the structured form the family's engine already accepts as input, each item with the line it was read from.
 *
 *   bank-rec        both exports as transactions (ISO date, description, signed amount, reference), with the opening
 *                   and closing balances where a side states them; rendered as CSV (Date, Description, Amount, Ref:
 *                   one row a transaction, so the engine's details quote a readable row)
 *   expense-policy  the claim as expense items (category, amount, receipt, attendees, …) with the claim's stated
 *                   total; rendered as `{"items": [...]}`; the policy is passed to the engine as the buyer wrote it
 *   po-match        each document's PO number, vendor, currency, lines, charges, subtotal and total; rendered as a
 *                   JSON record per document
 *   vendor-risk     the profile as labelled statements, each from one line; rendered as `Label: value` lines
 *
 * Each family also says what of its reading must be grounded (grounding.ts): the claims per item and the sums.
 */
import { BANK_REC } from './readings/bank-rec.js';
import { EXPENSE_POLICY } from './readings/expense-policy.js';
import { PO_MATCH } from './readings/po-match.js';
import { VENDOR_RISK } from './readings/vendor-risk.js';

import type { Reading } from './reading.js';

export type { Reading };

/** Per engine family (the engine id before '/'): the families whose paid runs a model may read. */
export const READINGS: Record<string, Reading> = {
  'bank-rec': BANK_REC,
  'expense-policy': EXPENSE_POLICY,
  'po-match': PO_MATCH,
  'vendor-risk': VENDOR_RISK,
};
