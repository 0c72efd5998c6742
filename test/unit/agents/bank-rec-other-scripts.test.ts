/**
 * Bank and ledger tables whose headers are written in other scripts: a Japanese bank's CSV (日付, 摘要, お引出し /
 * お預入れ, 残高), a Japanese general ledger (取引日, 摘要, 借方金額 / 貸方金額, 前期繰越 as the balance brought forward,
 * 勘定科目 as the account, not a column of the line), a Chinese bank export (交易日期, 摘要, 支出 / 收入, 余额) and a
 * Russian one (Дата, Назначение платежа, Сумма). Written for these tests, not copied from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { isoDate } from '../../../lambdas/agents/engines/text/dates.js';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';
import { rec, shape } from '../../support/bank-rec-engine.js';

const read = (text: string, perspective: 'bank' | 'books') => readStatement(text, 'f', { perspective });
const lines = (s: ReturnType<typeof read>) => s.lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100]);

const bank = [
  '日付,摘要,お引出し,お預入れ,残高',
  '2026/03/02,フリコミ　カ）アオバシヨウカイ,,250000,1250000',
  '2026/03/10,デンキダイ,18500,,1231500',
  '2026/03/25,フリコミテスウリヨウ,440,,1231060',
].join('\n');
const books = [
  '勘定科目,取引日,相手勘定科目,取引先,摘要,借方金額,貸方金額,残高',
  '普通預金,2026/03/01,前期繰越,,,,,1000000',
  '普通預金,2026/03/02,売掛金,株式会社青葉商会,2月分 入金,250000,,1250000',
  '普通預金,2026/03/10,水道光熱費,東京電力,2月分電気料金,,18500,1231500',
  '普通預金,,3月計,,,250000,18500,1231500',
].join('\n');

describe('headers in Japanese', () => {
  it('reads a bank CSV by お引出し / お預入れ and 残高', () => {
    expect(lines(read(bank, 'bank'))).toEqual([['2026-03-02', 250000], ['2026-03-10', -18500], ['2026-03-25', -440]]);
  });

  it('reads a ledger by 借方金額 / 貸方金額; 前期繰越 and the month total are not lines', () => {
    expect(lines(read(books, 'books'))).toEqual([['2026-03-02', 250000], ['2026-03-10', -18500]]);
  });

  it('reconciles them: the unbooked transfer fee is missing in the books', () => {
    const r = rec(bank, books);
    expect(shape(r)).toEqual([['missing_in_books', -440]]);
    expect(r.matched).toBe(2);
  });

  it('reads 出金 / 入金 headers in full-width brackets with the currency', () => {
    const s = read(['取引日,内容,出金（円）,入金（円）,差引残高', '2026/04/01,カ）ミドリ,,5000,15000', '2026/04/02,ATM,2000,,13000'].join('\n'), 'bank');
    expect(lines(s)).toEqual([['2026-04-01', 5000], ['2026-04-02', -2000]]);
  });
});

describe('headers in Chinese and Russian', () => {
  it('reads 交易日期 / 支出 / 收入 / 余额', () => {
    const s = read(['交易日期,摘要,支出,收入,余额', '2026-05-06,货款,,1200.00,5200.00', '2026-05-07,手续费,5.00,,5195.00'].join('\n'), 'bank');
    expect(lines(s)).toEqual([['2026-05-06', 1200], ['2026-05-07', -5]]);
  });

  it('reads Дата / Назначение платежа / Сумма', () => {
    const s = read(['Дата;Назначение платежа;Сумма', '06.05.2026;Оплата по счету 15;-1200,50', '07.05.2026;Поступление от ООО Вега;3000,00'].join('\n'), 'bank');
    expect(lines(s)).toEqual([['2026-05-06', -1200.5], ['2026-05-07', 3000]]);
  });
});

describe('Japanese figures and dates', () => {
  it('reads 2026年4月1日 dates, amounts with 円 after them and ▲ / △ as the minus sign', () => {
    const s = read(['取引日,摘要,金額,残高', '2026年4月1日,フリコミ　カ）ミドリ,"5,000円","15,000円"', '2026年4月2日,ATM,"▲2,000円","13,000円"', '2026年4月3日,テスウリヨウ,△110,"12,890円"'].join('\n'), 'bank');
    expect(lines(s)).toEqual([['2026-04-01', 5000], ['2026-04-02', -2000], ['2026-04-03', -110]]);
  });
});

describe('the Japanese banks\' other column names', () => {
  it('reads お引出金額 / お預入金額 and a signed 入出金 column', () => {
    const split = read(['日付,摘要,お引出金額,お預入金額,残高', '2026/06/01,カ）ヒカリ,,8000,18000', '2026/06/02,デンキ,3000,,15000'].join('\n'), 'bank');
    expect(lines(split)).toEqual([['2026-06-01', 8000], ['2026-06-02', -3000]]);
    const signed = read(['取引日,入出金先内容,入出金(円),取引後残高(円)', '20260601,カ）ヒカリ,8000,18000', '20260602,デンキ,-3000,15000'].join('\n'), 'bank');
    expect(lines(signed)).toEqual([['2026-06-01', 8000], ['2026-06-02', -3000]]);
  });
});
