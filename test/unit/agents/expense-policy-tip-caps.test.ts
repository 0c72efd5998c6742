/**
 * RULES.md "tip cap": a policy may cap tips per category (one share for meals, another for rideshare); each cap holds
 * its own category's tips, so a meal tip is never held only to the rideshare cap (nor the reverse).
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const DINNER = [
  'Dinner at Copper Kettle, client meeting',
  '  Roast chicken        30.00',
  '  Salad                20.00',
  '  Subtotal             50.00',
  '  Tax                   4.00',
  '  Tip                  15.00',
  '  Total                69.00',
].join('\n');

const RIDE = [
  'Lyft ride from the airport to the office',
  '  Ride fare            40.00',
  '  Subtotal             40.00',
  '  Tax                   3.00',
  '  Tip                   8.00',
  '  Total                51.00',
].join('\n');

describe('expense-policy: a tip cap per category', () => {
  const meals_first = ['Meal tips are reimbursed up to 20% of the pre-tax subtotal.', 'Rideshare tips are reimbursed up to 25% of the fare.'].join('\n');
  const ride_first = ['Rideshare tips are reimbursed up to 25% of the fare.', 'Meal tips are reimbursed up to 20% of the pre-tax subtotal.'].join('\n');

  it('holds a meal tip to the meal cap whichever sentence comes last', () => {
    for (const policy of [meals_first, ride_first]) {
      const result = analyse(DINNER, policy);
      // 20% × 50.00 = 10.00; tip 15.00 → 5.00 deducted.
      expect(result.verdict).toBe('flag');
      expect(result.reimbursable_amount).toBe(64);
      expect(result.violations.join(' ')).toMatch(/Meal tips are reimbursed up to 20%/);
    }
  });

  it('holds a rideshare tip to the rideshare cap, not the meal one', () => {
    for (const policy of [meals_first, ride_first]) {
      // 8.00 ≤ 25% × 40.00 = 10.00: within its own cap.
      const result = analyse(RIDE, policy);
      expect(result.verdict).toBe('approve');
      expect(result.reimbursable_amount).toBe(51);
    }
  });

  it('reads two shares in one sentence, each with its clause', () => {
    const policy = 'Tips are reimbursed up to 20% on meals and up to 25% on taxis and rideshare.';
    const dinner = analyse(DINNER, policy);
    expect(dinner.reimbursable_amount).toBe(64);
    const ride = analyse(RIDE.replace('Tip                   8.00', 'Tip                  12.00').replace('51.00', '55.00'), policy);
    // 25% × 40.00 = 10.00; tip 12.00 → 2.00 deducted.
    expect(ride.verdict).toBe('flag');
    expect(ride.reimbursable_amount).toBe(53);
  });
});
