/**
 * RULES.md "caps on one kind of folio line" and the safety net for unread sentences: a cap said to be "for the room
 * rate plus room taxes" covers the taxes (only "up to $200 plus tax" pays them on top); a label in quotation marks
 * ('itemize them as "Personal (non-reimbursable)"') is a name to use, no rule that holds an expense.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const FOLIO = [
  'Hotel stay, Lakeside Lodge, 1 night, $230.00',
  '',
  'LAKESIDE LODGE',
  '06/01/26  Room Charge            200.00',
  '06/01/26  Room Tax                30.00',
  'Total                            230.00',
].join('\n');

describe('expense-policy: what a lodging cap covers', () => {
  it('holds room and taxes to a cap "for the room rate plus room taxes"', () => {
    const policy = 'Hotels: the cap is $210 per night for the room rate plus room taxes. Itemize movies on the hotel expense as "Personal (non-reimbursable)".';
    expect(readPolicy(policy).taxesExtra).toBeUndefined();
    const r = analyse(FOLIO, policy);
    expect(r.reimbursable_amount).toBe(210);
    expect(r.violations.join('\n')).not.toMatch(/reviewer must apply/);
  });

  it('pays the taxes on top of a cap "plus tax"', () => {
    const policy = 'Hotels: up to $210 per night plus tax.';
    expect(readPolicy(policy).taxesExtra).toBeDefined();
    expect(analyse(FOLIO, policy).reimbursable_amount).toBe(230);
  });
});
