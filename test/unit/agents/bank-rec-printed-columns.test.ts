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

describe('debit and credit columns named in the words of the bank or the ledger', () => {
  it('Borç/Alacak: on a Turkish bank statement Borç is money out; in a muavin of the bank account money in', () => {
    const bank = 'Tarih;Açıklama;Borç;Alacak;Bakiye\n03.03.2026;EFT GIDEN ABC LTD;1.250,00;;8.750,00\n05.03.2026;HAVALE GELEN XYZ AS;;3.000,00;11.750,00\n';
    const books = 'Tarih;Fiş No;Açıklama;Borç;Alacak\n03.03.2026;M-14;ABC Ltd ödeme;;1.250,00\n05.03.2026;T-9;XYZ AŞ tahsilat;3.000,00;\n';
    expect(amounts(read(bank, 'bank'))).toEqual([-1250, 3000]);
    expect(amounts(read(books, 'books'))).toEqual([-1250, 3000]);
    expect(rec(bank, books)).toMatchObject({ reconciled: true, matched: 2 });
  });

  it('Retiros/Depósitos mean the same on both sides; Tartozik/Követel are a ledger\'s debit and credit', () => {
    const bank = 'Fecha,Descripción,Retiros,Depósitos,Saldo\n02/03/2026,PAGO PROVEEDOR,"3,200.00",,"6,800.00"\n05/03/2026,DEPOSITO CLIENTE,,"1,500.00","8,300.00"\n';
    expect(amounts(read(bank, 'bank'))).toEqual([-3200, 1500]);
    const books = [
      'Dátum       Bizonylat   Szöveg                          Tartozik        Követel',
      '2026.03.02  BK-11       Szállító kifizetése                              3 200,00',
      '2026.03.05  BK-12       Vevő befizetése                 1 500,00',
      '                        Összesen                        1 500,00         3 200,00',
    ].join('\n');
    expect(amounts(read(books, 'books'))).toEqual([-3200, 1500]);
  });

  it('a book export in the bank\'s words with only an opening and a closing balance: the balances decide', () => {
    // 1,000.00 + 250.00 − 400.00 = 850.00 only if Credit is money in: this cash book was keyed from the bank's side.
    const books = 'Date,Description,Debit,Credit,Balance\n2026-03-01,Opening balance,,,1000.00\n2026-03-03,Rent,400.00,,\n' +
      '2026-03-09,Customer receipt,,250.00,\n2026-03-31,Closing balance,,,850.00\n';
    const s = read(books, 'books');
    expect(amounts(s)).toEqual([-400, 250]);
    expect(s.notes.join(' ')).toContain('the balances printed between the lines show the opposite direction');
    // The same export keyed the ledger's way (Debit = money in) is confirmed, not turned.
    const ledgerWay = books.replace(',Rent,400.00,,', ',Rent,,400.00,').replace(',Customer receipt,,250.00,', ',Customer receipt,250.00,,');
    expect(amounts(read(ledgerWay, 'books'))).toEqual([-400, 250]);
    // Newest first (the dates run backwards): the closing balance on top, the same reading.
    const newest = ['Date,Description,Debit,Credit,Balance', '2026-03-31,Closing balance,,,850.00', '2026-03-09,Customer receipt,,250.00,',
      '2026-03-03,Rent,400.00,,', '2026-03-01,Opening balance,,,1000.00'].join('\n');
    expect(amounts(read(newest, 'books'))).toEqual([250, -400]);
  });

  it('lines all of one day between an opening and a closing balance: their order is not known, nothing is turned', () => {
    const books = 'Date,Description,Debit,Credit,Balance\n2026-03-03,Opening balance,,,1000.00\n2026-03-03,Rent,400.00,,\n' +
      '2026-03-03,Customer receipt,,250.00,\n2026-03-03,Closing balance,,,850.00\n';
    expect(amounts(read(books, 'books'))).toEqual([400, -250]);
  });

  it('headers that begin with # below a preamble: #Obciążenia is money out on the bank, #Uznania money in', () => {
    const bank = 'Wyciąg;\nRachunek:;12 3456;\n;\n#Saldo początkowe;10 000,00;\n#Suma obciążeń (1);-2 100,00;\n;\n#Data;#Opis;#Obciążenia;#Uznania;#Saldo;\n2026-03-04;PRZELEW;2 100,00;;7 900,00;\n2026-03-06;WPŁATA;;640,50;8 540,50;\n';
    expect(amounts(read(bank, 'bank'))).toEqual([-2100, 640.5]);
  });

  it('a book export in Debit/Credit words whose running balance says the opposite is read as the balance says', () => {
    // A cash book keyed in the bank's words (Cargo = out): its own balance shows it, and the balance is followed.
    const books = 'Fecha,Concepto,Cargo,Abono,Saldo\n04/03/2026,Pago proveedor,"2,480.50",,"7,519.50"\n09/03/2026,Cobro cliente,,"1,000.00","8,519.50"\n';
    const s = read(books, 'books');
    expect(amounts(s)).toEqual([-2480.5, 1000]);
    expect(s.notes.join(' ')).toContain('the running balance shows the opposite direction');
  });
});

