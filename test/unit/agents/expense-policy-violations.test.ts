/**
 * RULES.md "Per item": every rule an item breaks is listed, even after one that rejects it, and the reimbursable
 * amount is worked through all of them (alcohol deducted, then the cap; nothing while a rule rejects or an approval
 * is pending). Before, the check stopped at the first reject, so a reviewer saw "no receipt" and never the alcohol,
 * the cap or the forbidden class behind it. Every figure below is worked by hand in the comment above it.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { resultSchema } from '../../../lambdas/agents/engines/expense-policy/schema.js';

const POLICY = [
  'Meals are capped at $75 per person per day.',
  'Hotel up to $250 per night.',
  'Receipts are required for any expense over $25.',
  'Alcohol is not reimbursable.',
  'Airfare must be economy class. Business class requires VP approval.',
].join('\n');

/** A policy with hard limits: a forbidden category, two forbidden classes, an approval threshold. */
const STRICT = [
  'Entertainment is not reimbursable.',
  'First class is not allowed.',
  'Business class is not permitted.',
  'Receipts are required for any expense over $25.',
  'Expenses over $500 require manager approval.',
  'Alcohol is not reimbursable.',
].join('\n');

function run(expense: unknown, expensePolicy = POLICY) {
  const text = typeof expense === 'string' ? expense : JSON.stringify(expense);
  const result = expensePolicyEngine.analyse({ expense: text, expensePolicy });
  expect(resultSchema.parse(result)).toEqual(result);
  return result;
}

const RECEIPT = 'receipt required ("Receipts are required for any expense over $25")';
const ALCOHOL = 'alcohol is not reimbursable ("Alcohol is not reimbursable")';
const MEALS_CAP = 'meals over the cap ("Meals are capped at $75 per person per day")';

