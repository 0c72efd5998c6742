/**
 * RULES.md "Below a claim's total": notes under a report led by its rows' line numbers ("3  Team dinner. Receipt: …")
 * are those rows' notes; a receipt typed in such a note, its parts set apart by bars or slashes, is the row's receipt
 * (not another expense); a row claimed below its receipt by at least the receipt's alcohol has the alcohol set aside.
 */
import { describe, expect, it } from 'vitest';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const REPORT = [
  'Expense Report  ER-77120        Employee: T. Lindqvist        Currency: USD',
  '',
  'Line  Date        Expense Type      Merchant                   Amount   Receipt',
  '1     03/02/2026  Meals - Dinner    Harbor Grill Portland       41.92   Y',
  '2     03/03/2026  Parking           SmartPark Garage 4          18.00   Y',
  '3     03/03/2026  Meals - Lunch     Deschutes Public House      22.95   Y',
  '                                    Report Total                82.87',
  '',
  'Line notes',
  '1  Dinner alone. Receipt: Clam chowder 8.00 / Halibut 24.00 / Lemonade 3.50 /',
  '   Lager pint x2 16.00 | Subtotal 51.50 | Tax 0.00 | Total 51.50 | Tip 6.42 | Paid 57.92.',
  '   Claimed food 35.50 + tip 6.42 = 41.92; the beer paid personally.',
  '2  Garage next to the client site, ticket 55102.',
  '3  Lunch, $22.95 incl. tip.',
].join('\n');

describe('expense-policy: a report\'s line notes with a receipt typed in one', () => {
  it('reads the notes as the rows\' details and the typed receipt as the row\'s, no more expenses', () => {
    const { items } = readExpense(REPORT, 'USD');
    expect(items.map((i) => i.cents)).toEqual([4192n, 1800n, 2295n]);
    expect(items[0].parts?.map((p) => p.cents)).toEqual([800n, 2400n, 350n, 1600n, 0n, 642n]);
    expect(items[0].alcohol).toBeUndefined();
    expect(items[0].setAside).toBe(1600n);
  });

  it('pays the dinner claimed without its beer in full under a policy refusing alcohol', () => {
    const out = expensePolicyEngine.analyse({
      expense: REPORT,
      expensePolicy: 'Meals are reimbursed up to $75 per day.\nAlcohol is not reimbursable.\nParking is reimbursed with a receipt.',
    });
    expect(out.reimbursable_amount).toBe(82.87);
    expect(out.verdict).toBe('approve');
  });
});
