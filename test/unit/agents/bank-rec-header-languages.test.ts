/**
 * Column headers of bank exports and ledgers in more of the languages they are written in (Greek, Bulgarian,
 * Vietnamese, Indonesian, Turkish, Croatian, the Baltic languages, Slovak, Finnish), currency codes written beside
 * the figure, and the Db / Cr marks of Indonesian statements. Written for these tests, not copied from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { parseCents } from '../../../lambdas/agents/engines/text/amount.js';
import { mapColumns } from '../../../lambdas/agents/engines/text/columns.js';
import { isoDate } from '../../../lambdas/agents/engines/text/dates.js';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';

const read = (text: string, perspective: 'bank' | 'books') => readStatement(text, 'f', { perspective });
const lines = (s: ReturnType<typeof read>) => s.lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100]);
const roles = (headers: string[]) => {
  const { one, descriptions } = mapColumns(headers);
  return { ...Object.fromEntries(Object.entries(one).map(([r, i]) => [r, headers[i!]])), description: descriptions.map((i) => headers[i]).join('|') };
};

describe('headers by language', () => {
  it('names each column of statements in Greek, Bulgarian, Croatian, Lithuanian, Latvian, Slovak and Finnish', () => {
    expect(roles(['Ημερομηνία', 'Περιγραφή', 'Χρέωση', 'Πίστωση', 'Υπόλοιπο'])).toMatchObject({ date: 'Ημερομηνία', debit: 'Χρέωση', credit: 'Πίστωση', balance: 'Υπόλοιπο', description: 'Περιγραφή' });
    expect(roles(['Дата', 'Описание', 'Дебит', 'Кредит', 'Салдо'])).toMatchObject({ debit: 'Дебит', credit: 'Кредит', balance: 'Салдо' });
    expect(roles(['Datum izvršenja', 'Opis plaćanja', 'Isplata', 'Uplata', 'Stanje'])).toMatchObject({ out: 'Isplata', in: 'Uplata', balance: 'Stanje' });
    expect(roles(['Data', 'Paskirtis', 'Debetas', 'Kreditas', 'Likutis'])).toMatchObject({ balance: 'Likutis', description: 'Paskirtis' });
    expect(roles(['Datums', 'Apraksts', 'Debets', 'Kredīts', 'Atlikums'])).toMatchObject({ balance: 'Atlikums', description: 'Apraksts' });
    expect(roles(['Dátum zaúčtovania', 'Popis transakcie', 'Suma', 'Zostatok'])).toMatchObject({ amount: 'Suma', balance: 'Zostatok', description: 'Popis transakcie' });
    expect(roles(['Kirjauspäivä', 'Arvopäivä', 'Määrä', 'Viesti'])).toMatchObject({ date: 'Kirjauspäivä', valueDate: 'Arvopäivä', amount: 'Määrä' });
  });

  it('reads Turkish Valör as the value date, not as the Spanish and Portuguese Valor (the amount)', () => {
    expect(roles(['İşlem Tarihi', 'Valör', 'Açıklama', 'Borç', 'Alacak', 'Bakiye'])).toMatchObject({ valueDate: 'Valör', debit: 'Borç', credit: 'Alacak' });
    expect(roles(['Data', 'Histórico', 'Valor'])).toMatchObject({ amount: 'Valor' });
  });

  it('reads Vietnamese Ghi nợ / Ghi có as debit and credit: money out on the bank, money in in the books', () => {
    const bank = ['Ngày giao dịch,Mô tả,Ghi nợ,Ghi có,Số dư', '15/03/2025,Chuyển khoản NCC,"2,500,000",,"7,500,000"', '16/03/2025,Nhận tiền KH,,"1,000,000","8,500,000"'].join('\n');
    expect(lines(read(bank, 'bank'))).toEqual([['2025-03-15', -2500000], ['2025-03-16', 1000000]]);
    const books = ['Ngày,Diễn giải,Phát sinh Nợ,Phát sinh Có', '15/03/2025,Trả NCC,,"2,500,000"', '16/03/2025,Thu KH,"1,000,000",'].join('\n');
    expect(lines(read(books, 'books'))).toEqual([['2025-03-15', -2500000], ['2025-03-16', 1000000]]);
  });
});

describe('currency and direction written beside the figure', () => {
  it('reads a currency code or sign before or after the figure', () => {
    expect(parseCents('COP 1.250.000,00')).toBe(125000000n);
    expect(parseCents('250.00 SAR')).toBe(25000n);
    expect(parseCents('R$ 1.234,56')).toBe(123456n);
    expect(parseCents('NT$ 3,000')).toBe(300000n);
  });

  it('refuses a figure marked with a currency counted in thousandths', () => {
    expect(parseCents('1.500 KWD')).toBeUndefined();
  });

  it('reads an Indonesian Mutasi column whose figures carry DB / CR', () => {
    const s = read(['Tanggal;Keterangan;Mutasi;Saldo', '14/03/2025;TRSF E-BANKING CR;1.250.000,00 CR;6.250.000,00', '15/03/2025;BIAYA ADM;15.000,00 DB;6.235.000,00'].join('\n'), 'bank');
    expect(lines(s)).toEqual([['2025-03-14', 1250000], ['2025-03-15', -15000]]);
  });
});
