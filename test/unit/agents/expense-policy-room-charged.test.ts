/**
 * RULES.md: a hotel folio with no total line settled by one payment to a zero balance is one receipt; a restaurant's
 * check typed out under the folio, its total a folio line, itemises that line; and the meal charged to the room is
 * checked as a meal of its own (its alcohol, its meal limit), the room's cap held to the room alone. Limits per meal
 * may put the amount before the meal ("up to $25 breakfast, $40 lunch and $80 dinner").
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';
import { readDocument } from '../../../lambdas/agents/engines/expense-policy/document.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'Lodging: hotel room up to $200 per night.',
  'Meals: actual cost, up to $25 breakfast, $40 lunch and $80 dinner per person.',
  'Alcohol is not reimbursable.',
].join('\n');

const CLAIM = [
  'Expense report - Dana Whitfield - Denver site visit',
  '1  05/12/2026  Taxi        Metro Cab airport to hotel     62.00',
  '2  05/12/2026  Hotel       Larimer Lodge, folio 5521     463.00',
  '                                          Report Total    525.00',
  '',
  'Folio - Larimer Lodge, Denver    Arrival 05/12/2026  Departure 05/14/2026',
  '  05/12  Room - King                         185.00',
  '  05/12  Copper Kettle Restaurant Chk 881     93.00',
  '  05/13  Room - King                         185.00',
  '  05/14  Mastercard ****7710                -463.00',
  '         Balance                               0.00',
  '',
  'Copper Kettle Restaurant  Chk 881  05/12/2026 20:15  Table 4  Covers 1',
  '  1 Ribeye steak                 54.00',
  '  1 Caesar salad                 14.00',
  '  2 Pint lager @ 8.50            17.00',
  '  1 Cheesecake                    8.00',
  '  Total                          93.00   Charged to room',
].join('\n');

describe('expense-policy: a meal charged to the room', () => {
  it('reads amounts before their meals as one limit a meal', () => {
    const caps = readPolicy(POLICY).caps.filter((c) => c.category === 'meals');
    expect(caps.map((c) => [c.cents, c.scope])).toEqual([[2500n, ['breakfast']], [4000n, ['lunch']], [8000n, ['dinner']]]);
  });

  it('splits the restaurant check off the folio: the room within its cap, the dinner without its beer', () => {
    const r = analyse(CLAIM, POLICY);
    // Room 2 × 185.00 = 370.00 (≤ 2 × 200); dinner 93.00 − 17.00 beer = 76.00 (≤ 80); taxi 62.00.
    expect(r.reimbursable_amount).toBe(508);
    expect(r.violations.join('\n')).toMatch(/Copper Kettle.*alcohol.*Pint lager/s);
    expect(r.violations.join('\n')).not.toMatch(/over the cap/);
  });

  it('reads no total from a payment that leaves a balance', () => {
    const unpaid = CLAIM.replace('-463.00', '-400.00').replace('Balance                               0.00', 'Balance                              63.00');
    const totals = (text: string) => readDocument(text).entries.map((e) => e.receipt?.total.cents).filter((c) => c !== undefined);
    expect(totals(CLAIM)).toEqual([46300n]);
    expect(totals(unpaid)).toEqual([]);
  });
});

describe('expense-policy: a report itemising a folio with room service and a personal line', () => {
  const POLICY2 = ['Hotel room up to $250 per night.', 'Meals up to $60 per day.', 'In-room movies are personal.'].join('\n');
  const REPORT = [
    'Line  Date        Expense Type   Merchant                 Amount',
    ' 1    04/08/2026  Hotel          Riverside Suites         533.40',
    '                  Itemization:',
    '                    04/06  Hotel Room                      240.00  Yes',
    '                    04/06  Room Service                     41.20  Yes',
    '                    04/07  Hotel Room                      240.00  Yes',
    '                    04/07  Personal (non-reimbursable) - movie  12.20  No',
    ' 2    04/08/2026  Taxi           Yellow Cab                 40.00',
    '                                        Report total:     573.40',
    '',
    'Folio - Riverside Suites   Arr 04/06/26   Dep 04/08/26',
    '  04/06/26  Room Charge                 240.00',
    '  04/06/26  Room Service chk 118         41.20',
    '  04/07/26  Room Charge                 240.00',
    '  04/07/26  Movie                        12.20',
    '  04/08/26  Amex ****3001                        533.40',
    '            Balance                        0.00',
  ].join('\n');

  it('claims the folio less the personal line, and checks the room service as a meal', () => {
    const { items } = readExpense(REPORT, 'USD');
    const meal = items.find((i) => i.category === 'meals');
    expect(meal?.cents).toBe(4120n);
    const r = analyse(REPORT, POLICY2);
    // Room 2 × 240.00 (≤ 250), room service 41.20 (≤ 60), taxi 40.00; the movie set aside by the employee.
    expect(r.reimbursable_amount).toBe(561.2);
  });
});
