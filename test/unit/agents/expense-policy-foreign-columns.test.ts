/**
 * A report listing each expense in the currency it was paid in beside the amount posted to the card in the policy's
 * currency ("PHP 1,240.00   USD 21.48"): the posted amount is the claim. A currency code between a whole number and
 * an amount opens the amount ("Greenbelt 5  PHP 1,240.00"). The report's settlement lines under its total ("Advance
 * applied", "Amount to be reimbursed") are no expenses. A resort, a B&B or a guest folio is lodging, and "Bed &
 * Breakfast" is a room's rate, not a meal.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { amountsIn } from '../../../lambdas/agents/engines/expense-policy/lines.js';
import { categoriesIn } from '../../../lambdas/agents/engines/expense-policy/words.js';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const REPORT = [
  'Expense report ER-2207                                 Base currency: USD',
  '',
  'DATE         CATEGORY   MERCHANT                           AMOUNT        REIMB. (USD)',
  '--------------------------------------------------------------------------------------',
  '03 Mar 2026  Meals      Warung Sate Khas, Kuta 7         IDR 412,000.00   USD 25.06',
  '                        Dinner (alone) · Receipt: attached',
  '04 Mar 2026  Lodging    Alila Seminyak                   IDR 3,200,000.00 USD 194.65',
  '                        2 nights · Receipt: attached',
  '--------------------------------------------------------------------------------------',
  '                                   Total reimbursable amount        USD 219.71',
  '                                   Advance applied                  USD 0.00',
  '                                   Amount to be reimbursed          USD 219.71',
].join('\n');

const POLICY = [
  'Policy currency: USD. Foreign-currency card expenses are reimbursed at the USD amount posted on the card.',
  'Meals: up to USD 80 per day.',
  'Hotels: up to USD 150 per night.',
  'An itemised receipt is required for every expense of USD 25 or more.',
].join('\n');

describe('expense-policy: amounts paid abroad beside the amount posted in the policy currency', () => {
  it('reads a code between a whole number and an amount as the amount\'s', () => {
    expect(amountsIn('Kuta 7   IDR 412,000.00   USD 25.06').map((a) => [a.cents, a.currency])).toEqual([[41200000n, 'IDR'], [2506n, 'USD']]);
    expect(amountsIn('Lunch 12.50 EUR').map((a) => [a.cents, a.currency])).toEqual([[1250n, 'EUR']]);
  });

  it('claims the posted amounts, and reads no settlement line as an expense', () => {
    const items = readExpense(REPORT, 'USD').items;
    expect(items.map((i) => [i.cents, i.currency, i.foreign?.currency])).toEqual([[2506n, 'USD', 'IDR'], [19465n, 'USD', 'IDR']]);
    expect(run(REPORT, POLICY)).toMatchObject({ verdict: 'approve', reimbursable_amount: 219.71 });
  });
});

describe('expense-policy: lodging words', () => {
  it('reads a resort, a B&B and a folio\'s room charge as lodging, and Bed & Breakfast as no meal', () => {
    expect(categoriesIn('sea breeze beach resort, 2 nights')).toEqual(['lodging']);
    expect(categoriesIn('rate: bed & breakfast')).toEqual(['lodging']);
    expect(categoriesIn('room charge 14/10')).toEqual(['lodging']);
    expect(categoriesIn('breakfast at the station')).toEqual(['meals']);
  });
});
