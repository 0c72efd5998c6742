/**
 * RULES.md: a policy paying in ringgit ("RM 300"), its table of hotel caps per city in RM, ride-hailing apps of other
 * markets (Grab, Gojek) as ground transport, a flat daily allowance "counting the day of departure and the day of
 * return" (travel days at the full rate), and a report's receipt column naming the document ("Grab e-receipt").
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';
import { categoriesIn } from '../../../lambdas/agents/engines/expense-policy/words.js';

const POLICY = [
  'KINTA ENGINEERING SDN BHD - Outstation Travel Claims',
  '',
  '1. Claims are paid in Ringgit Malaysia (RM) with the next salary.',
  '2. Hotel (room only, including service tax), per night, up to:',
  '      Kuala Lumpur, Johor Bahru ................. RM 320',
  '      Other towns ............................... RM 220',
  '3. Daily allowance: RM 60 per calendar day, counting the day of departure and the day of return.',
  '4. Taxi and Grab fares: receipts are required.',
].join('\n');

describe('expense-policy: a policy in ringgit', () => {
  it('reads RM amounts as MYR, its city caps, and the daily allowance paid in full on travel days', () => {
    const p = readPolicy(POLICY);
    expect(p.currency).toBe('MYR');
    expect(p.places.caps.map((c) => [c.places, c.cents, c.fallback])).toEqual([[['Kuala Lumpur', 'Johor Bahru'], 32000n, false], [[], 22000n, true]]);
    expect(p.perDiem?.full).toBe(6000n);
    expect(p.perDiem?.partial).toBeUndefined();
    expect(p.receipts.map((r) => r.categories)).toEqual([['ground']]);
  });

  it('knows Grab and Gojek rides as ground transport, and "Grab & Go" as no ride', () => {
    expect(categoriesIn('grabcar klia2 -> subang jaya')).toEqual(['ground']);
    expect(categoriesIn('gojek to the office')).toEqual(['ground']);
    expect(categoriesIn('grab & go sandwich')).toEqual([]);
  });

  it('reads a receipt column naming the document as a receipt attached', () => {
    const expense = [
      'No. Date       Item                                   Amount (RM)  Receipt',
      '1   09/03/2026 Grab  office -> KLIA                       64.00    Grab e-receipt',
      '2   09/03/2026 Taxi  KLIA -> site                         52.00    none',
      '                                              TOTAL     116.00',
    ].join('\n');
    const r = expensePolicyEngine.analyse({ expense, expensePolicy: POLICY });
    expect(r.verdict).toBe('reject');
    expect(r.reimbursable_amount).toBe(64);
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0]).toContain('Taxi');
  });

  it('holds one allowance line for several days to the rate × its days', () => {
    const expense = [
      { date: '2026-03-09', description: 'Outstation daily allowance, 3 days x 60', category: 'Daily allowance', amount: 180 },
      { date: '2026-03-09', description: 'Outstation daily allowance, 2 days x 75', category: 'Daily allowance', amount: 150 },
    ];
    const r = expensePolicyEngine.analyse({ expense: JSON.stringify(expense), expensePolicy: POLICY });
    expect(r.verdict).toBe('flag');
    // 180.00 within 3 × 60.00; 150.00 over 2 × 60.00 = 120.00 by 30.00.
    expect(r.reimbursable_amount).toBe(300);
  });
});