describe('a direction no evidence decides', () => {
  const pasted = 'Statement March 2026\n03/03/2026 CARD PAYMENT STAPLES 145.20\n06/03/2026 BACS CREDIT ACME LTD 980.00\n';

  it('unsigned amounts with no balance and no mark: never reported reconciled, and the note says why', () => {
    // Even a book side that agrees figure for figure does not make it a reconciliation: the directions are unknown.
    const books = 'Date,Description,Amount\n2026-03-03,Staples,145.20\n2026-03-06,Acme Ltd,980.00\n';
    const r = rec(pasted, books);
    expect(r.reconciled).toBe(false);
    expect(r.note).toMatch(/^Not reconciled: the bank statement's amounts carry no sign or CR\/DR mark and it prints no running balance/);
  });

  it('a printed report whose figure stands under both Debit and Credit is not placed, and is not taken as reconciled', () => {
    const bank = [
      'Date        Details                 Debit   Credit',
      '03/03/2026  Card payment Staples   145.20',
      '04/03/2026  Supplier payment          1,120.00',
    ].join('\n');
    const books = 'Date,Description,Amount\n2026-03-03,Staples,-145.20\n2026-03-04,Supplier,-1120.00\n';
    expect(rec(bank, books).reconciled).toBe(false);
  });

  it('a sign written on the line decides it: the note claims nothing undecided', () => {
    const signed = pasted.replace('145.20', '-145.20');
    const books = 'Date,Description,Amount\n2026-03-03,Staples,-145.20\n2026-03-06,Acme Ltd,980.00\n';
    const r = rec(signed, books);
    expect(r).toMatchObject({ reconciled: true, matched: 2 });
    expect(r.note).not.toContain('cannot be told');
  });
});

/** A printed line: each text placed to end at its column (right-aligned), or to start there with a leading '<'. */
const printed = (...parts: [string, number][]) =>
  parts.reduce((line, [t, col]) => {
    const start = t.startsWith('<') ? col : col - t.length;
    return line.padEnd(start) + t.replace(/^</, '');
  }, '');

describe('figures set beside their header, columns one space apart, a summary with a header of its own', () => {
  // Headers left-aligned at 40, 52 and 64; figures right-aligned to 50, 62 and 76: each ends beyond its header.
  const header = printed(['<Date', 0], ['<Narrative', 12], ['<Debit', 40], ['<Credit', 52], ['<Balance', 64]);
  const beside = [
    header,
    printed(['<01/04/2026', 0], ['<Balance brought forward', 12], ['500.00', 76]),
    printed(['<02/04/2026', 0], ['<Card payment Tesco', 12], ['42.10', 50], ['457.90', 76]),
    printed(['<03/04/2026', 0], ['<Transfer from J Smith', 12], ['200.00', 62], ['657.90', 76]),
  ].join('\n');

  it('a figure nearest one money column is placed there when the running balance proves it', () => {
    const s = read(beside, 'bank');
    expect(amounts(s)).toEqual([-42.1, 200]);
    expect(s.notes.join(' ')).toContain("the running balance's 2 steps agree");
  });

  it('without a balance or a total to prove it, a figure beside its header is not placed', () => {
    const unproven = [
      printed(['<Date', 0], ['<Narrative', 12], ['<Debit', 40], ['<Credit', 52]),
      printed(['<02/04/2026', 0], ['<Card payment Tesco', 12], ['42.10', 50]),
      printed(['<03/04/2026', 0], ['<Transfer from J Smith', 12], ['200.00', 62]),
    ].join('\n');
    expect(printedColumns(unproven)).toBeUndefined();
  });

  it('a description run on to one space before the amount: the amount is split from it, under its column', () => {
    const text = [
      printed(['<Date', 0], ['<Details', 11], ['Withdrawal', 44], ['Deposit', 54], ['Balance', 66]),
      printed(['<02/04/2026', 0], ['<Balance b/f', 11], ['900.00', 66]),
      printed(['<02/04/2026', 0], ['<Standing order to landlords', 11], ['12.50', 44], ['887.50', 66]),
    ].join('\n');
    const table = printedColumns(text);
    expect(table?.rows[1].cells).toEqual(['02/04/2026', 'Standing order to landlords', '12.50', '', '887.50']);
  });

  it('a wide figure reaching under the next header belongs to the column it is aligned with', () => {
    const text = [
      printed(['<Date', 0], ['<Details', 11], ['Paid out', 40], ['Paid in', 50], ['Balance', 58]),
      printed(['<02/04/2026', 0], ['<Balance b/f', 11], ['1,000,900.00', 58]),
      printed(['<03/04/2026', 0], ['<Fee', 11], ['12.50', 40], ['1,000,887.50', 58]),
    ].join('\n');
    // Read as printed, not as cells split at the commas that group its thousands.
    const s = read(text, 'bank');
    expect(amounts(s)).toEqual([-12.5]);
    expect(s.notes[0]).toContain('read as a report printed in columns');
  });

  it('a balance marked Dr once the account is overdrawn is read with its side', () => {
    const overdrawn = [
      'Date        Details                  Paid out     Paid in        Balance',
      '01/05/2026  Balance brought forward                            120.00 Cr',
      '04/05/2026  Rent                      300.00                   180.00 Dr',
      '06/05/2026  Customer receipt                      400.00       220.00 Cr',
    ].join('\n');
    expect(amounts(read(overdrawn, 'bank'))).toEqual([-300, 400]);
  });

  it('a ledger balance marked D/H (deudor, acreedor) is read as a balance, and proves the placement', () => {
    const books = [
      'Fecha       Asiento  Concepto                         Debe          Haber            Saldo',
      '01/03/2026           Saldo anterior                                              5.000,00 D',
      '03/03/2026  112      Cobro cliente Ruiz             1.200,00                      6.200,00 D',
      '04/03/2026  113      Pago alquiler                                 900,00         5.300,00 D',
    ].join('\n');
    const s = read(books, 'books');
    expect(amounts(s)).toEqual([1200, -900]);
    expect(s.notes.join(' ')).toContain("the running balance's 2 steps agree");
  });

  it('a summary block with a header of its own above the table: the table is the reading with the dated lines', () => {
    const text = [
      'Period       Total debits     Total credits     Closing balance',
      'April 2026        42.10            200.00            657.90',
      '',
      'Date        Narrative                     Debit      Credit       Balance',
      '01/04/2026  Balance brought forward                                500.00',
      '02/04/2026  Card payment Tesco            42.10                    457.90',
      '03/04/2026  Transfer from J Smith                    200.00        657.90',
    ].join('\n');
    const table = printedColumns(text);
    expect(table?.headerLine).toBe(4);
    expect(amounts(read(text, 'bank'))).toEqual([-42.1, 200]);
  });
});

describe('a pasted statement without a header whose figures are grouped by spaces', () => {
  it('a figure grouped by single spaces, set off from the text by wider space, is one figure', () => {
    const text = [
      'Wyciąg 03/2026',
      '01.03.2026  Saldo początkowe                           190 335,57',
      '05.03.2026  Składki ZUS 02/2026      31 207,44      159 128,13',
      '06.03.2026  Wpłata FV 12/2026         9 889,38      169 017,51',
    ].join('\n');
    expect(amounts(read(text, 'bank'))).toEqual([-31207.44, 9889.38]);
  });
});

describe('a statement that prints each day\'s date once and a transaction\'s details over several lines', () => {
  const statement = [
    'Your Business Account   1 April to 30 April 2026',
    'Date       Payment type and details                 Paid out       Paid in       Balance',
    '01 Apr 26  BALANCE BROUGHT FORWARD                                                2,400.00',
    '03 Apr 26  DD  BRITISH GAS',
    '               REF 88123401                            64.20',
    '           CR  ACME TRADING LTD',
    '               INV 4471                                              1,250.00     3,585.80',
    '07 Apr 26  VIS  STAPLES LONDON                        118.45                      3,467.35',
  ].join('\n');

  it('an undated figure line is a line of the day above, its details the text lines above it', () => {
    const s = read(statement, 'bank');
    expect(s.lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100, l.description])).toEqual([
      ['2026-04-03', -64.2, 'DD BRITISH GAS REF 88123401'],
      ['2026-04-03', 1250, 'CR ACME TRADING LTD INV 4471'],
      ['2026-04-07', -118.45, 'VIS STAPLES LONDON'],
    ]);
    expect(s.notes.join(' ')).toContain('2 lines printed without a date took the date of the line above');
  });

  it('without a balance or a total to prove it, a date is not carried to an undated figure', () => {
    const noBalance = [
      'Date       Payment type and details                 Paid out       Paid in',
      '03 Apr 26  DD  BRITISH GAS',
      '               REF 88123401                            64.20',
      '07 Apr 26  VIS  STAPLES LONDON                        118.45',
    ].join('\n');
    expect(printedColumns(noBalance)).toBeUndefined();
    // With its totals line the same statement is proven, and the date is carried.
    expect(printedColumns(`${noBalance}\n           TOTALS                                  182.65`)?.carried).toBe(1);
  });

  it('an undated line that names a total but does not add up is not read as a line', () => {
    const withTotal = `${statement}\n           TOTAL PAYMENTS                              999.99`;
    expect(printedColumns(withTotal)).toBeUndefined();
  });
});
