/**
 * What a policy says happens to alcohol on a receipt: refused ("The alcohol on a meal receipt is refused", "alcohol
 * will be rejected") is a refusal, so the claim is rejected while the food on the receipt is still paid; only not
 * reimbursed ("Alcohol is not reimbursable", "the alcoholic items are removed and the rest reimbursed") is a deduction
 * with a flag.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });
const DINNER = '2026-04-14 Dinner at Harbour Bistro, $84.00 incl. $22.00 of wine, receipt attached';

describe('expense-policy: alcohol refused or only not reimbursed', () => {
  it('rejects itemised alcohol a policy refuses, the rest of the receipt paid', () => {
    const policy = 'Meals are reimbursed up to $90 per dinner.\nAlcohol is not reimbursable. Alcohol on a restaurant bill will be rejected; the food is paid.';
    const r = run(DINNER, policy);
    expect(r).toMatchObject({ verdict: 'reject', reimbursable_amount: 62 });
    expect(r.violations[0]).toContain('will be rejected');
  });

  it('deducts and flags itemised alcohol a policy only does not reimburse', () => {
    const policy = 'Meals are reimbursed up to $90 per dinner.\nAlcohol is not reimbursable; the alcoholic items are removed and the rest of the receipt is reimbursed.';
    expect(run(DINNER, policy)).toMatchObject({ verdict: 'flag', reimbursable_amount: 62 });
  });

  it('is no refusal when the refusal is conditional ("unless approved … is refused")', () => {
    const policy = 'Meals are reimbursed up to $90 per dinner.\nAlcohol is not reimbursable.\nUnless a director approved it in advance, a client gift is refused.';
    expect(run(DINNER, policy)).toMatchObject({ verdict: 'flag', reimbursable_amount: 62 });
  });
});
