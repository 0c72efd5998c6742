/**
 * A checkbook register whose amounts are unsigned: the document type (Check, Withdrawal, Service Charge against
 * Deposit, Receipt, Interest Income) gives the direction, and a row marked voided is no transaction. Written from
 * the form of such registers (Dynamics GP, Sage checkbooks), not from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { bankRecEngine } from '../../../lambdas/agents/engines/bank-rec/engine.js';
import { inputSchema, resultSchema, type BankRecResult } from '../../../lambdas/agents/engines/bank-rec/schema.js';
import { isoDate } from '../../../lambdas/agents/engines/text/dates.js';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';

const books = (text: string) => readStatement(text, 'bookEntries', { perspective: 'books' });
const lines = (s: ReturnType<typeof books>) => s.lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100]);
const rec = (bankStatement: string, bookEntries: string): BankRecResult =>
  resultSchema.parse(bankRecEngine.analyse(inputSchema.parse({ bankStatement, bookEntries })));

const register =
  'Checkbook Register\nCheckbook ID = FIRST-OPS\n\n' +
  'Checkbook ID,Document Type,Document Number,Document Date,Description,Checkbook Amount,Voided\n' +
  'FIRST-OPS,Receipt,RCT-77,2026-03-02,Customer receipt Alder Ltd,"4,100.00",No\n' +
  'FIRST-OPS,Check,1201,2026-03-04,Office rent March,"1,850.00",No\n' +
  'FIRST-OPS,Check,1202,2026-03-05,Printer lease - VOID wrong payee,"312.40",Yes\n' +
  'FIRST-OPS,Check,1203,2026-03-05,Printer lease,"312.40",No\n' +
  'FIRST-OPS,Service Charge,SC-03,2026-03-31,Monthly fee,"15.00",No\n' +
  'FIRST-OPS,Interest Income,INT-03,2026-03-31,Interest,"1.12",No\n';

describe('a checkbook register: the document type signs the amount, a voided row is set aside', () => {
  it('reads Check and Service Charge as money out, Receipt and Interest Income as money in, the voided cheque not at all', () => {
    const s = books(register);
    expect(lines(s)).toEqual([['2026-03-02', 4100], ['2026-03-04', -1850], ['2026-03-05', -312.4], ['2026-03-31', -15], ['2026-03-31', 1.12]]);
    expect(s.notes.join(' ')).toMatch(/a row marked voided in the Voided column \(line 7\) is not a transaction/);
  });

  it('reconciles against a bank statement that shows the same money, the voided cheque never presented', () => {
    const bank = 'Date,Description,Amount\n2026-03-02,ALDER LTD,4100.00\n2026-03-06,CHQ 1201,-1850.00\n2026-03-07,CHQ 1203,-312.40\n' +
      '2026-03-31,ACCOUNT FEE,-15.00\n2026-03-31,INTEREST,1.12\n';
    const r = rec(bank, register);
    expect(r.reconciled).toBe(true);
    expect(r.matched).toBe(5);
    expect(r.exceptions).toEqual([]);
  });

  it('a Voided column saying No keeps every row', () => {
    const s = books(register.replace(',Yes\n', ',No\n'));
    expect(s.lines).toHaveLength(6);
  });
});
