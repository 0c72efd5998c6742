/**
 * RULES.md "Expense": how a report's own layout is read. A CSV export that prints a preamble (title, "Report ID:,…")
 * above its header row and footer rows under it (the report total, what the company paid, what is due); the amount
 * in the reimbursement currency beside the amount spent.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';

const AU_POLICY = [
  'All amounts are in Australian dollars (AUD).',
  'Meals are capped at 90.00 AUD per day.',
  'Hotel up to 260.00 AUD per night.',
  'Receipts are required for every expense.',
].join('\n');

const EXPORT = [
  'Expense Report Export',
  'Report Number:,RPT-20931',
  'Traveller:,Aroha Tane',
  'Submitted:,03/03/2026 14:10',
  '',
  'No.,Date,Category,Vendor,Purpose,Paid By,Spent Amount,Spent Currency,FX,Amount (AUD),GST (AUD),Receipt',
  '1,01/03/2026,Meals,Ortega Fish Shack,"Dinner, alone",Employee,62.40,AUD,1.0000,62.40,8.14,Receipt attached',
  '2,02/03/2026,Hotel,Rydges Wellington,"1 night, room only",Employee,219.00,AUD,1.0000,219.00,28.57,Tax invoice attached',
  '3,02/03/2026,Taxi,Wellington Combined Taxis,"Hotel to airport",Employee,20.00,USD,1.7000,34.00,0.00,Receipt attached',
  '',
  ',,,,,Report Total,,,,315.40,36.71,',
  ',,,,,Less Advance,,,,0.00,,',
  ',,,,,Net Payable to Employee,,,,315.40,,',
  '',
  'Printed 03/03/2026 14:12 by expenses@example.com.au',
].join('\r\n');

describe('expense-policy: a report export with a preamble and footer rows', () => {
  it('reads the rows under the header row, not the preamble; the footer rows and the printed note are no expenses', () => {
    const { items } = readExpense(EXPORT, 'AUD');
    expect(items.map((i) => i.cents)).toEqual([6240n, 21900n, 3400n]);
    expect(items.map((i) => i.at[0].line)).toEqual([7, 8, 9]);
    expect(items.every((i) => i.receipt === true)).toBe(true);
  });

  it('the amount in the reimbursement currency column is the claim, in that currency, not the amount spent', () => {
    const { items } = readExpense(EXPORT, 'AUD');
    expect(items[2].currency).toBe('AUD');
    expect(items[2].cents).toBe(3400n);
  });

  it('the whole report is checked: everything within the limits is reimbursable', () => {
    const result = expensePolicyEngine.analyse({ expense: EXPORT, expensePolicy: AU_POLICY });
    expect(result.reimbursable_amount).toBe(315.4);
  });

  it('a first line that is the header row is read as before', () => {
    const { items } = readExpense(EXPORT.split('\r\n').slice(5, 9).join('\n'), 'AUD');
    expect(items).toHaveLength(3);
  });
});

const PRINTOUT = [
  'Unanet Expense Report                                            Printed 09/22/2026',
  'Report:            EXP-000918                  Status:   Submitted (09/21/2026)',
  'Trip:              Norfolk, VA - fleet readiness review',
  'Per Diem Location: NORFOLK, VA                 Lodging Max: 118.00   M&IE: 68.00',
  'Advance Issued:    0.00',
  '',
  'Line Date       Type          Description                              Rate    Qty      Amount Rcpt',
  '---- ---------- ------------- ---------------------------------------- ------- ----- --------- ----',
  '   1 09/14/2026 LODGING       Marriott Waterside - room                 112.00     1    112.00    Y',
  '   2 09/15/2026 LODGING       Marriott Waterside - room                 112.00     1    112.00    Y',
  '   3 09/14/2026 PER DIEM      M&IE first day (75%)                       68.00   75%     51.00    N',
  '   4 09/15/2026 PER DIEM      M&IE full day                              68.00  100%     68.00    N',
  '   5 09/16/2026 PER DIEM      M&IE last day (75%)                        68.00   75%     51.00    N',
  '                                                                                   ---------',
  '                                                          Total Expenses           394.00',
  '                                                          Less Advances              0.00',
  '                                                          Net Due Employee         394.00',
].join('\n');

describe('expense-policy: a printed report with a column header row', () => {
  it('the header fields above the columns are no expenses, though they print amounts', () => {
    const { items } = readExpense(PRINTOUT);
    expect(items.map((i) => i.at[0].line)).toEqual([9, 10, 11, 12, 13]);
  });

  it('each numbered row is an expense, even when it repeats another row, claimed at the figure under Amount', () => {
    const { items } = readExpense(PRINTOUT);
    expect(items.map((i) => i.cents)).toEqual([11200n, 11200n, 5100n, 6800n, 5100n]);
    expect(items.map((i) => i.date)).toEqual(['2026-09-14', '2026-09-15', '2026-09-14', '2026-09-15', '2026-09-16']);
  });

  it('the cell under the Rcpt column is the receipt', () => {
    const { items } = readExpense(PRINTOUT);
    expect(items.map((i) => i.receipt)).toEqual([true, true, false, false, false]);
  });
});
