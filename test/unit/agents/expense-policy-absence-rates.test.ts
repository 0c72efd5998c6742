/**
 * Day subsistence by hours of absence (a table of bands), a limit per night with the places' own limit after "or", and
 * allowances that "do not need receipts".
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { absenceOf } from '../../../lambdas/agents/engines/expense-policy/absence-rates.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'COUNTY COUNCIL - OFFICERS\' TRAVEL ALLOWANCES',
  'Receipts must be attached for hotels and rail fares. Subsistence allowances are flat-rate and do not need receipts.',
  '',
  'Day subsistence',
  '   Absence from the office          Allowance',
  '   Over 4 hours                     £5.50',
  '   Over 8 hours                     £11.00',
  '   Over 12 hours (and after 19:30)  £19.00',
  'Day subsistence is not payable where a meal is provided free of charge.',
  '',
  'Hotels',
  'Bed and breakfast is reimbursed up to £95.00 per night, or £125.00 per night in Bristol, Bath and Exeter.',
].join('\n');

const claim = (rows: string[]) => ['Date        Type               Details                                        Amount', ...rows].join('\n');

describe('expense-policy: day subsistence by hours of absence', () => {
  it('pays each day at the band its absence reaches', () => {
    const r = run(claim([
      '03/02/2025  Day subsistence    Left 07:10, back 16:05 (8 h 55 min)               £11.00',
      '04/02/2025  Day subsistence    Left 09:00, back 13:40                           £5.50',
    ]), POLICY);
    expect(r).toMatchObject({ verdict: 'approve', reimbursable_amount: 16.5 });
  });

  it('pays the lower band when the condition of the higher one is not shown', () => {
    const r = run(claim(['03/02/2025  Day subsistence    Left 06:00, back 19:00 (13 h)                     £19.00']), POLICY);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 11 });
  });

  it('holds a day whose absence the claim does not state', () => {
    const r = run(claim(['03/02/2025  Day subsistence    Site visit Taunton                                £11.00']), POLICY);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 0 });
    expect(r.violations[0]).toContain('hours of absence');
  });

  it('pays nothing on a day a meal was provided', () => {
    const r = run(claim(['03/02/2025  Day subsistence    Left 07:00, back 17:00, lunch provided at course   £11.00']), POLICY);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 0 });
  });

  it('holds a hotel to its place\'s limit written after "or"', () => {
    const bath = run(claim(['03/02/2025  Hotel (B&B)        Abbey Hotel, Bath, 1 night, receipt attached        £118.00']), POLICY);
    expect(bath).toMatchObject({ verdict: 'approve', reimbursable_amount: 118 });
    const leeds = run(claim(['03/02/2025  Hotel (B&B)        Park Plaza Leeds, 1 night, receipt attached         £118.00']), POLICY);
    expect(leeds).toMatchObject({ verdict: 'flag', reimbursable_amount: 95 });
  });

  it('reads an absence from its times or its stated length', () => {
    expect(absenceOf('Departed 22:30, returned 06:10')?.minutes).toBe(460);
    expect(absenceOf('(10 h 15 min)')?.minutes).toBe(615);
    expect(absenceOf('no times')).toBeUndefined();
  });
});
