/**
 * RULES.md "Receipt rules" and "Limits per place": a receipt requirement for every expense from an amount and for some
 * categories at any amount; a sentence naming "a required receipt" only for what follows from missing it; a lodging
 * line whose own words split the room from its taxes, against a cap on the room rate before taxes.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'Receipts',
  'Original receipts are required for all expenses of $40.00 or more and for every hotel stay regardless of amount.',
  'Claims missing a required receipt are flagged for Finance review.',
  'Hotels',
  'Nightly room rate up to $200 before taxes. Hotel occupancy taxes are reimbursed at actual cost in addition to the room rate.',
].join('\n');

describe('expense-policy: receipt rules from an amount and for categories at any amount', () => {
  it('reads two requirements from one sentence and none from the sentence about missing receipts', () => {
    const policy = readPolicy(POLICY);
    expect(policy.receipts.map((r) => [r.cents, r.categories])).toEqual([[4000n, []], [0n, ['lodging']]]);
  });

  it('a small expense with no receipt passes; one above the amount does not', () => {
    const claim = ['Coffee with client, Austin $18.40 (no receipt)', 'Team lunch $62.00 (no receipt)'].join('\n');
    const result = analyse(claim, POLICY);
    expect(result.verdict).not.toBe('approve');
    expect(result.reimbursable_amount).toBe(18.4);
    expect(result.violations.join(' ')).toMatch(/receipt required/);
    expect(result.violations.join(' ')).not.toMatch(/Coffee/);
  });

  it('a missing receipt is flagged, not refused, when the policy says so; refused when it does not', () => {
    const claim = 'Team lunch $62.00 (no receipt)';
    const flagged = analyse(claim, POLICY);
    expect(flagged.verdict).toBe('flag');
    expect(flagged.reimbursable_amount).toBe(0);
    expect(flagged.violations.join(' ')).toMatch(/flagged for review/);
    const refused = analyse(claim, POLICY.replace('Claims missing a required receipt are flagged for Finance review.', ''));
    expect(refused.verdict).toBe('reject');
    expect(refused.reimbursable_amount).toBe(0);
    const returned = analyse(claim, POLICY.replace('are flagged for Finance review', 'are flagged and returned to the employee'));
    expect(returned.verdict).toBe('reject');
  });

  it('a cheap hotel night still needs its receipt', () => {
    const result = analyse('Motel 6 Amarillo, 1 night $38.00 (no receipt)', POLICY);
    expect(result.verdict).not.toBe('approve');
    expect(result.reimbursable_amount).toBe(0);
  });
});

const csv = (description: string, amount: string) => [
  'Date,Merchant,Category,Description,Amount,Receipt',
  `04/16/2026,Marriott Tampa Westshore,Lodging,"${description}",${amount},Yes`,
].join('\n');

describe('expense-policy: a lodging line that states its room rate and its taxes', () => {
  it('holds the room rate to the cap and pays the taxes on top when the parts add up', () => {
    const claim = csv('3 nights 04/13-04/16. Rate $195.00 per night plus taxes $26.15 per night', '663.45');
    const result = analyse(claim, POLICY);
    expect(result.verdict).toBe('approve');
    expect(result.reimbursable_amount).toBe(663.45);
  });

  it('still finds a room rate above the cap', () => {
    const claim = csv('2 nights 04/14-04/16. Room 230.00/night + tax 30.00/night', '520.00');
    const result = analyse(claim, POLICY);
    expect(result.verdict).not.toBe('approve');
    expect(result.reimbursable_amount).toBe(460);
  });

  it('parts that do not add up to the amount leave the whole amount held to the cap', () => {
    const claim = csv('2 nights 04/14-04/16. Room 195.00/night + tax 26.00/night', '470.00');
    const result = analyse(claim, POLICY);
    expect(result.verdict).not.toBe('approve');
    expect(result.reimbursable_amount).toBe(400);
  });
});
