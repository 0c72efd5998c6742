import * as z from '../../../shared/zod.js';

/** A pasted bank or ledger export: CSV text, or a JSON array of objects serialized as text. */
export const inputSchema = z.strictObject({
  export: z.string().check(z.minLength(1)),
});

export const transactionSchema = z.strictObject({
  date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
  description: z.string(),
  /** Currency units; money in +, money out −. */
  amount: z.number(),
  reference: z.nullable(z.string()),
});

export const resultSchema = z.strictObject({
  transactions: z.array(transactionSchema),
  count: z.int().check(z.nonnegative()),
  /** Sum of the money-in amounts. */
  total_in: z.number().check(z.nonnegative()),
  /** Sum of the money-out amounts, as a positive figure. */
  total_out: z.number().check(z.nonnegative()),
  /** total_in − total_out. */
  net: z.number(),
  /** ISO code (or the bare sign "$" / "¥") when the export names exactly one currency; else null. */
  currency_hint: z.nullable(z.string()),
  note: z.string(),
});

export type ExportInput = z.infer<typeof inputSchema>;
export type ExportResult = z.infer<typeof resultSchema>;
