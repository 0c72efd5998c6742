/**
 * Headerless bank downloads read as a bookkeeper reads them: the columns told by their values, a summary row of
 * another shape at the top or bottom (the account number, the period, the opening and closing balances) set aside
 * and checked against the lines, and check numbers zero-padded to the column's width. Written from the forms
 * themselves (credit-union and regional-bank downloads), not from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { isoDate } from '../../../lambdas/agents/engines/text/dates.js';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';
import { rec, shape } from '../../support/bank-rec-engine.js';

const bank = (text: string) => readStatement(text, 'bankStatement', { perspective: 'bank' });
const lines = (s: ReturnType<typeof bank>) => s.lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100, l.reference ?? '']);

describe('a headerless download with a summary row', () => {
  // The summary: account 0045512876, period 1-31 March 2026, opening 5,000.00, closing 4,620.00, 1 credit, 2 debits.
  const summary = '0045512876,03/01/2026,03/31/2026,5000.00,4620.00,1,2';
  const body = ['03/02/2026,250.00,CHECK,0000001042,DEBIT', '03/09/2026,1400.00,PAYROLL DEPOSIT,0000000000,CREDIT', '03/20/2026,1530.00,ACH RENT,0000000000,DEBIT'];

  it('a first row of another shape is the summary, not a line; the columns are read from the rows under it', () => {
    const s = bank([summary, ...body].join('\n'));
    expect(lines(s)).toEqual([['2026-03-02', -250, '0000001042'], ['2026-03-09', 1400, '0000000000'], ['2026-03-20', -1530, '0000000000']]);
    const note = s.notes.join(' ');
    expect(note).toContain('line 1 is the export\'s summary (account, period, balances or totals), not a transaction');
    // 5,000.00 - 250.00 + 1,400.00 - 1,530.00 = 4,620.00.
    expect(note).toContain('its balances 5000.00 and 4620.00 differ by exactly the lines\' sum');
  });

  it('a summary whose balances do not tie to the lines is still set aside, without the claim', () => {
    const s = bank([summary.replace('4620.00', '4820.00'), ...body].join('\n'));
    expect(s.lines).toHaveLength(3);
    expect(s.notes.join(' ')).not.toContain('differ by exactly');
  });

  it('a closing totals row, of the table\'s width but with no date in it, is set aside too', () => {
    const s = bank([...body, '0045512876,TOTALS,1400.00,1780.00,3'].join('\n'));
    expect(s.lines.map((l) => Number(l.amountCents) / 100)).toEqual([-250, 1400, -1530]);
  });

  it('an edge row of another shape whose date cell is a date is a line (the tool dropped its empty last cell)', () => {
    const rows = ['03/01/2026,12.50,INTEREST', '03/02/2026,-250.00,CHECK,1042', '03/09/2026,1400.00,PAYROLL DEPOSIT,', '03/20/2026,-1530.00,ACH RENT,'];
    expect(bank(rows.join('\n')).lines.map((l) => Number(l.amountCents) / 100)).toEqual([12.5, -250, 1400, -1530]);
  });

  it('a zero-padded check number pairs the check however late it cleared; all zeros is no reference', () => {
    // Check 1042 written 10 February, cleared 2 March: 20 days apart, paired by its number, not as a timing difference.
    const books = 'Date,Num,Payee,Amount\n02/10/2026,1042,Hartley Plumbing,-250.00\n03/09/2026,,Payroll deposit,1400.00\n03/20/2026,,Rent,-1530.00\n';
    const r = rec([summary, ...body].join('\n'), books);
    expect(r).toMatchObject({ reconciled: true, matched: 3, net_unreconciled: 0 });
    expect(shape(r)).toEqual([]);
  });
});
