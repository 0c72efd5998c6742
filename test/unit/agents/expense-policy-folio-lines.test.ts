/**
 * RULES.md "caps on one kind of folio line": a cap on parking (or Wi-Fi, laundry) holds the folio's lines of that
 * kind, not the whole folio; room taxes paid "in addition to the maximum" are not held to the room's cap; an "Inn" is
 * a hotel.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';
import { categoriesIn } from '../../../lambdas/agents/engines/expense-policy/words.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'HOTELS',
  'Hotel room: up to $200 per night.',
  'Hotel parking: up to $30 per night.',
  'Hotel taxes are reimbursed at actual cost in addition to the nightly maximum.',
].join('\n');

const folio = (parking: string) => [
  'Hotel stay, Harbor Point Hotel, Portland, 2 nights $' + (2 * 180 + 2 * 27 + 2 * Number(parking)).toFixed(2) + ' (receipt attached)',
  '',
  'HARBOR POINT HOTEL',
  '05/04/26  Room Charge            180.00',
  '05/04/26  Lodging Tax             27.00',
  `05/04/26  Valet Parking           ${parking}`,
  '05/05/26  Room Charge            180.00',
  '05/05/26  Lodging Tax             27.00',
  `05/05/26  Valet Parking           ${parking}`,
  'Total                            ' + (2 * 180 + 2 * 27 + 2 * Number(parking)).toFixed(2),
].join('\n');

describe('expense-policy: caps on kinds of folio line', () => {
  it('reads the parking cap as a cap on parking lines and the taxes as paid in addition', () => {
    const policy = readPolicy(POLICY);
    expect(policy.caps.find((c) => c.cents === 3000n)?.kind).toBe('parking');
    expect(policy.caps.find((c) => c.cents === 20000n)?.kind).toBeUndefined();
    expect(policy.taxesExtra).toMatch(/in addition/);
  });

  it('a folio within the room cap, its taxes and parking within theirs, is paid whole', () => {
    const result = analyse(folio('25.00'), POLICY);
    expect(result.verdict).toBe('approve');
    expect(result.reimbursable_amount).toBe(464);
  });

  it('parking above its cap is cut to the cap; the room is untouched', () => {
    const result = analyse(folio('45.00'), POLICY);
    expect(result.verdict).toBe('flag');
    // 2 x 45.00 parking against 2 x 30.00: 30.00 over.
    expect(result.reimbursable_amount).toBe(474);
    expect(result.violations.join(' ')).toMatch(/parking lines/);
  });

  it('without the taxes sentence the taxes count toward the room cap', () => {
    const result = analyse(folio('25.00'), POLICY.split('\n').slice(0, 3).join('\n'));
    // room 360.00 + tax 54.00 = 414.00 against 2 x 200.00.
    expect(result.reimbursable_amount).toBe(450);
  });

  it('an Inn is lodging', () => {
    expect(categoriesIn('premier inn london city')).toContain('lodging');
    expect(categoriesIn('holiday inn express, 2 nights')).toContain('lodging');
  });
});
