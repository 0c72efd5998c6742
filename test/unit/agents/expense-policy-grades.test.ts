/**
 * RULES.md "entitlements by grade and city tier" (grades.ts): cities listed per tier, a table of grades by tier under
 * headings naming the hotel cap and the daily allowance; the claimant's grade picks the row, the city's tier the column.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const POLICY = [
  'KAVERI PUMPS LTD - TRAVEL POLICY. All amounts in Indian Rupees (INR).',
  '',
  '1. City classes',
  'Class A: Mumbai, Delhi, Bengaluru.',
  'Class B: Nagpur, Surat, Mysuru.',
  'Class C: all other locations.',
  '',
  '2. Entitlements',
  '                   Lodging (per night)                  Daily Allowance per day',
  '   Grade         Class A    Class B    Class C        Class A    Class B    Class C',
  '   G1 - G3         8,000      6,000      4,000          2,000      1,500      1,000',
  '   G4 - G6         5,000      4,000      3,000          1,500      1,100        800',
].join('\n');

function run(grade: string, items: unknown[]) {
  return expensePolicyEngine.analyse({ expense: JSON.stringify({ employee: 'A. Rao', note: `Grade: ${grade}`, items }), expensePolicy: POLICY });
}

describe('expense-policy: entitlements by grade and city tier', () => {
  it('reads the tiers and each grade row\'s lodging and allowance per tier', () => {
    const g = readPolicy(POLICY).grades!;
    expect(g.tiers.map((t) => [t.name, t.places, t.fallback])).toEqual([
      ['class-a', ['Mumbai', 'Delhi', 'Bengaluru'], false], ['class-b', ['Nagpur', 'Surat', 'Mysuru'], false], ['class-c', [], true],
    ]);
    expect(g.rows.map((r) => r.label)).toEqual(['G1 - G3', 'G4 - G6']);
    expect(g.rows[1].amounts.filter((a) => a.tier === 'class-b').map((a) => [a.category, a.cents])).toEqual([['lodging', 400000n], ['per diem', 110000n]]);
  });

  it('holds a G5 hotel in Nagpur to the class-B cap of its row and pays the allowance within its rate', () => {
    const r = run('G5', [
      { date: '2026-08-03', description: 'Hotel Centre Point Nagpur, 2 nights', category: 'Hotel', amount: 9000, nights: 2, receipt: true },
      { date: '2026-08-03', description: 'Daily allowance Nagpur', category: 'Daily Allowance', amount: 1100 },
    ]);
    expect(r.verdict).toBe('flag');
    // 2 × 4,000.00 + 1,100.00
    expect(r.reimbursable_amount).toBe(9100);
  });

  it('pays a G2 at its own row', () => {
    const r = run('G2', [{ date: '2026-08-03', description: 'Hotel Centre Point Nagpur, 1 night', category: 'Hotel', amount: 5800, nights: 1, receipt: true }]);
    expect(r.verdict).toBe('approve');
    expect(r.reimbursable_amount).toBe(5800);
  });
});

describe('expense-policy: GST on the hotel bill paid in addition to the room tariff', () => {
  const GST = `${POLICY}\nGST charged on the hotel bill is reimbursed in addition to the room tariff.\nThe daily allowance needs no receipt.`;
  it('holds the room, not its GST, to the grade\'s cap, and asks no receipt for the allowance', () => {
    const items = [
      { date: '2026-08-03', description: 'Hotel Centre Point Nagpur, 2 nights, room 3,900.00 x 2 = 7,800.00 + GST 12% 936.00', category: 'Hotel', amount: 8736, nights: 2, receipt: true },
      { date: '2026-08-04', description: 'Daily allowance Nagpur, 2 days x 1,100.00', category: 'Daily Allowance', amount: 2200, receipt: false },
    ];
    const r = expensePolicyEngine.analyse({ expense: JSON.stringify({ note: 'Grade: G4', items }), expensePolicy: GST });
    expect(r.verdict).toBe('approve');
    expect(r.reimbursable_amount).toBe(10936);
  });
});

describe('expense-policy: a CSV export under a preamble of labelled values', () => {
  it('reads the rows under "Report ID: …,Report Title: …" lines and the grade the preamble names', () => {
    const csv = [
      'Expense Report Export',
      'Report ID: RPT-77,Report Title: Nagpur plant visit,Submitted On: 05-Aug-2026',
      'Employee ID: K-12,Employee Name: A. Rao,Grade: G5',
      '',
      'Sr No,Txn Date,Merchant,Category,Description,Currency,Amount,Receipt Attached',
      '1,03-Aug-2026,Hotel Centre Point,Hotel,"Nagpur, 1 night",INR,"4,500.00",Yes',
      '2,03-Aug-2026,Uber,Local Conveyance,Airport to hotel,INR,420.00,Yes',
    ].join('\n');
    const r = expensePolicyEngine.analyse({ expense: csv, expensePolicy: POLICY });
    // G5 in Nagpur (class B): 4,000.00 a night; the ride within.
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(4420);
  });
});
