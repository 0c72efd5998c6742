/**
 * Bank exports and ledgers of countries whose documents the reader learnt late, as classes: column headers in
 * Korean, Chinese in its traditional script, Arabic and Thai; whole-currency figures grouped by dots in a semicolon
 * file (pesos, rupiah, dong); dates in the ROC calendar and with month names in Spanish; an Odoo ledger's label and
 * partner columns in Spanish; interest credited net of the tax withheld against books that posted the gross.
 * Written for these tests, not copied from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { isoDate } from '../../../lambdas/agents/engines/text/dates.js';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';
import { rec, shape } from '../../support/bank-rec-engine.js';

const read = (text: string, perspective: 'bank' | 'books') => readStatement(text, 'f', { perspective });
const lines = (s: ReturnType<typeof read>) => s.lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100]);

describe('headers in other scripts', () => {
  it('reads a Korean ledger (일자, 거래처, 차변/대변, 잔액) with yearless dates and its period in Korean', () => {
    const s = read([
      '계정별원장', '기간: 2025년 03월 01일 ~ 2025년 03월 31일', '',
      '일자\t적요\t거래처\t차변\t대변\t잔액',
      '\t[전월이월]\t\t5,000,000\t\t5,000,000',
      '03-04\t외상매출금 회수\t(주)대성\t1,200,000\t\t6,200,000',
      '03-09\t사무용품\t오피스마트\t\t84,000\t6,116,000',
    ].join('\n'), 'books');
    expect(lines(s)).toEqual([['2025-03-04', 1200000], ['2025-03-09', -84000]]);
  });

  it('reads a Taiwanese export in traditional characters with ROC dates (交易日期, 支出/存入, 餘額, 備註)', () => {
    const s = read([
      '交易日期,摘要,支出,存入,餘額,備註',
      '114/03/03,跨行匯入,"","52,000","152,000",客戶貨款',
      '114/03/05,手續費,"15","","151,985",跨行手續費',
    ].join('\n'), 'bank');
    expect(lines(s)).toEqual([['2025-03-03', 52000], ['2025-03-05', -15]]);
    expect(s.notes.join(' ')).toMatch(/Minguo \(ROC\)/);
  });

  it('reads Arabic headers (التاريخ, البيان, مدين/دائن, الرصيد)', () => {
    const s = read(['التاريخ,البيان,مدين,دائن,الرصيد', '15/03/2025,تحويل وارد,,"4,500.00","14,500.00"', '16/03/2025,رسوم,"11.50",,"14,488.50"'].join('\n'), 'bank');
    expect(lines(s)).toEqual([["2025-03-15", 4500], ["2025-03-16", -11.5]]);
  });

  it('reads Thai headers (วันที่, รายการ, ถอน/ฝาก, ยอดคงเหลือ) with Buddhist years', () => {
    const s = read(['วันที่,รายการ,ถอน,ฝาก,ยอดคงเหลือ', '14/03/2568,รับโอน,,"8,000.00","18,000.00"', '18/03/2568,ค่าธรรมเนียม,"25.00",,"17,975.00"'].join('\n'), 'bank');
    expect(lines(s)).toEqual([["2025-03-14", 8000], ["2025-03-18", -25]]);
  });
});

describe('figures grouped by dots in a whole-currency export', () => {
  it('reads 1.250.000 as one million two hundred fifty thousand, and 18.500 beside it the same way', () => {
    const s = read(['Fecha;Detalle;Cargos;Abonos;Saldo', '13/03/2025;PAGO PROVEEDOR;1.250.000;;3.750.000', '14/03/2025;COMISION;18.500;;3.731.500'].join('\n'), 'bank');
    expect(lines(s)).toEqual([['2025-03-13', -1250000], ['2025-03-14', -18500]]);
  });
});

describe('figures such as 18.500 and nothing else', () => {
  it('are read with the dot grouping thousands where the running balance proves it', () => {
    const s = read(['Fecha;Detalle;Cargos;Abonos;Saldo', '13/03/2025;PAGO;212.640;;787.360', '14/03/2025;ABONO;;64.320;851.680'].join('\n'), 'bank');
    expect(lines(s)).toEqual([['2025-03-13', -212640], ['2025-03-14', 64320]]);
    expect(s.notes.join(' ')).toMatch(/running balance proves/);
  });

  it('are refused, saying why, where nothing tells them from three-decimal amounts', () => {
    expect(() => read(['Fecha;Detalle;Cargos;Abonos', '13/03/2025;PAGO;212.640;', '14/03/2025;ABONO;;64.320'].join('\n'), 'bank')).toThrow(/three decimals/);
  });
});

describe('a Spanish Odoo ledger (Etiqueta, Empresa) and Aspel-style dates', () => {
  it('reads the label and partner as the description, so a cheque is told by its number', () => {
    const bank = ['Fecha;Descripción;Cargos;Abonos;Saldo', '05/Mar/2025;TRANSFERENCIA PROVEEDOR;412.000;;588.000', '06/Mar/2025;DEPOSITO;;95.000;683.000'].join('\n');
    const books = [
      '"Fecha","Asiento contable","Empresa","Etiqueta","Débito","Crédito"',
      '"05/03/2025","BNK1/2025/0101","Ferretería Sur","Pago FAC 331","0","412000"',
      '"06/03/2025","BNK1/2025/0102","Comercial Norte","Cobro FAC 120","95000","0"',
      '"07/03/2025","BNK1/2025/0103","Imprenta Lira","Cheque 2210","0","61000"',
    ].join('\n');
    const r = rec(bank, books);
    expect(shape(r)).toEqual([['outstanding_check', 61000]]);
    expect(r.matched).toBe(2);
  });
});

describe('interest credited net of the tax withheld', () => {
  const bank = [
    'Date,Description,Withdrawal,Deposit,Balance',
    '2025-03-10,SUPPLIER PAYMENT ACME,"2,000.00",,"8,000.00"',
    '2025-03-31,TERM DEPOSIT INTEREST GROSS 1,250.00 WHT 187.50,,"1,062.50","9,062.50"',
  ].join('\n');

  it('pairs the net credit with the gross the books posted: one mismatch of minus the tax', () => {
    const books = ['Date,Memo,Debit,Credit', '2025-03-10,Acme invoice 55,,2000.00', '2025-03-31,Interest on term deposit,1250.00,'].join('\n');
    const r = rec(bank, books);
    expect(shape(r)).toEqual([['amount_mismatch', -187.5]]);
    expect(r.exceptions[0].detail).toMatch(/net of tax withheld/);
  });

  it('leaves the two apart when the books hold another figure', () => {
    const books = ['Date,Memo,Debit,Credit', '2025-03-10,Acme invoice 55,,2000.00', '2025-03-31,Interest on term deposit,1300.00,'].join('\n');
    expect(shape(rec(bank, books)).map(([t]) => t).sort()).toEqual(['missing_in_books', 'missing_on_bank']);
  });
});
