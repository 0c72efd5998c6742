/**
 * RULES.md "Text documents": a cover note saying receipts are attached for everything except one expense vouches for
 * every other expense listed; the one it names (by its words, the day it names settling a tie) has none. "2 nights @
 * £95.00" prints a unit price, not the line's amount.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const MAIL = [
  'Hi Sam,',
  '',
  'My Leeds trip expenses:',
  '',
  'Mon 9 Mar   Train Leeds to Manchester                         £31.20',
  'Mon 9 Mar   Taxi Manchester Piccadilly to client office        £16.40',
  'Mon 9 Mar   Premier Inn Manchester, 2 nights @ £95.00          £190.00',
  'Wed 11 Mar  Taxi client office to Manchester Piccadilly        £17.10',
  '                                                      TOTAL    £254.70',
  '',
  'Receipts are attached for everything except the taxi to the client office on the 9th - the driver only took cash.',
].join('\n');

describe('expense-policy: receipts attached for everything except one', () => {
  it('reads the hotel at its line amount and every expense but the one named as having its receipt', () => {
    const { items } = readExpense(MAIL, 'GBP');
    expect(items.map((i) => [i.cents, i.receipt])).toEqual([[3120n, true], [1640n, false], [19000n, true], [1710n, true]]);
  });

  it('refuses the expense named as without a receipt where the policy requires one', () => {
    const r = analyse(MAIL, 'All amounts in GBP. A receipt is required for every expense over £10.00.');
    expect(r.verdict).toBe('reject');
    expect(r.reimbursable_amount).toBe(238.3);
  });
});
