/**
 * RULES.md "Below a claim's total": receipt details typed out per listed row ("Item 2 …") are that row's receipt; one
 * whose payment line shows the company card the report names in its head was paid by the company already (flag,
 * nothing reimbursed); a printed report's Category cell names the row's kind before its description does.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'Receipts are required for all hotel stays.',
  'Hotels: up to $180 per night.',
  'Expenses paid with the company card are settled by the company and are not reimbursed.',
].join('\n');

const REPORT = (paidWith: string) => [
  'PAYHAWK - Reimbursement request R-5521',
  'Employee:       Aoife Brennan',
  'Company card:   Visa •••• 2290 (Travel)',
  '',
  'Item  Date        Category     Description                                  Paid with        Amount',
  '1     2026-05-11  Flight fees  Checked bag DUB-AMS                           Own card         $45.00',
  '2     2026-05-11  Taxi         Schiphol to Hotel Okura, 2 suitcases           Own cash         $62.00',
  '3     2026-05-13  Hotel        Hotel Okura Amsterdam, 2 nights                Own card        $340.00',
  '                                                          Total to reimburse:          $447.00',
  '',
  'Receipt details',
  'Item 1  Aer Lingus bag receipt, ref 8812, $45.00',
  `        Payment: ${paidWith}`,
  'Item 2  TCA Taxi receipt, $62.00, paid cash',
  'Item 3  Hotel Okura invoice 77120, 2 x $170.00 = $340.00',
  '        Payment: Mastercard **** 7781',
].join('\n');

describe('expense-policy: receipt details below the total, and the company card', () => {
  it('holds an expense whose receipt shows the company card, and pays the rest', () => {
    const result = analyse(REPORT('Visa **** 2290'), POLICY);
    expect(result.verdict).toBe('flag');
    expect(result.reimbursable_amount).toBe(402);
    expect(result.violations.join(' ')).toMatch(/company card/);
    expect(result.violations).toHaveLength(1);
  });

  it('approves the same report when the receipt shows the employee\'s own card', () => {
    const result = analyse(REPORT('Visa **** 6650'), POLICY);
    expect(result.verdict).toBe('approve');
    expect(result.reimbursable_amount).toBe(447);
  });

  it('a taxi row whose description names the hotel it drove to is a taxi, by its Category cell', () => {
    const report = REPORT('Visa **** 6650').split('\n').filter((l) => !/^(?:3 |Item [23]|        Payment: Master)/.test(l))
      .map((l) => l.replace('$447.00', '$107.00')).join('\n');
    const result = analyse(report, POLICY);
    expect(result.verdict).toBe('approve');
    expect(result.reimbursable_amount).toBe(107);
  });
});
