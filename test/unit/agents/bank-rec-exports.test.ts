/**
 * Bank exports and ledgers in the shapes practitioners meet: a money column the reader did not expect, a dated row
 * with no amount, a summary block with a header of its own, a headerless export led by the account number, balances
 * marked CR/DR, a description that holds the delimiter, and the ledger layouts of Zoho Books, FreshBooks, Sage 50 and
 * QuickBooks Desktop. Written from the forms themselves, not from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { bankRecEngine } from '../../../lambdas/agents/engines/bank-rec/engine.js';
import { inputSchema, resultSchema, type BankRecResult } from '../../../lambdas/agents/engines/bank-rec/schema.js';
import { isoDate } from '../../../lambdas/agents/engines/text/dates.js';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';

const bank = (text: string) => readStatement(text, 'bankStatement', { perspective: 'bank' });
const books = (text: string) => readStatement(text, 'bookEntries', { perspective: 'books' });
const lines = (s: ReturnType<typeof bank>) => s.lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100]);
const rec = (bankStatement: string, bookEntries: string): BankRecResult =>
  resultSchema.parse(bankRecEngine.analyse(inputSchema.parse({ bankStatement, bookEntries })));

describe('bank exports: money where the reader did not expect it, rows without money', () => {
  it('a "Receipt" attachment column does not take the place of "Money In"; the signed Amount fills an empty in/out row', () => {
    const s = bank('Transaction ID,Date,Name,Amount,Receipt,Money Out,Money In\ntx_1,01/07/2026,Roastery,-684.00,,-684.00,\n' +
      'tx_2,04/07/2026,SumUp,1842.65,,,1842.65\ntx_3,31/07/2026,Monzo fee,-9.00,,,\n');
    expect(lines(s)).toEqual([['2026-07-01', -684], ['2026-07-04', 1842.65], ['2026-07-31', -9]]);
    expect(s.notes.join(' ')).toContain('1 row with the in/out columns empty was read from the signed amount column');
  });

  it('a dated row with no amount and no balance (a pending hold) is set aside and named, not a refusal', () => {
    const s = bank('Date,Description,Debit,Credit\n2026-03-05,TESCO,45.20,\n2026-03-06,CARD AUTH PENDING,,\n2026-03-16,SALARY,,2500.00\n');
    expect(lines(s)).toEqual([['2026-03-05', -45.2], ['2026-03-16', 2500]]);
    expect(s.notes.join(' ')).toMatch(/a dated row with no amount in any money column \(line 3\) was set aside/);
  });

  it('a dated row with a balance and no amount whose balance moved is a line of that step; one whose balance stands is not', () => {
    const s = bank('Date,Description,Amount,Balance\n01/03/2026,,,2000.00\n05/03/2026,TESCO,-45.20,1954.80\n09/03/2026,DD COUNCIL TAX,,1774.80\n' +
      '16/03/2026,SALARY,2500.00,4274.80\n16/03/2026,,,4274.80\n');
    expect(lines(s)).toEqual([['2026-03-05', -45.2], ['2026-03-09', -180], ['2026-03-16', 2500]]);
    expect(s.notes.join(' ')).toContain('a row with a balance and no amount (line 4) moved the balance');
    expect(s.notes.join(' ')).toContain('2 rows are balances, totals or headings');
  });

  it('a description holding the delimiter unquoted: the extra cell is joined back into it', () => {
    const s = bank('Date,Description,Amount,Balance\n05/03/2026,TESCO, LEEDS,-45.20,1954.80\n16/03/2026,SALARY,2500.00,4454.80\n');
    expect(lines(s)).toEqual([['2026-03-05', -45.2], ['2026-03-16', 2500]]);
    expect(s.lines[0].description).toBe('TESCO,LEEDS');
  });
});

describe('bank exports: where the table is', () => {
  it('a statement summary with a header of its own above the transactions: the table with the dated rows is read', () => {
    const s = bank('Statement Summary\nStatement Date,Total Amount Paid In,Total Amount Paid Out\n31/03/2026,2500.00,45.20\n\n' +
      'Date,Type,Description,Paid Out,Paid In,Balance\n05/03/2026,POS,TESCO,45.20,,1954.80\n16/03/2026,BGC,SALARY,,2500.00,4454.80\n');
    expect(lines(s)).toEqual([['2026-03-05', -45.2], ['2026-03-16', 2500]]);
  });

  it('a header repeated on every page keeps every page', () => {
    const s = bank('Date,Description,Amount\n2026-03-05,TESCO,-45.20\nDate,Description,Amount\n2026-03-16,SALARY,2500.00\n');
    expect(lines(s)).toEqual([['2026-03-05', -45.2], ['2026-03-16', 2500]]);
  });

  it('headerless, led by the account number: the date column is found by its values; the account is not a reference', () => {
    const s = bank('20260315,05/03/2026,TESCO STORES,-45.20,1954.80\n20260315,06/03/2026,SALARY ACME,2500.00,4454.80\n' +
      '20260315,19/03/2026,DD COUNCIL,-45.20,4409.60\n');
    expect(lines(s)).toEqual([['2026-03-05', -45.2], ['2026-03-06', 2500], ['2026-03-19', -45.2]]);
    expect(s.lines.every((l) => l.reference === undefined)).toBe(true);
  });

  it('headerless with separate debit and credit columns: the running balance proves which is which, never read as the amount', () => {
    const rows = '12345678,05/03/2026,TESCO,,45.20,1954.80\n12345678,06/03/2026,SALARY,2500.00,,4454.80\n12345678,19/03/2026,REFUND,20.00,,4474.80\n';
    const s = bank(rows);
    expect(lines(s)).toEqual([['2026-03-05', -45.2], ['2026-03-06', 2500], ['2026-03-19', 20]]);
    expect(s.notes[0]).toContain('Money in, Money out, Balance');
  });

  it('a pasted statement whose balances carry CR/DR with no space: the direction follows the balance', () => {
    const s = bank('01/03/2026 OPENING BALANCE 1,200.00CR\n03/03/2026 EFTPOS WOOLWORTHS 85.40 1,114.60CR\n' +
      '05/03/2026 TFR FROM CLIENT 500.00 1,614.60CR\n18/03/2026 RENT 2,000.00 385.40DR\n');
    expect(lines(s)).toEqual([['2026-03-03', -85.4], ['2026-03-05', 500], ['2026-03-18', -2000]]);
  });

  it('a pasted statement that prints the balance only after the last line of a day: each day\'s lines signed together', () => {
    const day = ['01/03/2026 BALANCE BROUGHT FORWARD 2,000.00', '05/03/2026 TESCO STORES 45.20', '05/03/2026 COSTA COFFEE 4.80 1,950.00',
      '16/03/2026 ACME LTD SALARY 2,500.00 4,450.00', '18/03/2026 COUNCIL TAX 180.00', '18/03/2026 INTEREST 0.50 4,270.50'];
    const want = [['2026-03-05', -45.2], ['2026-03-05', -4.8], ['2026-03-16', 2500], ['2026-03-18', -180], ['2026-03-18', 0.5]];
    expect(lines(bank(`${day.join('\n')}\n`))).toEqual(want);
    // Newest first: the day's balance is printed on its first line.
    const newest = ['18/03/2026 INTEREST 0.50 4,270.50', '18/03/2026 COUNCIL TAX 180.00', '16/03/2026 ACME LTD SALARY 2,500.00 4,450.00',
      '05/03/2026 COSTA COFFEE 4.80 1,950.00', '05/03/2026 TESCO STORES 45.20', '01/03/2026 BALANCE BROUGHT FORWARD 2,000.00'];
    expect(lines(bank(`${newest.join('\n')}\n`))).toEqual([...want].reverse());
  });

  it('a day whose lines can be signed two ways to make its balance step is refused, naming the line', () => {
    const text = '01/03/2026 BALANCE BROUGHT FORWARD 2,000.00\n05/03/2026 REFUND 20.00\n05/03/2026 CARD 20.00 2,000.00\n';
    expect(() => bank(text)).toThrow(/row 1 \(line 2\): the amount has no sign/);
  });

  it('a pasted statement with no balance: "CR" after an amount is money in, an unmarked amount money out', () => {
    const s = bank('Statement period 01/03/2026 to 31/03/2026\n05/03/2026 TESCO 45.20\n16/03/2026 SALARY 2,500.00 CR\n');
    expect(lines(s)).toEqual([['2026-03-05', -45.2], ['2026-03-16', 2500]]);
  });

  it('an Indian bank export: Narration, Chq./Ref.No., Value Dt, Withdrawal Amt., Deposit Amt., Closing Balance', () => {
    const s = bank('Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance\n' +
      '05/03/26,POS TESCO,0000612345,05/03/26,45.20,,1954.80\n16/03/26,NEFT CR-ACME LTD,N075261234,16/03/26,,2500.00,4454.80\n');
    expect(lines(s)).toEqual([['2026-03-05', -45.2], ['2026-03-16', 2500]]);
    expect(s.lines.map((l) => [l.description, l.reference])).toEqual([['POS TESCO', '0000612345'], ['NEFT CR-ACME LTD', 'N075261234']]);
  });
});

describe('ledger layouts', () => {
  const want = [['2026-03-05', -45.2], ['2026-03-16', 2500]];

  it('Zoho Books Account Transactions (Debit = money into the bank account; opening and closing rows)', () => {
    expect(lines(books('Account Transactions\nBusiness Checking\nFrom 01/03/2026 To 31/03/2026\n\n' +
      'Date,Account,Transaction Details,Transaction Type,Transaction#,Reference#,Debit,Credit\n,,Opening Balance,,,,2000.00,\n' +
      '05/03/2026,Business Checking,Tesco,Expense,EXP-0012,,,45.20\n16/03/2026,Business Checking,Acme Ltd,Customer Payment,PMT-0004,INV-000023,"2,500.00",\n' +
      ',,Closing Balance,,,,"4,454.80",\n'))).toEqual(want);
  });

  it('FreshBooks General Ledger (account heading, Starting Balance, Total row, $ figures)', () => {
    expect(lines(books('General Ledger\nAcme Ltd\n\nAccount,Date,Description,Debit,Credit,Balance\nCash (1000),,,,,\n' +
      ',,Starting Balance,,,"$2,000.00"\n,03/05/2026,Expense - Tesco,,$45.20,"$1,954.80"\n' +
      ',03/16/2026,Payment - Invoice 0000023,"$2,500.00",,"$4,454.80"\nTotal Cash (1000),,,"$2,500.00",$45.20,"$4,454.80"\n'))).toEqual(want);
  });

  it('Sage 50 (UK) Nominal Activity for 1200 (Value beside Debit/Credit; Totals and History Balance rows)', () => {
    expect(lines(books('Nominal Activity\nN/C: 1200 Name: Bank Current Account\nNo,Type,Date,A/C,Dept,Ref,Details,T/C,Value,Debit,Credit,V,B\n' +
      '101,BP,05/03/2026,1200,0,DD,Tesco supplies,T1,45.20,,45.20,N,R\n102,SR,16/03/2026,ACME01,0,BACS,Sales Receipt,T9,2500.00,2500.00,,-,R\n' +
      ',,,,,,Totals:,,,2500.00,45.20,,\n,,,,,,History Balance:,,,2454.80,,,\n'))).toEqual(want);
  });

  it('Sage 50 (US) General Ledger (Debit Amt/Credit Amt; Beginning Balance, Current Period Change, Ending Balance)', () => {
    expect(lines(books('General Ledger\nAccount ID,Account Description,Date,Reference,Jrnl,Trans Description,Debit Amt,Credit Amt,Balance\n' +
      '10200,Regular Checking Account,3/1/26,,,Beginning Balance,,,"2,000.00"\n,,3/5/26,1043,CDJ,Tesco,,45.20,\n,,3/16/26,INV23,CRJ,Acme Ltd,"2,500.00",,\n' +
      ',,,,,Current Period Change,"2,500.00",45.20,"2,454.80"\n,,3/31/26,,,Ending Balance,,,"4,454.80"\n'))).toEqual(want);
  });

  it('QuickBooks Desktop register (Payment, C, Deposit, Balance) and its two-line printed form', () => {
    expect(lines(books('Date,Number,Payee,Account,Memo,Payment,C,Deposit,Balance\n03/01/2026,,,,Opening balance,,,,"2,000.00"\n' +
      '03/05/2026,1043,Tesco,Supplies,,45.20,X,,"1,954.80"\n03/16/2026,,Acme Ltd,Accounts Receivable,Deposit,,,"2,500.00","4,454.80"\n'))).toEqual(want);
    expect(lines(books('Date,Number,Payee,Payment,C,Deposit,Balance\n,Type,Account,Memo,,,\n03/05/2026,1043,Tesco,45.20,X,,"1,954.80"\n' +
      ',CHK,Supplies,,,,\n03/16/2026,,Acme Ltd,,,"2,500.00","4,454.80"\n,DEP,-split-,Deposit,,,\n'))).toEqual(want);
  });

  it('an invoice-number column tells a supplier payment posted twice under two entry numbers', () => {
    const r = rec('Date;Libellé;Montant\n06/10/2026;VIR SEPA EMIS METALLERIE /MOTIF FACT F-2026-0877;-3 612,40\n12/10/2026;PRLV EDF;-196,50\n',
      'Date;N° pièce;N° facture;Libellé;Débit;Crédit\n06/10/26;VIR1007;F-2026-0877;Règlt Métallerie;;3 612,40\n' +
      '07/10/26;VIR1009;F-2026-0877;Règlt Métallerie;;3 612,40\n12/10/26;PR1012;;EDF;;196,50\n');
    expect(r.exceptions.map((e) => [e.type, e.amount])).toEqual([['duplicate_in_books', 3612.4]]);
    expect(r.matched).toBe(2);
  });
});
