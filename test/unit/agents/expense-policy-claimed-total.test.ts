/**
 * RULES.md "the claim's own total": never more than the claimant asked for. A reading whose items would pay more than
 * the claim's stated grand total is held for review, citing that total, and pays no more than it; a claim the items
 * read match, or one stating no total, is untouched, and an amount payable net of an advance is not a claim total.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.explain({ expense, expensePolicy });
const POLICY = 'Taxis are reimbursed at cost. Meals are reimbursed up to $80 per day. Receipts are required for expenses over $25.';

describe('expense-policy: the claim stated its own total', () => {
  it('items read to more than the stated total: flagged, the total cited, no more than it paid', () => {
    // The claimant asks for less than the lines add up to (a line claimed elsewhere, a slip of the pen): a
    // practitioner pays at most what was asked and queries the difference; so too when the reading took a line of
    // the papers for an expense.
    const claim = [
      'Site visit, Denver, 4-5 March',
      '2026-03-04  Taxi airport to site (receipt)            42.00',
      '2026-03-05  Dinner, Rosa Mexicano (receipt)           61.00',
      'Total claimed                                          90.00',
    ].join('\n');
    const { result, evidence } = analyse(claim, POLICY);
    expect(result.verdict).toBe('flag');
    expect(result.reimbursable_amount).toBe(90);
    expect(result.violations.some((v) => /more than the claim's own total \$90\.00/.test(v))).toBe(true);
    const cited = evidence.find((e) => /claim_total_exceeded/.test(e.finding));
    expect(cited?.sources[0]).toMatchObject({ field: 'expense', line: 4 });
  });

  it('items that match the stated total, or a claim with no stated total, are untouched', () => {
    const lines = [
      '2026-03-04  Taxi airport to site (receipt)            42.00',
      '2026-03-05  Dinner, Rosa Mexicano (receipt)           61.00',
    ];
    const matching = analyse([...lines, 'Total claimed: $103.00'].join('\n'), POLICY).result;
    expect(matching).toMatchObject({ verdict: 'approve', reimbursable_amount: 103 });
    expect(analyse(lines.join('\n'), POLICY).result).toMatchObject({ verdict: 'approve', reimbursable_amount: 103 });
  });

  it('an amount payable net of an advance is not the claim total', () => {
    const claim = [
      '2026-03-04  Taxi airport to site (receipt)            42.00',
      '2026-03-05  Dinner, Rosa Mexicano (receipt)           61.00',
      'Less: cash advance                                    50.00',
      'Amount payable to employee                            53.00',
    ].join('\n');
    const { result } = analyse(claim, POLICY);
    expect(result.violations.some((v) => /claim's own total/.test(v))).toBe(false);
  });
});
