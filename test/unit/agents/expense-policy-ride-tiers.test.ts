/**
 * RULES.md "Expense": ride-hailing receipts pasted into an e-mail, one block per ride (its total, then the card it
 * was charged to, "Charged to Visa ending in 0912"), under a summary written day by day ("14.3  office -> airport
 * 31.40"): each summary line is one ride, its leading day and month a date, its receipt the one of its amount; the
 * route names where, not what (a ride, not a hotel or a dinner); the tier the receipt prints ("Ride type: Uber
 * Black") is what the whole ride was, refused in full by a policy refusing it, held when the policy's refusal naming
 * it is a sentence the agent does not read.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';

const RULES = 'Meals are reimbursed up to £50 per day.\nTaxis and rideshares are reimbursed with a receipt.';
const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy: `${RULES}\n${expensePolicy}` });

const EMAIL = [
  'Hello, the Uber rides of my Lisbon visit are below, paid with my own card. Total to pay back GBP 68.10.',
  '',
  '===== Ride A =====',
  'Uber',
  '14 March 2026, 07:05',
  'Ride type: UberX',
  'Pickup: Rua Augusta 12, Lisboa',
  'Drop-off: Aeroporto Humberto Delgado',
  'Trip fare            £19.20',
  'Booking fee          £2.20',
  'Total                £21.40',
  'Charged to Visa ending in 0912',
  '',
  '===== Ride B =====',
  'Uber',
  '14 March 2026, 22:40',
  'Ride type: Uber Black',
  'Pickup: Cais do Sodré',
  'Drop-off: Hotel Avenida Palace',
  'Trip fare            £29.50',
  'Booking fee          £3.00',
  'Total                £32.50',
  'Charged to Visa ending in 0912',
  '',
  '===== Ride C =====',
  'Uber',
  '15 March 2026, 09:10',
  'Ride type: UberX',
  'Pickup: Hotel Avenida Palace',
  'Drop-off: Rua Augusta 12, Lisboa',
  'Trip fare            £12.00',
  'Booking fee          £2.20',
  'Total                £14.20',
  'Charged to Visa ending in 0912',
  '',
  'Summary',
  '14.3  hotel -> airport            21.40',
  '14.3  restaurant -> hotel         32.50',
  '15.3  hotel -> client office      14.20',
  'Total                             68.10',
].join('\n');

describe('expense-policy: ride receipts pasted under a day-by-day summary', () => {
  it('reads one ride per summary line, at its receipt total, as ground transport with its tier', () => {
    const { items } = readExpense(EMAIL, 'GBP');
    expect(items.map((i) => [i.cents, i.category, i.tier?.tier])).toEqual([
      [2140n, 'ground', 'UberX'],
      [3250n, 'ground', 'Uber Black'],
      [1420n, 'ground', 'UberX'],
    ]);
  });

  it('refuses the whole ride of a tier the policy refuses by name, the other rides paid', () => {
    const out = analyse(EMAIL, 'Rideshare standard tier only - no Uber Black, Lyft Lux or similar.');
    expect(out.verdict).toBe('reject');
    expect(out.reimbursable_amount).toBe(35.6);
    expect(out.violations.join(' ')).toMatch(/Ride type: Uber Black/);
  });

  it('holds the ride when the refusal naming its tier is a sentence the agent does not read', () => {
    const out = analyse(EMAIL, 'Uber Black and Comfort Electric rides, in any city, stay outside what the company refunds and are refused.');
    expect(out.verdict).not.toBe('approve');
    expect(out.reimbursable_amount).toBeLessThanOrEqual(35.6);
  });
});

describe('expense-policy: service tiers refused by name under a head noun of tiers', () => {
  it('reads each name of the list as a refused tier', async () => {
    const { readPolicy } = await import('../../../lambdas/agents/engines/expense-policy/policy.js');
    const p = readPolicy('Comfort, Green and Black ride types are not reimbursed.\nMeals are reimbursed up to £50 per day.');
    expect(p.forbiddenThings.map((t) => [t.phrase, t.tier])).toEqual([['comfort', true], ['green', true], ['black', true]]);
    expect(p.notUnderstood.join(' ')).not.toMatch(/ride types/);
  });

  it('refuses the ride of a listed tier, the others paid', () => {
    const out = analyse(EMAIL.replace('Ride type: Uber Black', 'Ride type: Black'), 'Black, Lux and Comfort categories are not reimbursable and are refused in full.');
    expect(out.verdict).toBe('reject');
    expect(out.reimbursable_amount).toBe(35.6);
    expect(out.violations.join(' ')).toMatch(/Ride type: Black/);
  });

  it('does not look for a tier name on other receipts\' lines', async () => {
    const { readPolicy } = await import('../../../lambdas/agents/engines/expense-policy/policy.js');
    const p = readPolicy('Business, first and premium classes are not reimbursable.\nMeals are reimbursed up to £50 per day.');
    expect(p.forbiddenThings.some((t) => t.tier)).toBe(false);
  });
});
