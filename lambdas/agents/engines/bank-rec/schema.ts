import * as z from '../../../shared/zod.js';

/** The published input of bank-rec-discrepancy-finder: two pasted exports (CSV or a JSON array as text). */
export const inputSchema = z.strictObject({
  bankStatement: z.string().check(z.minLength(1)),
  bookEntries: z.string().check(z.minLength(1)),
});

export const exceptionTypes = [
  'missing_in_books',
  'missing_on_bank',
  'outstanding_check',
  'duplicate_on_bank',
  'duplicate_in_books',
  'amount_mismatch',
  'timing_difference',
] as const;

export const exceptionSchema = z.strictObject({
  type: z.enum(exceptionTypes),
  detail: z.string(),
  /** Currency units; this item's share of (bank total − book total), so the amounts add up to net_unreconciled. */
  amount: z.number(),
});

export const resultSchema = z.strictObject({
  reconciled: z.boolean(),
  matched: z.int().check(z.nonnegative()),
  exceptions: z.array(exceptionSchema),
  /** Bank total − book total, currency units. */
  net_unreconciled: z.number(),
  note: z.string(),
});

export type BankRecInput = z.infer<typeof inputSchema>;
export type BankRecResult = z.infer<typeof resultSchema>;
export type BankRecException = z.infer<typeof exceptionSchema>;
export type ExceptionType = (typeof exceptionTypes)[number];
