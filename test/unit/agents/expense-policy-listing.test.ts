/**
 * RULES.md "Expense": a listing in an e-mail closed by its sum, with its receipts pasted below. Each listed line is one
 * expense (two of the same amount too); a line's working ("2 x EUR 25,00") is not its amount; a pasted receipt whose
 * total is a listed line is that line's receipt, though it prints no tax; a ticket below repeating a listed line is
 * its support; a day and month with its closing dot ("Tue 03.02.") is a date.
 */
import { describe, expect, it } from 'vitest';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';

const MAIL = [
  'Subject: Travel costs Lyon 03-06 Feb 2026',
  '',
  'Hello, please reimburse my trip to the Lyon plant (Tue 03.02. to',
  'Fri 06.02.2026).',
  '',
  '  Air France ticket CDG-LYS-CDG, Economy Standard ........ EUR 188,40',
  '  Air France seat, 2 x EUR 25,00 (both legs) ............ EUR 50,00',
  '  Rhonexpress airport -> Part-Dieu (03.02.) ............. EUR 16,90',
  '  Rhonexpress Part-Dieu -> airport (06.02.) ............. EUR 16,90',
  '                                                          ----------',
  '  Total                                                   EUR 272,20',
  '',
  'Regards, Lea',
  '',
  '---- pasted: Air France receipt ----',
  'Air France - Receipt / Reçu           Date: 12.01.2026',
  'Flight AF7640 CDG-LYS 03.02.2026, AF7647 LYS-CDG 06.02.2026',
  'Fare / Tarif                                 EUR  92,00',
  'Carrier surcharge (YQ)                       EUR  48,00',
  'Airport charges / Redevances                 EUR  48,40',
  'Total / Total                                EUR 188,40',
  '',
  '---- pasted: Rhonexpress e-tickets ----',
  'Rhonexpress e-ticket 88120, 03.02.2026   1 x Adult single   EUR 16,90',
  'Rhonexpress e-ticket 88174, 06.02.2026   1 x Adult single   EUR 16,90',
].join('\n');

describe('expense-policy: a listing closed by its sum, its receipts below', () => {
  const { items } = readExpense(MAIL, 'EUR');

  it('reads the four listed lines, the equal train fares twice, the seat at its line amount, no date as money', () => {
    expect(items.map((i) => i.cents)).toEqual([18840n, 5000n, 1690n, 1690n]);
    expect(items.map((i) => i.at[0].line)).toEqual([6, 7, 8, 9]);
  });

  it('the pasted receipt whose total is a listed line is that line\'s receipt, with its lines', () => {
    expect(items[0].receipt).toBe(true);
    expect(items[0].parts?.map((p) => p.cents)).toEqual([9200n, 4800n, 4840n]);
    expect(items[0].category).toBe('airfare');
  });

  it('a ticket below repeating a listed fare is that fare\'s support; the seat line without one has no receipt', () => {
    expect(items[2].receipt).toBe(true);
    expect(items[3].receipt).toBe(true);
    expect(items[1].receipt).toBeUndefined();
  });
});
