/**
 * A structured :86: (the /CODE/value/ layout Dutch banks write, wrapped at 65 characters mid-word) read as its
 * subfields, and a foreign-currency payment both sides quote converted at two rates read as one amount mismatch.
 * Written from the forms themselves, not from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { bankRecEngine } from '../../../lambdas/agents/engines/bank-rec/engine.js';
import { inputSchema, resultSchema, type BankRecResult } from '../../../lambdas/agents/engines/bank-rec/schema.js';
import { structured86 } from '../../../lambdas/agents/engines/text/bank-formats.js';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';

const rec = (bankStatement: string, bookEntries: string): BankRecResult =>
  resultSchema.parse(bankRecEngine.analyse(inputSchema.parse({ bankStatement, bookEntries })));

describe('a structured :86:', () => {
  it('reads the name first, then the remittance, then the other subfields apart; NOTPROVIDED is no value', () => {
    expect(structured86('/TRTP/SEPA CREDIT TRANSFER/IBAN/NL02RABO0123456789/BIC/RABONL2U/NAME/DE GROENE WEIDE BV/REMI/INVOICE 88-1402/EREF/NOTPROVIDED'))
      .toBe('DE GROENE WEIDE BV / INVOICE 88-1402 / TRTP SEPA CREDIT TRANSFER / IBAN NL02RABO0123456789 / BIC RABONL2U');
    expect(structured86('/TRTP/SEPA OVERBOEKING/NAME/GEMEENTE UTRECHT/REMI/STRD/CUR/4400123987654321/EREF/GU-7781'))
      .toBe('GEMEENTE UTRECHT / 4400123987654321 / TRTP SEPA OVERBOEKING / EREF GU-7781');
    expect(structured86('ING Bank N.V. KOSTEN BETAALREKENING')).toBeUndefined();
  });

  it('joins subfields the bank wrapped mid-word, so the reference in /REMI/ is a word of its own', () => {
    const s = readStatement(':20:STMT\n:25:NL02RABO0123456789\n:28C:101/1\n:60F:C260331EUR5000,00\n:61:2604030403C1200,00N078NONREF\n' +
      ':86:/TRTP/SEPA OVERBOEKING/IBAN/NL80INGB0001234567/BIC/INGBNL2A/NAME/HOEKSTRA\n HOVENIERS VOF/REMI/FACTUUR 26-0088/EREF/HH-\n20260403\n:62F:C260403EUR6200,00\n-\n',
      'bankStatement', { perspective: 'bank' });
    expect(s.lines[0].description).toBe('HOEKSTRA HOVENIERS VOF / FACTUUR 26-0088 / TRTP SEPA OVERBOEKING / IBAN NL80INGB0001234567 / BIC INGBNL2A / EREF HH-20260403');
  });
});

describe('a foreign-currency payment converted at two rates', () => {
  it('the same reference and foreign amount on both sides: one amount mismatch, its detail naming both rates', () => {
    const bank = ':20:STMT\n:25:NL02RABO0123456789\n:28C:7/1\n:60F:C260531EUR1000,00\n:61:2606140614C9150,00N652NONREF\n' +
      ':86:/TRTP/BUITENLANDSE BETALING/BIC/BOFAUS3N/NAME/PINE RIDGE FOODS INC/REMI/INV PR-2231/OCMT/USD10000,\n00//EXCH/1,0929/CHGS/SHA\n' +
      ':61:2606150615D250,00N541NONREF\n:86:/TRTP/SEPA OVERBOEKING/NAME/KANTOOR HUUR BV/REMI/HUUR JUNI\n:62F:C260615EUR9900,00\n-\n';
    const books = 'Datum;Omschrijving;Bedrag;D/C\n14-06-2026;Ontvangst PR-2231 USD 10.000,00 koers 1,0870;9199,72;D\n15-06-2026;Huur juni;250,00;C\n';
    const r = rec(bank, books);
    expect(r.matched).toBe(1);
    expect(r.exceptions.map((e) => [e.type, e.amount])).toEqual([['amount_mismatch', -49.72]]);
    expect(r.exceptions[0].detail).toMatch(/Both quote USD 10000,00 converted at different rates \(bank 1,0929, books 1,0870\)/);
    expect(r.reconciled).toBe(false);
  });

  it('no shared reference or counterparty word: the same foreign amount alone ties the two', () => {
    const bank = 'Date,Description,Amount\n2026-06-04,SWIFT INWARD 55XK EUR 10,000.00 FX RATE 0.8561,8561.00\n2026-06-05,RENT,-900.00\n';
    const books = 'Date,Description,Amount\n2026-06-02,Customer receipt Hollander EUR 10.000,00 @ 0.8540,8540.00\n2026-06-05,Rent June,-900.00\n';
    const r = rec(bank, books);
    expect(r.exceptions.map((e) => [e.type, e.amount])).toEqual([['amount_mismatch', 21]]);
    expect(r.exceptions[0].detail).toMatch(/^The same foreign amount on both sides \(EUR 10,000.00\)/);
  });

  it('different foreign amounts are not tied: two exceptions stay two', () => {
    const bank = 'Date,Description,Amount\n2026-06-04,SWIFT INWARD 55XK EUR 10,000.00 FX RATE 0.8561,8561.00\n';
    const books = 'Date,Description,Amount\n2026-06-02,Customer receipt Hollander EUR 12.000,00 @ 0.8540,10248.00\n';
    const r = rec(bank, books);
    expect(r.exceptions.map((e) => e.type).sort()).toEqual(['missing_in_books', 'missing_on_bank']);
  });
});

describe('a ledger whose counterparty stands in its own column (Relatie)', () => {
  it('the name in that column pairs the bank line whose /NAME/ is the same counterparty', () => {
    const bank = ':20:STMT\n:25:NL02RABO0123456789\n:28C:9/1\n:60F:C260731EUR500,00\n:61:2608140814C1000,00N654NONREF\n' +
      ':86:/TRTP/SEPA OVERBOEKING/IBAN/NL55INGB0000123456/BIC/INGBNL2A/NAME/KAASHANDEL VERMEER BV/REMI/BETALING/EREF/NOTPROVIDED\n:62F:C260814EUR1500,00\n-\n';
    const books = 'Datum;Relatie;Omschrijving;Bedrag;D/C\n14-08-2026;Kaashandel Vermeer BV;Ontvangst;1010,00;D\n';
    const r = rec(bank, books);
    expect(r.exceptions.map((e) => [e.type, e.amount])).toEqual([['amount_mismatch', -10]]);
    expect(r.exceptions[0].detail).toMatch(/^The same counterparty/);
  });
});
