/**
 * A general-ledger report printed in columns whose text columns are named "Comment" and "Source #" (the Sage 50
 * family of reports): the comment is the description a counterparty is read from, the source number is the entry's
 * reference (a cheque number on a cheque). Written for these tests, not copied from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { rec, shape } from '../../support/bank-rec-engine.js';

const books = [
  'Harbour Bakery Inc.',
  'General Ledger Report 03/01/2026 to 03/31/2026',
  '',
  'Date        Comment                              Source #   JE #       Debits     Credits      Balance',
  '-----------------------------------------------------------------------------------------------------',
  '1060 Chequing',
  '                                                                                         10,000.00 Dr',
  '03/02/2026  Flour Mills Co - invoice 881        1101       J100                  2,540.00   7,460.00 Dr',
  '03/04/2026  Deposit - cafe sales                DEP-0304   J101     5,000.00                12,460.00 Dr',
  '03/10/2026  Provincial Hydro                    HYD-03     J102                    715.40   11,744.60 Dr',
  '03/12/2026  Northern Packaging                  1102       J103                    830.00   10,914.60 Dr',
  '                                                                    --------  ----------',
  '                                                                    5,000.00    4,085.40',
].join('\n');

describe('a ledger report with Comment and Source # columns', () => {
  it('reads the comment as the description and the source number as the cheque number', () => {
    const bank = ['03/05/2026,-2540.00,-,CHQ#01101,CHQ#01101-0000123', '03/04/2026,5000.00,-,DEPOSIT,BRANCH DEPOSIT', '03/10/2026,-751.40,-,BILL PAYMENT,PROVINCIAL HYDRO PAD'].join('\n');
    const r = rec(bank, books);
    // Hydro booked 715.40, paid 751.40: the same counterparty on the same day, one difference; cheque 1102 open.
    expect(shape(r)).toEqual([['outstanding_check', 830], ['amount_mismatch', -36]]);
    expect(r.matched).toBe(2);
  });
});

describe('two digits transposed', () => {
  const bank = (amount: string) => ['Date,Description,Amount', '04/06/2026,ALPINE ROOFING PAYMENT,' + amount, '04/07/2026,DEPOSIT,900.00'].join('\n');
  const books = ['Date,Description,Amount', '04/06/2026,Alpine Roofing - invoice 77,-1250.00', '04/07/2026,Customer deposit,900.00'].join('\n');

  it('pairs one payment to the same counterparty whose figure has two digits swapped, far beyond 10%', () => {
    const r = rec(bank('-2150.00'), books);
    expect(shape(r)).toEqual([['amount_mismatch', -900]]);
    expect(r.exceptions[0].detail).toContain('two transposed');
  });

  it('leaves an unexplained difference of the same size as two exceptions', () => {
    expect(shape(rec(bank('-2160.00'), books))).toEqual([['missing_in_books', -2160], ['missing_on_bank', 1250]]);
  });
});
