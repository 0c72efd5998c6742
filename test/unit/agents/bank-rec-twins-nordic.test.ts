/**
 * Bank reconciliation: the same item written twice a day apart (an expense keyed from the bank feed and again by
 * hand, a direct debit the bank collected twice), and Nordic ledgers (Debet/Kredit columns, opening and closing
 * balances printed as dated rows: Ingående saldo, Inngående balanse, Primo).
 */
import { describe, expect, it } from 'vitest';
import { rec, shape } from '../../support/bank-rec-engine.js';

describe('bank-rec: one item written twice, a few days apart', () => {
  it('a bill entered from the bank feed and again by hand the next day is a duplicate in the books', () => {
    const bank = 'Date,Description,Amount\n2026-05-04,DD AVIVA INSURANCE 88120,-142.60\n2026-05-06,CARD TESCO STORES,-38.15\n';
    const books = 'Date,Description,Amount\n2026-05-04,Aviva Insurance - fleet policy (feed),-142.60\n' +
      '2026-05-05,Aviva Insurance May premium,-142.60\n2026-05-06,Tesco - kitchen,-38.15\n';
    const r = rec(bank, books);
    expect(shape(r)).toEqual([['duplicate_in_books', 142.6]]);
    expect(r.exceptions[0].detail).toMatch(/same amount and counterparty, 1 day apart/);
  });

  it('two invoices of the same amount to one supplier, each quoting its own number, are two items: the open one is not on the bank', () => {
    const bank = 'Date,Description,Amount\n2026-05-04,BACS HALDANE JOINERY INV 4410,-600.00\n';
    const books = 'Date,Description,Amount\n2026-05-04,Haldane Joinery inv 4410,-600.00\n2026-05-05,Haldane Joinery inv 4417,-600.00\n';
    expect(shape(rec(bank, books))).toEqual([['missing_on_bank', 600]]);
  });

  it('the same payee at the same amount days apart is not a repeat (a second purchase as likely)', () => {
    const bank = 'Date,Description,Amount\n2026-05-01,SO CLEANING CO,-90.00\n';
    const books = 'Date,Description,Amount\n2026-05-01,Cleaning Co,-90.00\n2026-05-04,Cleaning Co,-90.00\n';
    expect(shape(rec(bank, books))).toEqual([['missing_on_bank', 90]]);
  });

  it('a direct debit the bank collected on two consecutive days against one book entry is a duplicate on the bank', () => {
    const bank = 'Datum;Text;Belopp;Saldo\n2026-05-02;Autogiro Telia Sverige;-499,00;9 501,00\n2026-05-03;Autogiro Telia Sverige;-499,00;9 002,00\n' +
      '2026-05-07;Swish Anna Berg;250,00;9 252,00\n';
    const books = 'Datum;Text;Debet;Kredit\n2026-05-02;Telia mobil maj;;499,00\n2026-05-07;Anna Berg faktura 112;250,00;\n';
    const r = rec(bank, books);
    expect(r).toMatchObject({ reconciled: false, matched: 2 });
    expect(shape(r)).toEqual([['duplicate_on_bank', -499]]);
  });
});

describe('bank-rec: Nordic ledgers', () => {
  it('a Norwegian ledger with Debet/Kredit and dated Inngående/Utgående balanse rows', () => {
    const bank = 'Dato;Forklaring;Ut fra konto;Inn på konto\n03.06.2026;Varekjøp Byggmakker;1 250,00;\n10.06.2026;Innbetaling Fjord AS;;8 400,00\n';
    const books = 'Dato;Bilag;Tekst;Debet;Kredit\n01.06.2026;;Inngående balanse;50 000,00;\n03.06.2026;211;Byggmakker materialer;;1 250,00\n' +
      '10.06.2026;212;Fjord AS faktura 77;8 400,00;\n30.06.2026;;Utgående balanse;57 150,00;\n';
    expect(rec(bank, books)).toMatchObject({ reconciled: true, matched: 2, exceptions: [] });
  });

  it('a Swedish ledger whose Ingående and Utgående saldo rows are dated, and a Danish Primo row', () => {
    const bank = 'Bokföringsdag;Text;Belopp\n2026-06-02;Bankgiro Elektro AB;-3 100,00\n';
    const sv = 'Datum;Text;Debet;Kredit\n2026-06-01;Ingående saldo;12 000,00;\n2026-06-02;Elektro AB lev.faktura 9;;3 100,00\n2026-06-30;Utgående saldo;8 900,00;\n';
    expect(rec(bank, sv)).toMatchObject({ reconciled: true, matched: 1 });
    const da = 'Dato;Tekst;Debet;Kredit;Saldo\n01-06-2026;Primo;;;12.000,00\n02-06-2026;Elektro AB faktura 9;;3.100,00;8.900,00\n';
    expect(rec(bank, da)).toMatchObject({ reconciled: true, matched: 1 });
  });

  it('a description that only starts with Primo is still a transaction', () => {
    const bank = 'Date,Description,Amount\n2026-06-02,PRIMO PIZZA LTD,-45.00\n';
    const books = 'Date,Description,Amount\n2026-06-02,Primo Pizza - team lunch,-45.00\n';
    expect(rec(bank, books)).toMatchObject({ reconciled: true, matched: 1 });
  });
});
