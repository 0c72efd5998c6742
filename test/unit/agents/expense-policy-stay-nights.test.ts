/**
 * RULES.md "Per item": a hotel line claiming the whole folio while saying the employee stayed on after the business
 * ended ("5 nights 3-8 May … workshop Mon 4 - Wed 6 ended 17:00, stayed on for a long weekend") claims personal
 * nights: those from the day the business ended to the departure are deducted at the folio's rate.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { personalNights } from '../../../lambdas/agents/engines/expense-policy/stay-nights.js';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';

const CLAIM = [
  'Date,Merchant,Category,Description,Amount,Currency,Receipt',
  '2026-05-08,Hotel Mundial Lisboa,Hotel,"Invoice 8812: 5 nights 3-8 May at EUR 150.00; workshop Mon 4 - Wed 6 ended 17:00, stayed on for a long weekend, flew back Fri 8",750.00,EUR,Yes',
  '2026-05-03,Carris,Taxi,"Airport to hotel",21.40,EUR,Yes',
].join('\n');

describe('expense-policy: personal nights the claim itself states', () => {
  it('counts the nights from the day the business ended to the departure', () => {
    const hotel = readExpense(CLAIM, 'EUR').items[0];
    expect(personalNights(hotel)).toEqual({ nights: 2n, text: 'stayed on' });
  });

  it('deducts them at the folio rate, the business nights paid', () => {
    const out = expensePolicyEngine.analyse({ expense: CLAIM, expensePolicy: 'Hotels are reimbursed up to EUR 180 per night.\nTaxis are reimbursed with a receipt.' });
    expect(out.reimbursable_amount).toBe(471.4);
    expect(out.verdict).not.toBe('approve');
    expect(out.violations.join(' ')).toMatch(/2 of the 5 nights/);
  });

  it('reads nothing personal where the claim does not say so', () => {
    const plain = readExpense(CLAIM.replace(', stayed on for a long weekend', ''), 'EUR').items[0];
    expect(personalNights(plain)).toBeUndefined();
  });
});