describe('expense-policy: every violation of an item is listed', () => {
  it('a dinner with no receipt, itemised wine and over the cap: three violations, nothing reimbursable now', () => {
    // 420.00 > 25.00 and receipt false → reject (receipt). Wine 60.00 itemised → flag, 420.00 − 60.00 = 360.00.
    // Cap 75.00 × 4 people × 1 day = 300.00 < 360.00 → flag, 60.00 over. Rejected → 0 now; with its receipt it would
    // be 300.00 (the note says so). Verdict reject. (Before: only the receipt was listed.)
    const r = run({ category: 'Meals', amount: 420, attendees: 4, alcohol: 60, receipt: false, currency: 'USD' });
    expect(r).toMatchObject({ verdict: 'reject', reimbursable_amount: 0 });
    expect(r.violations).toEqual([
      `${RECEIPT}: $420.00 with no receipt`,
      `${ALCOHOL}: $60.00 deducted`,
      `${MEALS_CAP}: $360.00 > $75.00 × 4 person(s) × 1 day(s) = $300.00; $60.00 not reimbursed`,
    ]);
    expect(r.note).toContain('Once its receipt is provided, the expense would be reimbursable at $300.00.');
  });

  it('a business-class flight with no receipt over the approval threshold, under a policy that forbids the class', () => {
    // Business class forbidden → reject. 1200.00 > 25.00, "no receipt" → reject. 1200.00 > 500.00 → manager approval
    // (flag). Two rejects → 0, and no "once its receipt" figure (the class still rejects it). (Before: the class only.)
    const r = run('Flight to Boston, business class, $1,200.00, no receipt', STRICT);
    expect(r).toMatchObject({ verdict: 'reject', reimbursable_amount: 0 });
    expect(r.violations).toEqual([
      'business class is not allowed ("Business class is not permitted")',
      `${RECEIPT}: $1200.00 with no receipt`,
      'manager approval required ("Expenses over $500 require manager approval"): $1200.00 withheld until approved',
    ]);
    expect(r.note).not.toContain('Once its receipt');
  });

  it('three lines of free text: the reimbursable total is worked through every rule of every item', () => {
    // Item 1: 420.00 − wine 60.00 = 360.00 > 75.00 × 4 × 1 = 300.00 → two flags, 300.00.
    // Item 2: first class breaks "must be economy" (no approval path for first) → reject; 2400.00 with "no receipt"
    //         → reject; 0.00.
    // Item 3: 840.00 > 250.00 × 3 nights = 750.00 → flag, 750.00.
    // Total 300.00 + 0.00 + 750.00 = 1050.00; any reject → reject. (Before: item 2 listed only its class.)
    const claim = [
      "Team dinner at Luigi's, 4 people, $420 including $60 of wine, receipt attached",
      'Flight to Boston, first class, $2,400.00, no receipt',
      'Hotel 3 nights $840 receipt attached',
    ].join('\n');
    const r = run(claim);
    expect(r).toMatchObject({ verdict: 'reject', reimbursable_amount: 1050 });
    const dinner = "item 1 (Team dinner at Luigi's, 4 people, $420 including $60 of wine)";
    const flight = 'item 2 (Flight to Boston, first class, $2,400.00, no receipt)';
    expect(r.violations).toEqual([
      `${dinner}: ${ALCOHOL}: $60.00 deducted`,
      `${dinner}: ${MEALS_CAP}: $360.00 > $75.00 × 4 person(s) × 1 day(s) = $300.00; $60.00 not reimbursed`,
      `${flight}: first class breaks "Airfare must be economy class"`,
      `${flight}: ${RECEIPT}: $2400.00 with no receipt`,
      'item 3 (Hotel 3 nights $840 receipt attached): lodging over the cap ("Hotel up to $250 per night"): $840.00 > $250.00 × 3 night(s) = $750.00; $90.00 not reimbursed',
    ]);
  });

  it('a Ramp-style card export: forbidden class and category each listed with the rules behind them', () => {
    // Row 1: first class forbidden → reject; empty Receipt cell, 2400.00 > 25.00 → reject; 2400.00 > 500.00 → approval
    //        (flag). 0.00.
    // Row 2: entertainment forbidden → reject; memo "incl. $40 wine" → flag, 40.00 deducted. 0.00.
    // Row 3: taxi 32.00 > 25.00 with a receipt file → nothing; no ground cap → 32.00.
    // Total 32.00, reject.
    const csv = [
      'Date,Merchant,Category,Amount,Currency,Memo,Receipt',
      '2026-03-04,Delta Air Lines,Airfare,"2,400.00",USD,First class JFK-LAX,',
      '2026-03-05,Blue Note,Entertainment,180.00,USD,Client jazz night incl. $40 wine,yes',
      '2026-03-05,Yellow Cab,Taxi,32.00,USD,Blue Note to hotel,receipt_0305.jpg',
    ].join('\n');
    const r = run(csv, STRICT);
    expect(r).toMatchObject({ verdict: 'reject', reimbursable_amount: 32 });
    const flight = 'item 1 (2026-03-04 Delta Air Lines First class JFK-LAX)';
    const club = 'item 2 (2026-03-05 Blue Note Client jazz night incl. $40 wine)';
    expect(r.violations).toEqual([
      `${flight}: first class is not allowed ("First class is not allowed")`,
      `${flight}: ${RECEIPT}: $2400.00 with no receipt`,
      `${flight}: manager approval required ("Expenses over $500 require manager approval"): $2400.00 withheld until approved`,
      `${club}: entertainment is not reimbursable ("Entertainment is not reimbursable")`,
      `${club}: ${ALCOHOL}: $40.00 deducted`,
    ]);
  });
});

describe('expense-policy: the verdict follows the worst violation', () => {
  it('flags only: flag, and the reimbursable amount is what is left after them', () => {
    // 420.00 − 60.00 = 360.00 → cap 300.00; receipt attached → two flags, no reject → flag, 300.00. (Guard: held
    // before too.)
    const r = run("Team dinner at Luigi's, 4 people, $420 including $60 of wine, receipt attached");
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 300 });
    expect(r.violations).toHaveLength(2);
  });
});
