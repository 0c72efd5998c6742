/**
 * RULES.md "below such a claim total": receipt details typed below an export's total, each block led by its row's
 * request id ("EXP-2207  Uber trip receipt …"), are that row's receipt: the trip or booking number they print
 * identifies the expense (the same trip submitted twice is paid once), and a stay's arrival and departure give its
 * nights.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = 'Hotel up to $200 per night. Receipts are required for every expense.';

const EXPORT = [
  'Request    Date        Merchant              Category     Amount (USD)  Receipt',
  'EXP-2201   03/02/2026  Uber                  Taxi               27.40   Yes',
  'EXP-2202   03/02/2026  Harbor Inn Portland   Hotel             342.00   Yes',
  'EXP-2203   03/02/2026  Uber                  Taxi               27.40   Yes',
  '                                       Total USD              396.80',
  '',
  'Receipt details',
  'EXP-2201   Uber trip receipt - Mar 2, 2026 9:14 AM - Trip 88120455731',
  '           PDX -> Harbor Inn   Fare 23.90  Booking fee 3.50  Total $27.40',
  'EXP-2202   Harbor Inn Portland - Folio 7731 - Arr 03/02/26 Dep 03/04/26',
  '           Room 2 nights 171.00  Total 342.00',
  'EXP-2203   Uber trip receipt - Mar 2, 2026 9:14 AM - Trip 88120455731',
  '           PDX -> Harbor Inn   Fare 23.90  Booking fee 3.50  Total $27.40',
].join('\n');

describe('expense-policy: receipt details led by the request id', () => {
  it('pays the trip submitted twice once and holds the stay to its nights', () => {
    const r = analyse(EXPORT, POLICY);
    // 27.40 + 342.00 (2 nights × 171.00, under 2 × 200); the second submission of trip 88120455731 is not paid.
    expect(r.reimbursable_amount).toBe(369.4);
    expect(r.verdict).toBe('flag');
    expect(r.violations.join('\n')).toMatch(/duplicate claim.*88120455731/);
    expect(r.violations.join('\n')).not.toMatch(/over the cap/);
  });

  it('keeps two trips of the same fare with different trip numbers', () => {
    const r = analyse(EXPORT.replace(/(EXP-2203 .*Trip )88120455731/, '$188120999999'), POLICY);
    expect(r.reimbursable_amount).toBe(396.8);
  });
});
