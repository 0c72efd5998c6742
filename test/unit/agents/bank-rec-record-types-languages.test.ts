/**
 * Bank reconciliation: exports whose lines open with a record-type code, text cells in single quotes, dates printed
 * without the year (taken from the document's period), and headers in more of the languages banks and ledgers write
 * (Portuguese Valor/Entrada/Saída/Situação, Turkish, Indonesian), with the amount found by its values against the
 * running balance where its header names nothing the reader knows.
 */
import { describe, expect, it } from 'vitest';
import { bankRecEngine } from '../../../lambdas/agents/engines/bank-rec/engine.js';
import { rec, shape } from '../../support/bank-rec-engine.js';

describe('bank-rec: record-type codes, single quotes and yearless dates', () => {
  it('an export whose lines open with H/D/T codes reads the D lines under their header; the year comes from its period', () => {
    const bank = "H,'HARBOUR TRADING LTD','00412233'\nP,'Statement','01 March 2026','31 March 2026'\nH,'Opening',1000.00\n" +
      "D,Seq,Date,Narrative,Amount,Balance\nD,1,03 Mar,'CARD SHELL GARAGE',-45.00,955.00\nD,2,10 Mar,'TRANSFER IN KOWALSKI',200.00,1155.00\n" +
      "T,'Closing',1155.00\n";
    const books = 'Date,Description,Amount\n2026-03-03,Fuel Shell,-45.00\n2026-03-10,Kowalski invoice 77,200.00\n';
    const r = rec(bank, books);
    expect(r).toMatchObject({ reconciled: true, matched: 2 });
    expect(r.note).toMatch(/the lines' dates carry no year: 2026/);
    expect(r.exceptions).toEqual([]);
  });

  it('numeric record-type codes (the header line opens with a figure) are not a column', () => {
    const bank = "01;'KONTOAUSZUG';'DE44 5001 0517 5407 3249 31'\n02;'Zeitraum';'01.04.2026';'30.04.2026'\n" +
      "03;Buchung;Datum;Text;Betrag;Saldo\n03;1;02.04.;'LASTSCHRIFT STADTWERKE';-84,20;915,80\n03;2;09.04.;'GUTSCHRIFT MEYER GMBH';1.200,00;2.115,80\n" +
      "09;'Endsaldo';2.115,80\n";
    const books = 'Datum;Text;Soll;Haben\n02.04.2026;Stadtwerke Strom;;84,20\n09.04.2026;Meyer GmbH RE 311;1.200,00;\n';
    const r = rec(bank, books);
    expect(r).toMatchObject({ reconciled: true, matched: 2 });
    expect(r.note).toMatch(/record-type code: the code is not a column; the table is the lines of code 03, those of code 01, 02, 09/);
    expect(r.exceptions).toEqual([]);
  });

  it('a numbered table whose header has a short first cell is not taken for record types', () => {
    const bank = 'No,Date,Description,Amount\n1,2026-03-03,CARD SHELL,-45.00\n2,2026-03-10,TRANSFER IN,200.00\n';
    const books = 'Date,Description,Amount\n2026-03-03,Fuel,-45.00\n2026-03-10,Receipt,200.00\n';
    expect(rec(bank, books)).toMatchObject({ reconciled: true, matched: 2 });
  });

  it('yearless dates over a turn of the year take each half its year', () => {
    const bank = 'Statement period: 15/12/2025 to 14/01/2026\n\nDate;Details;Amount;Balance\n20 Dec;CARD IKEA;-300,00;700,00\n05 Jan;SALARY ACME;2.000,00;2.700,00\n';
    const books = 'Date,Description,Amount\n2025-12-20,IKEA shelves,-300.00\n2026-01-05,Acme salary,2000.00\n';
    const r = rec(bank, books);
    expect(r).toMatchObject({ reconciled: true, matched: 2 });
    expect(r.note).toMatch(/carry no year: 2025 and 2026/);
  });

  it('yearless dates with no year anywhere in the document are refused, naming the date', () => {
    const bank = 'Date,Details,Amount\n20 Dec,CARD IKEA,-300.00\n';
    const books = 'Date,Description,Amount\n2025-12-20,IKEA shelves,-300.00\n';
    expect(() => bankRecEngine.analyse({ bankStatement: bank, bookEntries: books })).toThrow(/"20 Dec" carries no year/);
  });
});

describe('bank-rec: headers in more languages', () => {
  it('a Brazilian ledger: Valor (R$), Saldo (R$), Situação with a cancelled row', () => {
    const bank = 'Data;Lançamento;Valor (R$);Saldo (R$)\n13/06/2026;PIX RECEBIDO MERCADO SOL;1.250,00;11.250,00\n15/06/2026;BOLETO PAGO PAPELARIA;-312,40;10.937,60\n';
    const books = 'Data;Histórico;Cliente/Fornecedor;Valor (R$);Saldo (R$);Situação\n01/06/2026;Saldo anterior;;;10.000,00;\n' +
      '13/06/2026;Recebimento NF 204;Mercado Sol;1.250,00;11.250,00;Recebido\n14/06/2026;Pagamento papelaria;Papelaria Central;-312,40;10.937,60;Pago\n' +
      '16/06/2026;Pagamento papelaria;Papelaria Central;-99,00;;Cancelado\n';
    const r = rec(bank, books);
    expect(r).toMatchObject({ reconciled: true, matched: 2 });
    expect(r.note).toMatch(/Cancelado/);
    expect(r.note).not.toMatch(/no header row/);
  });

  it('Portuguese Entrada/Saída columns; Spanish "Fecha de valor" stays a date', () => {
    const bank = 'Fecha;Fecha de valor;Concepto;Importe\n02/06/2026;03/06/2026;RECIBO LUZ;-80,00\n';
    const books = 'Data;Descrição;Entrada;Saída\n02/06/2026;Conta de luz;;80,00\n';
    expect(rec(bank, books)).toMatchObject({ reconciled: true, matched: 1 });
  });

  it('Turkish (Tarih, Açıklama, Tutar, Bakiye) and Indonesian (Tanggal, Keterangan, Jumlah, Saldo)', () => {
    const tr = 'İşlem Tarihi;Açıklama;Tutar (TL);Bakiye (TL)\n02.06.2026;EFT GELEN YILMAZ AS;4.500,00;14.500,00\n03.06.2026;POS MIGROS;-230,50;14.269,50\n';
    const id = 'Tanggal,Keterangan,Jumlah,Saldo\n02/06/2026,TRANSFER MASUK YILMAZ,4500.00,14500.00\n03/06/2026,DEBIT MIGROS,-230.50,14269.50\n';
    expect(rec(tr, id)).toMatchObject({ reconciled: true, matched: 2 });
  });

  it('an amount column whose header names nothing known is found by its values against the running balance', () => {
    const bank = 'Date,Maelezo,Kiasi,Balance\n2026-06-02,MALIPO KUTOKA ACME,4500.00,14500.00\n2026-06-03,ADA YA BENKI,-12.50,14487.50\n';
    const books = 'Date,Description,Amount\n2026-06-02,Acme receipt,4500.00\n2026-06-03,Bank fee,-12.50\n';
    const r = rec(bank, books);
    expect(r).toMatchObject({ reconciled: true, matched: 2 });
    expect(r.note).toMatch(/the header \(line 1\) names no money column this reader knows: the columns were identified by their content/);
  });
});
