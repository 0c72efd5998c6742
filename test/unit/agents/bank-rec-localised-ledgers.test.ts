/**
 * Ledgers exported in the language of the country they keep books in: the opening and closing balance rows as Spanish,
 * Portuguese and Italian localisations print them, the Polish Winien/Ma (Wn/Ma) columns, and the Spanish "Detalles"
 * column as the description. Written from the forms themselves, not from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { isoDate } from '../../../lambdas/agents/engines/text/dates.js';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';

const books = (text: string) => readStatement(text, 'bookEntries', { perspective: 'books' });
const lines = (s: ReturnType<typeof books>) => s.lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100, l.description]);

describe('opening and closing balance rows in Spanish, Portuguese and Italian', () => {
  it('Saldo de apertura / Saldo de cierre in a Spanish ledger are balances, not deposits', () => {
    const s = books('Fecha,Detalles,Referencia,Debe,Haber\n01/03/2026,Saldo de apertura,,"12,500.00",\n' +
      '04/03/2026,Papelería Orión SL,FP-118,,"310.20"\n19/03/2026,Cobro cliente Talleres Ebro,FV-0442,"2,904.00",\n31/03/2026,Saldo de cierre,,"15,093.80",\n');
    expect(lines(s)).toEqual([['2026-03-04', -310.2, 'Papelería Orión SL'], ['2026-03-19', 2904, 'Cobro cliente Talleres Ebro']]);
    expect(s.notes.join(' ')).toContain('2 rows are balances, totals or headings');
  });

  it('Saldo de abertura / Saldo de fechamento (Portuguese) and Saldo di apertura / di chiusura (Italian) too', () => {
    const pt = books('Data;Histórico;Débito;Crédito\n01/05/2026;Saldo de abertura;8.000,00;\n06/05/2026;Aluguel maio;;2.100,00\n31/05/2026;Saldo de fechamento;5.900,00;\n');
    expect(lines(pt).map((l) => l[1])).toEqual([-2100]);
    const it_ = books('Data;Descrizione;Dare;Avere\n01/05/2026;Saldo di apertura;4.000,00;\n12/05/2026;Incasso fattura 77;1.220,00;\n31/05/2026;Saldo di chiusura;5.220,00;\n');
    expect(lines(it_).map((l) => l[1])).toEqual([1220]);
  });

  it('a description that merely starts with "Saldo de" something else stays a line', () => {
    const s = books('Fecha,Detalles,Debe,Haber\n05/03/2026,Saldo de factura FV-12 Talleres Ebro,"400.00",\n');
    expect(lines(s).map((l) => l[1])).toEqual([400]);
  });
});

describe('Polish ledgers: Winien/Ma, Strona Wn/Strona Ma', () => {
  it('Winien is the debit column (money into the bank account), Ma the credit, a 0,00 in the other column is no amount', () => {
    const s = books('Data;Dokument;Kontrahent;Opis;Winien;Ma;Saldo\n01.06.2026;;;Saldo początkowe;;;20000,00\n' +
      '03.06.2026;WB 6/1;Meble Dąb s.c.;Zapłata FV 41/05/2026;5166,00;0,00;25166,00\n' +
      '04.06.2026;WB 6/2;Orlen S.A.;Paliwo 05/2026;0,00;812,40;24353,60\n');
    expect(lines(s).map((l) => l.slice(0, 2))).toEqual([['2026-06-03', 5166], ['2026-06-04', -812.4]]);
  });

  it('Strona Wn / Strona Ma as Comarch prints them', () => {
    const s = books('Data księgowania;Opis;Strona Wn;Strona Ma\n2026-06-03;Wpłata od klienta;1500,00;\n2026-06-05;Opłata za rachunek;;29,00\n');
    expect(lines(s).map((l) => l[1])).toEqual([1500, -29]);
  });
});

describe('Spanish ledger columns', () => {
  it('"Detalles de transacción" (Zoho Books in Spanish) is the description', () => {
    const s = books('Fecha,Detalles de transacción,Tipo de transacción,N.º de referencia,Débito,Crédito\n' +
      '03/02/2026,"Ferretería Nogal SA de CV",Pago a proveedor,"A-551",,"1,740.00"\n15/02/2026,"Cliente Lumen SC",Pago de cliente,"F-902","3,480.00",\n');
    expect(lines(s)).toEqual([['2026-02-03', -1740, 'Ferretería Nogal SA de CV'], ['2026-02-15', 3480, 'Cliente Lumen SC']]);
  });
});

describe('a money column under a header the reader does not know', () => {
  it('rows read as zero while the running balance moves on them are refused, not read as lines of nothing', () => {
    expect(() => books('Date,Memo,Sum received,Credit,Balance\n01/06/2026,Opening balance,,,1000.00\n' +
      '03/06/2026,Client A,500.00,0.00,1500.00\n05/06/2026,Rent,0.00,400.00,1100.00\n')).toThrow(/line 3: the running balance moves on this row .*"Credit".* a money column whose header this reader does not know/);
  });

  it('a zero line the balance does not move on stays a line', () => {
    const s = books('Date,Memo,Debit,Credit,Balance\n03/06/2026,Client A,500.00,,1500.00\n04/06/2026,Card check,0.00,,1500.00\n05/06/2026,Rent,,400.00,1100.00\n');
    expect(lines(s).map((l) => l[1])).toEqual([500, 0, -400]);
  });

  it('Ingreso/Egreso and Lodgements are money in and out', () => {
    const s = books('Fecha,Concepto,Ingreso,Egreso\n03/06/2026,Cobro Lumen,"1,200.00",\n14/06/2026,Renta,,"800.00"\n');
    expect(lines(s).map((l) => l[1])).toEqual([1200, -800]);
    const ie = books('Date,Details,Lodgements,Payments\n03/06/2026,Cash lodgement,640.00,\n14/06/2026,ESB,,81.20\n');
    expect(lines(ie).map((l) => l[1])).toEqual([640, -81.2]);
  });
});
