/**
 * RULES.md "Expense": a settlement form worked out in sections. The allowance section's heading may state its rate
 * ("PER DIEM (rate: 59.00)"): the rate, the days and the deductions indented under it are the working, its bottom
 * line the claim. A unit price after "po"/"à"/"je" ("2 x bilet po 3,40 zł … 6,80") is a working of the line's amount.
 * The recap under the sections ("SUMMARY: Per diem / Travel / Lodging", "Grand total"), each line repeating a
 * section's total, is no expense of its own: the claim is the sections' lines, once.
 */
import { describe, expect, it } from 'vitest';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';

const ENGLISH = [
  'TRAVEL SETTLEMENT  TS-2026-114',
  'Employee: R. Okonkwo        Trip: Leeds - Glasgow, 3-5 March 2026',
  '',
  'PER DIEM (rate: 59.00 GBP)',
  '  Full days: 2 x 59.00 ....................................   118.00',
  '  Part day 6 h (over 5 hours) ............................    29.50',
  '  Gross allowance ........................................   147.50',
  '    04.03.2026 dinner provided by the client (25%) ........   -14.75',
  '  Allowance payable ......................................   132.75',
  '',
  'TRAVEL',
  '  03.03.2026  Avanti West Coast Leeds - Glasgow, standard ...........   64.20',
  '  05.03.2026  Avanti West Coast Glasgow - Leeds, standard ...........   64.20',
  '  Travel total ......................................................  128.40',
  '',
  'LODGING',
  '  03.03.2026  Apex Glasgow, 2 nights, invoice 55120 ..................  238.00',
  '',
  'SUMMARY',
  '  Per diem ...........................................................  132.75',
  '  Travel .............................................................  128.40',
  '  Lodging ............................................................  238.00',
  '  Grand total ........................................................  499.15',
].join('\n');

const POLISH = [
  'ROZLICZENIE DELEGACJI nr 14/2026',
  '',
  'DIETY (stawka diety: 45,00 zł)',
  '  Pełne doby: 2 x 45,00 zł ....................................   90,00',
  '  Razem diety .................................................   90,00',
  '',
  'PRZEJAZDY',
  '  02.03.2026  Polregio Kraków - Tarnów, bilet ...................   21,50',
  '  03.03.2026  MPK Tarnów, 2 x bilet jednorazowy po 3,40 zł .......    6,80',
  '  04.03.2026  Polregio Tarnów - Kraków, bilet ...................   21,50',
  '  Razem przejazdy ...............................................   49,80',
  '',
  'ZESTAWIENIE',
  '  Diety .........................................................   90,00',
  '  Przejazdy .....................................................   49,80',
  '  OGÓŁEM ........................................................  139,80',
].join('\n');

describe('expense-policy: a settlement form in sections with a recap', () => {
  it('reads the rated allowance at its bottom line, the sections once, the recap not', () => {
    const { items } = readExpense(ENGLISH, 'GBP');
    expect(items.map((i) => i.cents)).toEqual([13275n, 6420n, 6420n, 23800n]);
    expect(items[0].category).toBe('per diem');
  });

  it('reads a unit price after "po" as the working of its line, and the Polish recap under OGÓŁEM not', () => {
    const { items } = readExpense(POLISH, 'PLN');
    expect(items.map((i) => i.cents)).toEqual([9000n, 2150n, 680n, 2150n]);
  });
});
