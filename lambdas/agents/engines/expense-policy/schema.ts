import * as z from '../../../shared/zod.js';

/** The expense (JSON text or a line of text) and the policy (plain sentences); see RULES.md. */
export const inputSchema = z.strictObject({
  expense: z.string().check(z.minLength(1)),
  expensePolicy: z.string().check(z.minLength(1)),
});

export const resultSchema = z.strictObject({
  verdict: z.enum(['approve', 'flag', 'reject']),
  /** What the policy allows now, in the expense currency's units; amounts awaiting an approval are excluded. */
  reimbursable_amount: z.number().check(z.minimum(0)),
  /** One sentence per broken rule (per item when the claim has several). */
  violations: z.array(z.string()),
  /** Rules applied, assumptions made, and every policy sentence that was not understood. */
  note: z.string(),
});

export type ExpensePolicyInput = z.infer<typeof inputSchema>;
export type ExpensePolicyResult = z.infer<typeof resultSchema>;
