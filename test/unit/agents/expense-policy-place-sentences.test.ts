/**
 * Limits by place written as sentences ("USD 300 per night in Oslo, Bergen and Stockholm; USD 200 elsewhere"; a day's
 * meal limit then "USD 120 per day in Oslo, Stockholm"), a report column headed by a currency whose bare figures are
 * the card's posted amounts, a receipt count ("Receipts: 4/4 matched") vouching for every expense, and things paid only
 * on trips of some length ("Dry cleaning … only on trips of seven (7) or more nights").
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'NORDIC TRAVEL RULES (excerpt)                         Policy currency: USD',
  '',
  'Hotels. Up to USD 300 per night in Oslo, Bergen and Stockholm; USD 200 elsewhere.',
  'Meals. Actual cost, up to USD 90 per calendar day; USD 120 per day in Oslo, Stockholm.',
  'Dry cleaning. Reimbursable only on trips of seven (7) or more consecutive nights away from home.',
].join('\n');

const report = (city: string, nights: number, hotelUsd: string, extra: string[] = []) => [
  `Trip: ${city} customer workshop`,
  '',
  'Date           Category   Merchant                 Details                 Original        USD',
  `Mar 2, 2026    Hotel      Hotel Norge              ${nights} nights                 NOK 5,000.00  ${hotelUsd}`,
  'Mar 3, 2026    Meals      Fiskeriet                Lunch - solo            NOK 450.00     45.00',
  'Mar 3, 2026    Meals      Lofoten Fiskerestaurant  Dinner - solo           NOK 700.00     70.00',
  ...extra,
  '',
  'Receipts: 9/9 matched.',
].join('\n');

describe('expense-policy: limits by place written as sentences', () => {
  it('holds a hotel and a day\'s meals in a listed city to that city\'s limits', () => {
    // Oslo: hotel 280/night ≤ 300; meals 115 on the day ≤ 120.
    expect(run(report('Oslo', 2, '560.00'), POLICY)).toMatchObject({ verdict: 'approve', reimbursable_amount: 675 });
  });

  it('holds them elsewhere to the limits for every other place, the day\'s meals pooled', () => {
    // Trondheim: hotel 2 × 200 = 400 of 560; meals 115 on one day, 90 allowed.
    expect(run(report('Trondheim', 2, '560.00'), POLICY)).toMatchObject({ verdict: 'flag', reimbursable_amount: 490 });
  });

  it('reads the bare figures under a currency column as that currency, the amount paid abroad beside them', () => {
    const items = readExpense(report('Oslo', 2, '560.00'), 'USD').items;
    expect(items.map((i) => [i.cents, i.currency, i.foreign?.currency])).toEqual([[56000n, 'USD', 'NOK'], [4500n, 'USD', 'NOK'], [7000n, 'USD', 'NOK']]);
    expect(items.every((i) => i.receipt === true)).toBe(true);
  });
});

describe('expense-policy: things paid only on trips of some length', () => {
  const cleaning = 'Mar 4, 2026    Other      Hotel Norge              Dry cleaning - 1 suit   NOK 300.00     30.00';

  it('refuses the thing on a shorter trip, counting the hotel nights', () => {
    const r = run(report('Oslo', 3, '840.00', [cleaning]), POLICY);
    expect(r).toMatchObject({ verdict: 'reject', reimbursable_amount: 955 });
    expect(r.violations.join(' ')).toMatch(/dry cleaning claimed on a trip of 3 night/);
  });

  it('pays it on a trip long enough', () => {
    expect(run(report('Oslo', 8, '2400.00', [cleaning]), POLICY)).toMatchObject({ verdict: 'approve', reimbursable_amount: 2545 });
  });

  it('reads the condition inside a list of refusals, and holds the item when the trip\'s length is not shown', () => {
    const policy = 'Policy currency: EUR. Not reimbursed: minibar, pay-TV, laundry on trips under 5 nights, fines.';
    const r = run('Laundry at the hotel, EUR 25.00, receipt attached', policy);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 0 });
    expect(r.violations[0]).toMatch(/does not show the trip's length/);
    expect(run('Taxi to the office, EUR 25.00, receipt attached', policy)).toMatchObject({ verdict: 'approve', reimbursable_amount: 25 });
  });
});

describe('expense-policy: a limit per meal written on one line', () => {
  const policy = 'All amounts in euros. Meals: breakfast up to EUR 12.00, lunch up to EUR 20.00, dinner up to EUR 40.00, per person per day.';

  it('holds each meal to its own limit, not the first of the line', () => {
    expect(run('2026-06-02 Dinner at Brasserie Flo, EUR 38.00, receipt attached', policy)).toMatchObject({ verdict: 'approve', reimbursable_amount: 38 });
    expect(run('2026-06-02 Lunch at Café Rouge, EUR 26.00, receipt attached', policy)).toMatchObject({ verdict: 'flag', reimbursable_amount: 20 });
  });
});
