/**
 * A journal given as the books (each row posts one amount from a debit account to a credit account), read as a
 * practitioner reads it for the bank: only the rows posted to the bank's account, debited as money in, credited as
 * money out; a row between two other accounts never touched the bank. And a Japanese bank export whose columns are
 * 支払い金額 / 預かり金額. Written for these tests, not copied from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { isoDate } from '../../../lambdas/agents/engines/text/dates.js';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';
import { rec, shape } from '../../support/bank-rec-engine.js';

const read = (text: string, perspective: 'bank' | 'books') => readStatement(text, 'f', { perspective });
const lines = (s: ReturnType<typeof read>) => s.lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100]);

const yayoi = [
  '伝票番号,日付,借方勘定科目,借方補助科目,借方金額,貸方勘定科目,貸方補助科目,貸方金額,摘要',
  '11,2026/05/07,当座預金,りそな銀行,540000,売掛金,,540000,4月分 ミドリ工業 入金',
  '11,2026/05/07,支払手数料,,660,売掛金,,660,先方負担手数料',
  '12,2026/05/12,仕入高,,128000,当座預金,りそな銀行,128000,4月分 材料',
  '13,2026/05/15,旅費交通費,,23100,現金,,23100,出張 大阪',
  '14,2026/05/20,買掛金,,70000,当座預金,りそな銀行,70000,総合振込',
  '14,2026/05/20,買掛金,,45500,当座預金,りそな銀行,45500,総合振込',
].join('\n');

const bank = [
  '日付,摘要,支払い金額,預かり金額,差引残高',
  '2026/05/07,振込 ミドリコウギヨウ,,540000,1540000',
  '2026/05/12,振込,128000,,1412000',
  '2026/05/20,総合振込 2ケン,115500,,1296500',
  '2026/05/20,振込手数料,880,,1295620',
].join('\n');

describe('a two-sided journal as the books', () => {
  it('keeps only the rows posted to the bank account: debited in, credited out', () => {
    const s = read(yayoi, 'books');
    expect(lines(s)).toEqual([['2026-05-07', 540000], ['2026-05-12', -128000], ['2026-05-20', -70000], ['2026-05-20', -45500]]);
    expect(s.notes.join(' ')).toMatch(/当座預金 \/ りそな銀行.*2 rows between other accounts did not touch it/);
  });

  it('reconciles against the bank export: one debit pays two journal rows, the fee is missing in the books', () => {
    const r = rec(bank, yayoi);
    expect(shape(r)).toEqual([['missing_in_books', -880]]);
    expect(r.matched).toBe(3);
  });

  it('English headers and one shared amount column', () => {
    const s = read(
      [
        'Entry No,Date,Debit Account,Credit Account,Amount,Memo',
        '1,2026-06-02,Bank,Sales,1200.00,Invoice 77',
        '2,2026-06-03,Rent,Bank,900.00,June rent',
        '3,2026-06-04,Depreciation,Equipment,150.00,Monthly',
        '4,2026-06-05,Office supplies,Bank,48.20,Paper',
      ].join('\n'),
      'books',
    );
    expect(lines(s)).toEqual([['2026-06-02', 1200], ['2026-06-03', -900], ['2026-06-05', -48.2]]);
  });

  it('an account named as a bank deposit is the bank\'s though another is posted to more often', () => {
    const s = read(
      [
        'Date,Debit Account,Debit Amount,Credit Account,Credit Amount',
        '2026-06-01,Depreciation,50.00,Accumulated depreciation,50.00',
        '2026-06-01,Rent expense,40.00,Accumulated depreciation,40.00',
        '2026-06-02,Cash at bank,100.00,Sales,100.00',
        '2026-06-30,Insurance,30.00,Accumulated depreciation,30.00',
      ].join('\n'),
      'books',
    );
    expect(lines(s)).toEqual([['2026-06-02', 100]]);
  });

  it('with no bank-deposit name, the account posted to most; a tie is refused, not guessed', () => {
    const tie = (bankName: string) =>
      read(['Date,Debit Account,Debit Amount,Credit Account,Credit Amount', `2026-06-02,${bankName},100.00,Sales,100.00`, `2026-06-03,Rent,40.00,${bankName},40.00`, '2026-06-04,Sales,10.00,Rent,10.00'].join('\n'), 'books');
    expect(lines(read(['Date,Debit Account,Debit Amount,Credit Account,Credit Amount', '2026-06-02,Clearing,100.00,Sales,100.00', '2026-06-03,Rent,40.00,Clearing,40.00', '2026-06-04,Clearing,10.00,Rent,10.00'].join('\n'), 'books'))).toEqual([['2026-06-02', 100], ['2026-06-03', -40], ['2026-06-04', 10]]);
    expect(() => tie('Clearing')).toThrow(/which account is the bank's cannot be told/);
  });

  it('a ledger of one account with a counter-account column is no journal', () => {
    const s = read(['勘定科目,取引日,相手勘定科目,摘要,借方金額,貸方金額', '普通預金,2026/03/02,売掛金,入金,250000,', '普通預金,2026/03/10,水道光熱費,電気,,18500'].join('\n'), 'books');
    expect(lines(s)).toEqual([['2026-03-02', 250000], ['2026-03-10', -18500]]);
  });
});
