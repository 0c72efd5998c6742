/**
 * RULES.md "per-diem schedule": a table of rates per place whose rows carry the lodging rate and the M&IE broken into
 * its meals on the same row ("Denver, CO  $199  $79  $20  $22  $32  $5"), and lettered sub-items ("c) No receipts are
 * required for M&IE") read as the sentences they are.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const POLICY = [
  'Travel Policy TP-4 (United States)',
  '',
  '1. Rates (adopted from the federal table):',
  '   Location           Lodging (per night)   M&IE   Breakfast  Lunch  Dinner  Incidentals',
  '   Denver, CO         $199                  $79    $20        $22    $32     $5',
  '   Standard CONUS     $110                  $68    $16        $19    $28     $5',
  '',
  '2. M&IE per diem.',
  '   a) The first and last day of travel are paid at 75% of the full M&IE rate.',
  '   b) When a meal is provided, deduct that meal\'s amount from the table above for that day.',
  '   c) No receipts are required for M&IE.',
  '3. Receipts are required for every expense of $25 or more.',
].join('\n');

describe('expense-policy: a rate table with lodging and meals on each place\'s row', () => {
  it('reads each place\'s lodging rate as its nightly cap and its meals as the M&IE breakdown', () => {
    const p = readPolicy(POLICY);
    expect(p.places.caps.map((c) => [c.places, c.cents, c.fallback])).toEqual([[['Denver'], 19900n, false], [[], 11000n, true]]);
    expect(p.schedules.meals.map((m) => [m.full, m.meals.get('lunch')])).toEqual([[7900n, 2200n], [6800n, 1900n]]);
    expect(p.receiptFree).toEqual(['per diem']);
    expect(p.receipts.map((r) => [r.cents, r.categories])).toEqual([[2500n, []]]);
  });

  it('deducts a provided lunch from a full day, pays the travel days at 75%, and caps the Denver hotel', () => {
    const expense = [
      { date: '2026-05-04', description: 'Per diem - Denver, CO (travel day)', category: 'Per Diem M&IE', amount: 59.25 },
      { date: '2026-05-05', description: 'Per diem - Denver, CO, lunch provided by the host', category: 'Per Diem M&IE', amount: 57 },
      { date: '2026-05-06', description: 'Per diem - Denver, CO (travel day)', category: 'Per Diem M&IE', amount: 59.25 },
      { date: '2026-05-06', description: 'Hotel Larimer Denver, 2 nights', category: 'Lodging', amount: 430, nights: 2, receipt: true },
    ];
    const r = expensePolicyEngine.analyse({ expense: JSON.stringify(expense), expensePolicy: POLICY });
    expect(r.verdict).toBe('flag');
    // 59.25 + 57.00 + 59.25 + 2 × 199.00 = 573.50
    expect(r.reimbursable_amount).toBe(573.5);
    expect(r.violations).toHaveLength(1);
  });
});

describe('expense-policy: a heading saying in brackets what it includes', () => {
  it('keeps the category its own words name ("Lodging (per night, breakfast included)" is no meal limit)', () => {
    const p = readPolicy(['4. Lodging (per night, breakfast included)', '   Up to USD 180 in New York; up to USD 140 elsewhere.', '5. Meals', '   Up to USD 60 per day.'].join('\n'));
    expect(p.caps.map((c) => [c.category, c.cents])).toEqual([['lodging', 18000n], ['lodging', 14000n], ['meals', 6000n]]);
  });
});
