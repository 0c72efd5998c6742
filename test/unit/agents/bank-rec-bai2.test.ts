/**
 * BAI2 files, the balance-reporting format of US banks: one group (02) per as-of date, the account's balances and
 * summaries (03) not lines, each 16 record a line whose type code gives its direction and whose amount has its
 * decimal point implied, 88 records carrying on the record above. Written for these tests, not from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { isoDate } from '../../../lambdas/agents/engines/text/dates.js';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';
import { rec, shape } from '../../support/bank-rec-engine.js';

const read = (text: string) => readStatement(text, 'bankStatement', { perspective: 'bank' });
const lines = (text: string) => read(text).lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100, l.description]);

const file = [
  '01,ACMEBANK,ORCHARDCO,250303,0700,1,80,,2/',
  '02,ORCHARDCO,ACMEBANK,1,250301,2400,USD,2/',
  '03,77120034,USD,010,1000000,,,015,1112500,,,100,125000,1,,400,12500,1,/',
  '16,175,125000,Z,5500101,,DEPOSIT LOCKBOX 88',
  '88,CUSTOMER PINE HILL FARMS',
  '16,475,12500,V,250302,1200,5500102,4417,CHECK PAID',
  '49,2374500,4/',
  '98,2374500,1,6/',
  '02,ORCHARDCO,ACMEBANK,1,250302,2400,USD,2/',
  '03,77120034,USD,010,1112500,,,015,1101000,,,/',
  '16,699,11500,0,5500103,,MONTHLY SERVICE CHARGE/',
  '16,890,0,Z,5500104,,INFORMATION ONLY',
  '49,2213500,3/',
  '98,2213500,1,5/',
  '99,4588000,2,13/',
].join('\n');

describe('a BAI2 file', () => {
  it('reads each 16 record as a line: direction from the type code, two decimal places implied, 88 text appended', () => {
    expect(lines(file)).toEqual([
      ['2025-03-01', 1250, 'DEPOSIT LOCKBOX 88 CUSTOMER PINE HILL FARMS'],
      ['2025-03-01', -125, 'CHECK PAID'],
      ['2025-03-02', -115, 'MONTHLY SERVICE CHARGE'],
    ]);
    expect(read(file).lines[1].reference).toBe('4417');
    expect(read(file).notes.join(' ')).toContain("opening ledger (010) of 2025-03-01 10000.00, closing ledger (015) of 2025-03-02 11010.00: they differ by exactly the lines' sum");
  });

  it('reconciles against the books: the service charge is missing in the books', () => {
    const books = ['Date,Reference,Description,Debit,Credit', '03/01/2025,INV-88,Pine Hill Farms,1250.00,', '02/27/2025,4417,Check to Valley Seed,,125.00'].join('\n');
    const r = rec(file, books);
    expect(shape(r)).toEqual([['missing_in_books', -115]]);
    expect(r.matched).toBe(2);
  });

  it('refuses a type code outside the credit and debit ranges, and a file of several accounts', () => {
    expect(() => read(file.replace('16,699,', '16,720,'))).toThrow(/type code 720/);
    expect(() => read(file.replace('03,77120034,USD,010,1112500', '03,99000001,USD,010,1112500'))).toThrow(/2 accounts/);
  });
});
