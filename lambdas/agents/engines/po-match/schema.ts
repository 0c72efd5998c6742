import * as z from '../../../shared/zod.js';

/** Both documents arrive as text: structured JSON serialised as text, or plain lines (see RULES.md). */
export const inputSchema = z.strictObject({
  purchaseOrder: z.string().check(z.minLength(1)),
  invoice: z.string().check(z.minLength(1)),
});

export const resultSchema = z.strictObject({
  /** true exactly when status is `pass`. */
  matched: z.boolean(),
  status: z.enum(['pass', 'hold']),
  /** One sentence per problem, naming the line (SKU, else description) it concerns. */
  discrepancies: z.array(z.string()),
  /** What was compared, partial shipments, what could not be compared and why. */
  note: z.string(),
  /** Invoice lines paired with a purchase-order line. */
  linesCompared: z.number().check(z.int(), z.minimum(0)),
  /** Invoice total in currency units: as stated, else the sum of its lines and charges. */
  invoiceTotal: z.number(),
  /** Purchase-order total in currency units: as stated, else the sum of its lines and charges. */
  poTotal: z.number(),
});

export type PoMatchInput = z.infer<typeof inputSchema>;
export type PoMatchResult = z.infer<typeof resultSchema>;
