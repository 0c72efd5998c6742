/**
 * RULES.md "Below a claim's total": a list of the receipts typed out under the report ("Receipt details", one bullet
 * per row) is the rows' evidence, not more expenses: a bullet whose sum ("= 41.20", else its last amount) is one
 * row's amount and names its merchant backs that row; a bullet heading an invoice whose lines are indented under it
 * is that invoice, its lines the row's folio (room nights, the city tax on top of the room).
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'Hotel up to $150 per night.',
  'Hotel occupancy taxes are reimbursed at actual cost in addition to the nightly cap.',
  'Meals are reimbursed up to $60 per person per day.',
  'Receipts are required for every expense.',
].join('\n');

const REPORT = [
  'Expense report ER-5521        Employee: D. Okafor        Trip: Denver plant audit',
  '------------------------------------------------------------------------',
  'Date        Type       Description                     Receipt    Amount',
  '------------------------------------------------------------------------',
  '03/09/2026  Hotel      Larimer Suites, 2 nights        Yes        {HOTEL}',
  '03/09/2026  Dinner     Blue Sage Grill                 Yes         41.20',
  '03/10/2026  Lunch      Union Station Deli              Yes         17.85',
  '------------------------------------------------------------------------',
  '                                  Report total                   {TOTAL}',
  '                                  Amount due employee            {TOTAL}',
  '',
  'Receipt details',
  '- Larimer Suites, Denver - Folio 88213',
  '    Room 03/09                                   {NIGHT}',
  '    Room 03/10                                   {NIGHT}',
  '    City lodging tax (2 x 12.00)                  24.00',
  '    Folio total                                  {HOTEL}   paid personal Visa',
  '- Blue Sage Grill 03/09  trout 28.00  salad 9.70  iced tea 3.50 = 41.20',
  '- Union Station Deli 03/10  sandwich 14.35  soda 3.50 = 17.85',
].join('\n');

const report = (night: string) => {
  const hotel = (Number(night) * 2 + 24).toFixed(2);
  const total = (Number(hotel) + 41.2 + 17.85).toFixed(2);
  return REPORT.replaceAll('{NIGHT}', night).replaceAll('{HOTEL}', hotel).replaceAll('{TOTAL}', total);
};

describe('expense-policy: a list of receipts under the report', () => {
  it('reads the bullets as the rows\' receipts, not more expenses', () => {
    const result = analyse(report('140.00'), POLICY);
    expect(result.note).toMatch(/Checked 3 item\(s\)/);
    expect(result.verdict).toBe('approve');
    expect(result.reimbursable_amount).toBe(363.05);
  });

  it('holds the room nights of the invoice under a bullet to the cap, the city tax paid on top', () => {
    const result = analyse(report('175.00'), POLICY);
    expect(result.note).toMatch(/Checked 3 item\(s\)/);
    expect(result.verdict).toBe('flag');
    // 2 × 175.00 = 350.00 against 2 × 150.00 = 300.00: 50.00 over; the 24.00 tax is paid.
    expect(result.reimbursable_amount).toBe(433.05 - 50);
    expect(result.violations.join('\n')).toMatch(/\$350\.00 of it held to the cap > \$150\.00 × 2/);
  });

  it('keeps a bullet naming no row\'s merchant an expense of its own', () => {
    const text = report('140.00').replace('- Union Station Deli 03/10  sandwich 14.35  soda 3.50', '- Parking garage 03/10  level 2 8.00  level 3 6.35  ticket 3.50');
    const result = analyse(text, POLICY);
    expect(result.note).toMatch(/Checked 4 item\(s\)/);
  });
});
