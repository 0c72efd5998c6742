/**
 * RULES.md "a day table of meal allowances": a header row naming the day's meals ("Breakfast  Lunch  Dinner
 * Incidentals  Day total"), a second header line saying the columns ask whether the meal was provided, then one
 * dated row a day. Each row is one per-diem day claimed at its day's total (its meals adding up to it make no
 * breakdown row), its cells read with their labels, so a meal the row says was provided is deducted from the rate.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { GSA_POLICY } from '../../support/gsa-policy.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

describe('expense-policy: a day table of meal allowances', () => {
  it('reads each day at its day total, a row whose meals add up to it included', () => {
    const claim = [
      'Per diem claim - Portland, OR site survey',
      '',
      'Date         Breakfast      Lunch     Dinner           Incidentals    Day total',
      '05/04/2026   13.50          15.00     27.00            3.75           59.25',
      '05/05/2026   18.00          20.00     provided  0.00   5.00           43.00',
      '05/06/2026   13.50          15.00     27.00            3.75           59.25',
      '                                                       Total         161.50',
    ].join('\n');
    const result = analyse(claim, GSA_POLICY);
    expect(result.note).toMatch(/Checked 3 item\(s\)/);
    expect([result.verdict, result.reimbursable_amount]).toEqual(['approve', 161.5]);
  });

  it('reads a yes under a "provided" column as the meal provided, and pays the day its rate less that meal', () => {
    const claim = [
      'Per diem claim - Portland, OR site survey',
      '',
      'Date        Day type       Breakfast   Lunch      Dinner      Rate     Amount',
      '                           provided    provided   provided',
      '05/04/2026  Travel day     No          No         No          59.25    59.25',
      '05/05/2026  Full day       No          No         Yes         79.00    79.00',
      '05/06/2026  Travel day     No          No         No          59.25    59.25',
      '                                                       Total          197.50',
    ].join('\n');
    const result = analyse(claim, GSA_POLICY);
    expect(result.note).toMatch(/Checked 3 item\(s\)/);
    // 79.00 less the furnished dinner 36.00 = 43.00: 36.00 over.
    expect([result.verdict, result.reimbursable_amount]).toEqual(['flag', 161.5]);
    expect(result.violations[0]).toContain('less the furnished dinner ($36.00)');
  });

  it('reads a "No" under a "provided" column as no meal provided', () => {
    const claim = [
      'Date        Day type       Breakfast   Lunch      Dinner      Rate     Amount',
      '                           provided    provided   provided',
      '05/04/2026  Travel day     No          No         No          59.25    59.25',
      '05/05/2026  Full day       No          No         No          79.00    79.00',
      '05/06/2026  Travel day     No          No         No          59.25    59.25',
      '                                                       Total          197.50',
    ].join('\n');
    const result = analyse(`Per diem claim - Portland, OR\n\n${claim}`, GSA_POLICY);
    expect([result.verdict, result.reimbursable_amount]).toEqual(['approve', 197.5]);
  });
});

describe('expense-policy: one allowance line with its days typed out below', () => {
  const claim = (breakfast: boolean) => [
    'Expense report - Portland, OR site survey',
    'Date              Type        Description                       Amount',
    `05/04/2026        Hotel       Riverside Inn, 2 nights           ${breakfast ? '318.00' : '300.00'}`,
    '05/04-05/06/2026  Per diem    M&IE (days below)                 197.50',
    `                                         Report total           ${breakfast ? '515.50' : '497.50'}`,
    '',
    'HOTEL FOLIO - Riverside Inn, Portland OR',
    '05/04/2026  Room                        150.00',
    ...(breakfast ? ['05/05/2026  Breakfast buffet             18.00'] : []),
    '05/05/2026  Room                        150.00',
    `            Total                       ${breakfast ? '318.00' : '300.00'}`,
    `Paid: Visa ****1234                     ${breakfast ? '318.00' : '300.00'}`,
    '',
    'M&IE BY DAY',
    'Date        Day type       Breakfast   Lunch      Dinner     Amount',
    '                           provided    provided   provided',
    '05/04/2026  Travel day     No          No         No          59.25',
    '05/05/2026  Full day       No          No         No          79.00',
    '05/06/2026  Travel day     No          No         No          59.25',
    '                                                  Total      197.50',
  ].join('\n');

  it('claims the line day by day, the breakfast on the hotel bill a meal provided that day', () => {
    const result = analyse(claim(true), GSA_POLICY);
    expect(result.note).toMatch(/Checked 4 item\(s\)/);
    // 05/05: 79.00 less the breakfast 18.00 = 61.00, 18.00 over.
    expect([result.verdict, result.reimbursable_amount]).toEqual(['flag', 497.5]);
    expect(result.violations[0]).toContain('less the furnished breakfast ($18.00)');
    const cited = expensePolicyEngine.explain({ expense: claim(true), expensePolicy: GSA_POLICY }).evidence;
    expect(cited.some((e) => e.sources.some((s) => s.quote.includes('Breakfast buffet')))).toBe(true);
  });

  it('pays every day its rate when the hotel bill charges no breakfast', () => {
    const result = analyse(claim(false), GSA_POLICY);
    expect([result.verdict, result.reimbursable_amount]).toEqual(['approve', 497.5]);
  });
});
