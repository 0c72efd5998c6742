/**
 * One payment booked by two routes: a supplier paid by card booked as a card expense and again as its bill marked
 * paid. The bank shows the charge once, so the bill payment left over is a repeat in the books, not a payment still
 * to clear. Written from the form of the mistake, not from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { bankRecEngine } from '../../../lambdas/agents/engines/bank-rec/engine.js';
import { inputSchema, resultSchema, type BankRecResult } from '../../../lambdas/agents/engines/bank-rec/schema.js';

const rec = (bankStatement: string, bookEntries: string): BankRecResult =>
  resultSchema.parse(bankRecEngine.analyse(inputSchema.parse({ bankStatement, bookEntries })));
const kinds = (r: BankRecResult) => r.exceptions.map((e) => [e.type, e.amount]);

const BANK = 'Date,Description,Amount,Balance\n' +
  '2026-05-02,CARD 4471 CANVA PTY LTD SYDNEY,-179.00,9821.00\n' +
  '2026-05-06,TRANSFER FROM KOALA DESIGNS INV 2207,2420.00,12241.00\n' +
  '2026-05-14,BPAY ORIGIN ENERGY,-388.15,11852.85\n' +
  '2026-05-29,MONTHLY ACCOUNT FEE,-10.00,11842.85\n';

describe('a card charge and its bill both booked: the bill payment is the repeat', () => {
  it('a bill marked paid weeks after the card charge of the same supplier and amount → duplicate_in_books', () => {
    const r = rec(BANK, 'Date,Memo,Debit,Credit\n2026-05-02,Canva Pty Ltd - company card,,179.00\n2026-05-06,Koala Designs INV 2207,2420.00,\n' +
      '2026-05-14,Origin Energy,,388.15\n2026-05-19,Bill payment Canva Pty Ltd invoice CNV-88120,,179.00\n');
    expect(kinds(r)).toEqual([['missing_in_books', -10], ['duplicate_in_books', 179]]);
    expect(r.exceptions[1].detail).toContain('one booked as a card charge and the other as a bill paid');
    expect(r.reconciled).toBe(false);
  });

  it('the bank line saying it was a card payment is enough when the card entry does not (Bill Pmt the other route)', () => {
    const bank = 'Date,Type,Description,Amount\n2026-05-03,CARD_PAYMENT,Notion Labs,-96.00\n2026-05-27,TRANSFER,To Harbour Rentals,-1500.00\n';
    const r = rec(bank, 'Date,Description,Debit,Credit\n2026-05-03,Notion Labs - May,,96.00\n2026-05-12,Bill Pmt Notion Labs Inc,,96.00\n2026-05-27,Harbour Rentals rent,,1500.00\n');
    expect(kinds(r)).toEqual([['duplicate_in_books', 96]]);
  });
});

describe('what stays a payment not yet on the bank', () => {
  it('two card charges of one supplier at one amount, two weeks apart, are two purchases', () => {
    const r = rec(BANK, 'Date,Memo,Debit,Credit\n2026-05-02,Canva Pty Ltd - company card,,179.00\n2026-05-06,Koala Designs INV 2207,2420.00,\n' +
      '2026-05-14,Origin Energy,,388.15\n2026-05-16,Canva Pty Ltd - company card,,179.00\n');
    expect(kinds(r)).toEqual([['missing_in_books', -10], ['missing_on_bank', 179]]);
  });

  it('a bill paid in the statement\'s last days may not have cleared yet', () => {
    const r = rec(BANK, 'Date,Memo,Debit,Credit\n2026-05-02,Canva Pty Ltd - company card,,179.00\n2026-05-06,Koala Designs INV 2207,2420.00,\n' +
      '2026-05-14,Origin Energy,,388.15\n2026-05-28,Bill payment Canva Pty Ltd invoice CNV-88120,,179.00\n');
    expect(kinds(r)).toEqual([['missing_in_books', -10], ['missing_on_bank', 179]]);
  });

  it('a bill paid to another supplier at the same amount, or one whose invoice number differs from the card entry\'s', () => {
    const other = rec(BANK, 'Date,Memo,Debit,Credit\n2026-05-02,Canva Pty Ltd - company card,,179.00\n2026-05-06,Koala Designs INV 2207,2420.00,\n' +
      '2026-05-14,Origin Energy,,388.15\n2026-05-19,Bill payment Figma Inc invoice FG-1102,,179.00\n');
    expect(kinds(other)).toEqual([['missing_in_books', -10], ['missing_on_bank', 179]]);
    const numbered = rec(BANK, 'Date,Memo,Debit,Credit\n2026-05-02,Canva Pty Ltd - company card CNV-88004,,179.00\n2026-05-06,Koala Designs INV 2207,2420.00,\n' +
      '2026-05-14,Origin Energy,,388.15\n2026-05-19,Bill payment Canva Pty Ltd invoice CNV-88120,,179.00\n');
    expect(kinds(numbered)).toEqual([['missing_in_books', -10], ['missing_on_bank', 179]]);
  });
});
