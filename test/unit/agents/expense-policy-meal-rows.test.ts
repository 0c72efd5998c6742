/**
 * RULES.md "schedule line" and "caps per meal": a line of a meal schedule may qualify its meal in brackets and say
 * "up to" ("Breakfast (when not included in the room rate): up to £15.00"): a limit of that meal. A meal known to be a
 * dinner is never held to the breakfast's or the lunch's limit, whatever other words it shares with their rows.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'Meals when away overnight',
  '- Breakfast (when not included in the room rate): up to £12.00.',
  '- Lunch on a travel day: up to £10.00.',
  '- Evening meal: up to £30.00 per person including drinks.',
].join('\n');

describe('expense-policy: a dinner against a meal schedule', () => {
  it('reads each schedule line as a limit of its meal', () => {
    const caps = readPolicy(POLICY).caps.filter((c) => c.category === 'meals');
    expect(caps.map((c) => [c.cents, c.scope?.[0]])).toEqual([[1200n, 'breakfast'], [1000n, 'lunch'], [3000n, 'evening']]);
  });

  it('holds a dinner to the evening meal limit only, though it shares words with the breakfast row', () => {
    const r = analyse('2026-05-04, The Hop Cellar, Dinner, service included in the room-rate area, £27.80, receipt attached', POLICY);
    expect(r.reimbursable_amount).toBe(27.8);
    expect(r.verdict).toBe('approve');
  });

  it('still holds a breakfast to the breakfast limit', () => {
    const r = analyse('2026-05-05, Station Cafe, Breakfast, £14.50, receipt attached', POLICY);
    expect(r.reimbursable_amount).toBe(12);
  });
});

describe('expense-policy: a client meal row and an attendee list wrapped in the memo column', () => {
  const POLICY2 = [
    'Meals',
    '- Solo meals: up to $50 per meal including tax and tip.',
    '- Client meals: up to $100 per attendee including tax and tip.',
  ].join('\n');
  const REPORT = [
    'Date        Merchant          Category         Amount (USD)   Memo',
    '2026-06-02  Blue Door Bistro  Meals - client        264.00   Client dinner - renewal.',
    '                                                              Attendees: Ana Ruiz (Acme),',
    '                                                              Li Wei (Beta Corp, CFO),',
    '                                                              Sam Okoro (Beta Corp)',
    '2026-06-03  Corner Deli       Meals - solo           18.50   Lunch, self',
    '                                        Total submitted      282.50',
  ].join('\n');

  it('counts every name of the wrapped list and holds the dinner to the client row per attendee', () => {
    const r = analyse(REPORT, POLICY2);
    // 264.00 ≤ 3 × 100.00; 18.50 ≤ 50.00.
    expect(r.reimbursable_amount).toBe(282.5);
    expect(r.verdict).toBe('approve');
  });
});
