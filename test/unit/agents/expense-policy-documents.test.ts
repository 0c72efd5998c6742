/**
 * RULES.md "Expense" (text documents, mileage) and the claim-level rules: a pasted receipt is one expense checked by
 * its own arithmetic, a report's detail lines are never expenses, a per-day cap pools the day's items, the same claim
 * twice is paid once, and a mileage log is distance × the policy's rate. Every figure is worked in the comment above.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { resultSchema } from '../../../lambdas/agents/engines/expense-policy/schema.js';

function run(expense: string, expensePolicy: string) {
  const result = expensePolicyEngine.analyse({ expense, expensePolicy });
  expect(resultSchema.parse(result)).toEqual(result);
  return result;
}

const MEALS = 'Meals are reimbursed up to $100 per day. Tips are reimbursable up to 20% of the pre-tax subtotal. Alcohol is not reimbursable. Reimbursement is in USD.';

describe('expense-policy: a pasted receipt is one expense', () => {
  it('items, subtotal, tax, tip and total are one dinner; the card slip repeats the total', () => {
    // 20.00 + 15.00 = 35.00 = Subtotal; + 3.00 + 7.00 = 45.00 = Total; tip 7.00 <= 20% x 35.00 = 7.00 → approve 45.00.
    const receipt = ['Dinner alone, receipt below.', '', 'Pasta   $20.00', 'Salad   $15.00', '', 'Subtotal  $35.00', 'Tax  $3.00', 'Tip  $7.00', 'Total  $45.00', '', 'Visa 1234', 'Amount: $45.00'].join('\n');
    expect(run(receipt, MEALS)).toMatchObject({ verdict: 'approve', reimbursable_amount: 45, violations: [] });
  });

  it('alcohol lines are deducted and a tip above the cap loses its excess', () => {
    // 30.00 + 12.00 (IPA) = 42.00; tax 4.00; tip 12.00 > 20% x 42.00 = 8.40 → 3.60 deducted; total 58.00.
    // 58.00 − 12.00 alcohol − 3.60 = 42.40 → flag.
    const receipt = ['Dinner', 'Steak   30.00', 'IPA draft   12.00', 'Subtotal  42.00', 'Tax  4.00', 'Tip  12.00', 'Total  58.00'].join('\n');
    const r = run(receipt, MEALS);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 42.4 });
    expect(r.violations).toHaveLength(2);
  });

  it('a receipt whose lines do not add up to its subtotal is refused with the arithmetic', () => {
    // 10.00 + 10.00 = 20.00 but Subtotal 30.00 → the amount cannot be worked out → reject, 0.
    const r = run(['Lunch', 'Soup  10.00', 'Bread  10.00', 'Subtotal  30.00', 'Tax  2.00', 'Total  32.00'].join('\n'), MEALS);
    expect(r).toMatchObject({ verdict: 'reject', reimbursable_amount: 0 });
    expect(r.violations[0]).toContain('its items total $20.00 but it prints a $30.00 subtotal');
  });
});

describe('expense-policy: claim-level rules', () => {
  it('a per-day cap pools the day\'s meals', () => {
    // 2026-03-04: 60.00 + 55.00 = 115.00 > 100.00 → 15.00 not reimbursed; 2026-03-05: 20.00. Total 120.00, flag.
    const csv = ['Date,Merchant,Category,Amount,Receipt', '2026-03-04,Cafe,Meals,60.00,yes', '2026-03-04,Bistro,Meals,55.00,yes', '2026-03-05,Deli,Meals,20.00,yes'].join('\n');
    const r = run(csv, MEALS);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 120 });
    expect(r.violations[0]).toContain('meals on 2026-03-04 total $115.00');
  });

  it('the same rental twice (same amount, vendor and agreement number) is paid once', () => {
    // 200.00 twice with agreement 55512345 → the second is a duplicate → 200.00, flag.
    const csv = ['Date,Vendor,Category,Amount,Receipt,Comment', '2026-01-20,Hertz,Car Rental,200.00,Y,agreement 55512345', '2026-01-23,Hertz,Car Rental,200.00,Y,RA# 55512345'].join('\n');
    const r = run(csv, 'Receipts are required for expenses over $25. Reimbursement is in USD.');
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 200 });
    expect(r.violations[0]).toContain('same reference 55512345');
  });

  it('a mileage log is distance × the policy rate, never the rate read as an amount', () => {
    // 40.5 + 59.5 = 100.0 miles = Total; 100 x 0.60 = 60.00 → approve.
    const log = ['Date,From,To,Miles', '2026-02-03,Office,Client,40.5', '2026-02-04,Client,Office,59.5', ',,Total miles,100.0'].join('\n');
    expect(run(log, 'Personal car use is reimbursed at $0.60 per mile. Reimbursement is in USD.')).toMatchObject({ verdict: 'approve', reimbursable_amount: 60 });
  });

  it('a parking citation filed as parking is a fine', () => {
    const csv = ['Date,Merchant,Category,Amount,Description,Receipt', '2026-02-09,City Finance,Parking,75.00,Citation 0071948265 street parking,yes'].join('\n');
    expect(run(csv, 'Not reimbursable: fines, parking citations. Reimbursement is in USD.')).toMatchObject({ verdict: 'reject', reimbursable_amount: 0 });
  });
});
