/**
 * Reports printed in columns with spaces (a ledger's account listing, a statement pasted from a PDF) read as a
 * bookkeeper reads them: an unsigned figure is money out or in by the column it stands under (Debit/Credit,
 * Soll/Haben, Debe/Haber, Cargo/Abono, Paid out/Paid in), the running balance confirms the placement, and the side's
 * convention (a ledger's Debit is money into the cash account) is settled as for any table. A reading that is not
 * proven is not taken. Written from the forms themselves (German, Spanish, British, Polish printouts), not from any
 * corpus file.
 */
import { describe, expect, it } from 'vitest';
import { isoDate } from '../../../lambdas/agents/engines/text/dates.js';
import { printedColumns } from '../../../lambdas/agents/engines/text/printed-columns.js';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';
import { rec } from '../../support/bank-rec-engine.js';

const read = (text: string, perspective: 'bank' | 'books') => readStatement(text, perspective === 'bank' ? 'bankStatement' : 'bookEntries', { perspective });
const amounts = (s: ReturnType<typeof read>) => s.lines.map((l) => Number(l.amountCents) / 100);

// A DATEV-style Kontoblatt of account 1200 (Bank): Soll = money in, Haben = money out, a running Saldo.
const kontoblatt = [
  'Müller Haustechnik GmbH                                    Kontoblatt 1200 Bank',
  'Zeitraum 01.03.2026 - 31.03.2026',
  '',
  'Datum       Beleg    Buchungstext                         Soll            Haben            Saldo',
  '                     Saldovortrag                                                       8.420,00',
  '02.03.2026  ER-311   Zahlung Elektro Keller GmbH                          1.190,00        7.230,00',
  '05.03.2026  AR-77    Eingang Rechnung 2026-044         4.760,00                          11.990,00',
  '12.03.2026  ER-312   Miete März                                           2.300,00        9.690,00',
  '                     Summe                             4.760,00           3.490,00        9.690,00',
].join('\n');

const bankCsv = 'Buchungstag;Verwendungszweck;Betrag\n02.03.2026;ELEKTRO KELLER GMBH;-1.190,00\n05.03.2026;RE 2026-044;4.760,00\n12.03.2026;MIETE MAERZ;-2.300,00\n';

describe('a ledger printed in columns', () => {
  it('Soll/Haben figures take their side from the column they stand under; a ledger debit is money in', () => {
    const s = read(kontoblatt, 'books');
    expect(amounts(s)).toEqual([-1190, 4760, -2300]);
    expect(s.notes.join(' ')).toMatch(/read as a report printed in columns \(header on line 4\).*running balance's 3 steps agree.*totals line equals/);
    expect(rec(bankCsv, kontoblatt)).toMatchObject({ reconciled: true, matched: 3, exceptions: [] });
  });

  it('Cargos/Abonos in a ledger export are debits and credits: Cargos money in, on the bank Cargo money out', () => {
    const books = [
      'Auxiliar de la cuenta 1020-001 Bancos',
      'Fecha        Póliza   Concepto                           Cargos        Abonos',
      '04/03/2026   Ig 12    Cobro factura F-201             15,000.00',
      '09/03/2026   Eg 40    Pago proveedor papelería                        2,480.50',
    ].join('\n');
    expect(amounts(read(books, 'books'))).toEqual([15000, -2480.5]);
    const bank = 'Fecha,Concepto,Cargo,Abono\n04/03/2026,SPEI RECIBIDO,,"15,000.00"\n09/03/2026,SPEI ENVIADO,"2,480.50",\n';
    expect(amounts(read(bank, 'bank'))).toEqual([15000, -2480.5]);
  });

  it('a figure grouped by spaces (Polish, French) is one figure; Wn/Ma read without a balance, the totals line checked', () => {
    const books = [
      'Zapisy na koncie 130-01',
      'Data       Dokument   Treść                                     Wn             Ma',
      '                      Bilans otwarcia                   12 000,00',
      '03.03.2026 WB 3/1     Wpłata od klienta                  2 450,00',
      '04.03.2026 WB 3/2     Zapłata za czynsz                                  11 300,00',
      '                      Obroty                             2 450,00        11 300,00',
    ].join('\n');
    const s = read(books, 'books');
    expect(amounts(s)).toEqual([2450, -11300]);
    expect(s.notes.join(' ')).toContain('the totals line equals the columns\' sums');
  });
});

describe('a statement pasted from a PDF with Paid out / Paid in columns', () => {
  const statement = [
    'Your statement 1 March to 31 March 2026',
    'Date        Description                         Paid out      Paid in      Balance',
    '01 Mar      BALANCE BROUGHT FORWARD                                        2,000.00',
    '03 Mar      CARD PAYMENT TO STAPLES               145.20                   1,854.80',
    '06 Mar      BACS CREDIT ACME LTD                               980.00      2,834.80',
    '09 Mar      DIRECT DEBIT BT GROUP                  62.00                   2,772.80',
  ].join('\n');

  it('the dates take the period\'s year; each figure its column; the balance confirms every step', () => {
    const s = read(statement, 'bank');
    expect(s.lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100])).toEqual([['2026-03-03', -145.2], ['2026-03-06', 980], ['2026-03-09', -62]]);
    expect(s.notes.join(' ')).toContain('read as a report printed in columns');
  });

  it('a statement printed newest first is proven by its balance read bottom up', () => {
    const lines = statement.split('\n');
    const newest = [lines[0], lines[1], lines[5], lines[4], lines[3], lines[2]].join('\n');
    expect(amounts(read(newest, 'bank'))).toEqual([-62, 980, -145.2]);
  });

  it('a balance the placed figures do not explain: the column reading is not taken', () => {
    // 1,854.80 + 980.00 is 2,834.80, not 2,934.80: the positions are not proven.
    const broken = statement.replace('2,834.80', '2,934.80');
    expect(printedColumns(broken)).toBeUndefined();
  });

  it('a figure standing under two columns at once is not placed', () => {
    const books = [
      'Date        Details                 Debit   Credit',
      '03/03/2026  Receipt from customer  500.00',
      '04/03/2026  Supplier payment     1,120.00',
    ].join('\n');
    expect(printedColumns(books)?.rows.map((r) => r.cells[2])).toEqual(['500.00', '1,120.00']);
    // The second figure moved right until it stands under both Debit and Credit.
    expect(printedColumns(books.replace('     1,120.00', '          1,120.00'))).toBeUndefined();
  });

  it('an undated line with a figure in a money column that is neither a balance nor the total is not read past', () => {
    const books = [
      'Date        Ref     Details                          Debit        Credit',
      '03/03/2026  J-1     Receipt from customer           500.00',
      '            J-1     continued                       250.00',
      '04/03/2026  J-2     Supplier payment                             120.00',
    ].join('\n');
    expect(printedColumns(books)).toBeUndefined();
  });
});

describe('a header repeated on a second page', () => {
  it('the columns of each page are read under that page\'s header', () => {
    const text = [
      'Date        Details                       Withdrawals     Deposits        Balance',
      '02/03/2026  Opening balance                                              1,000.00',
      '02/03/2026  Transfer to savings                200.00                      800.00',
      '',
      'Page 2',
      'Date      Details                  Withdrawals   Deposits      Balance',
      '05/03/2026  Customer receipt                       310.00     1,110.00',
    ].join('\n');
    const s = read(text, 'bank');
    expect(amounts(s)).toEqual([-200, 310]);
    expect(s.notes.join(' ')).toContain("the running balance's 2 steps agree");
  });
});
