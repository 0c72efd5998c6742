/**
 * RULES.md "Receipt rules": what a policy takes as a receipt. A card-terminal slip or a card statement line shows the
 * amount paid, not what was bought; a policy that asks for an itemised receipt, or says so of them, refuses an expense
 * supported by one alone, as a missing receipt.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const SLIP_POLICY = [
  'Meals',
  'Business meals are reimbursed up to $80.00 per person.',
  'A credit card slip shows only the total, so meals supported by a card slip alone are not reimbursed.',
  'Receipts are required for every expense.',
].join('\n');

const LUNCH_WITH_SLIP = [
  'Lunch with a prospect at Blue Fin Grill, 2 people, $64.20 (receipt attached).',
  'Parking at the garage $14.00 (receipt attached)',
  '',
  'Receipt (card terminal copy):',
  'BLUE FIN GRILL',
  'SALE          $56.20',
  'TIP            $8.00',
  'TOTAL         $64.20',
  'APPROVED  AUTH CODE 88412',
  'CUSTOMER COPY',
].join('\n');

describe('expense-policy: a card slip or statement is not an itemised receipt', () => {
  it('reads the sentence saying a slip is no itemised receipt for meals', () => {
    const policy = readPolicy(SLIP_POLICY);
    expect(policy.proofRules).toHaveLength(1);
    expect(policy.proofRules[0].kinds).toEqual(['card slip']);
    expect(policy.proofRules[0].categories).toEqual(['meals']);
  });

  it('refuses a meal supported by a terminal slip only, and keeps the rest of the claim', () => {
    const result = analyse(LUNCH_WITH_SLIP, SLIP_POLICY);
    expect(result.verdict).toBe('reject');
    expect(result.reimbursable_amount).toBe(14);
    expect(result.violations.join(' ')).toMatch(/itemised receipt required .*card slip/);
  });

  it('a card statement is refused when the policy says statements are no receipts', () => {
    const policy = [
      'Receipts: an original receipt is required for all expenses over $25.',
      'Credit card statements are not accepted as receipts.',
    ].join('\n');
    const claim = 'Hotel dinner $58.00 - receipt lost, card statement line attached instead (receipt attached)';
    const result = analyse(claim, policy);
    expect(result.verdict).toBe('reject');
    expect(result.reimbursable_amount).toBe(0);
  });

  it('an itemised-receipt rule is not met by a slip, whatever the category', () => {
    const policy = 'An itemised receipt is required for every expense over $20.';
    const result = analyse(LUNCH_WITH_SLIP, policy);
    expect(result.verdict).toBe('reject');
    expect(result.reimbursable_amount).toBe(14);
  });

  it('an itemised receipt meets the same rules', () => {
    const itemised = [
      'Lunch with a prospect at Blue Fin Grill, 2 people, $64.20 (receipt attached).',
      '',
      'BLUE FIN GRILL',
      'Fish tacos      $24.00',
      'Caesar salad    $18.00',
      'Iced tea x2      $8.00',
      'Sales tax        $6.20',
      'Tip              $8.00',
      'Total           $64.20',
    ].join('\n');
    const result = analyse(itemised, SLIP_POLICY);
    expect(result.verdict).toBe('approve');
    expect(result.reimbursable_amount).toBe(64.2);
  });
});
