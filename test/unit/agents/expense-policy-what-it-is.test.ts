/**
 * RULES.md "refused thing", mileage entries, "no alcohol" and company-paid rows: an item is refused by what it is
 * (its merchant and description), whatever category it was filed under; a report's mileage entry stating its distance
 * is paid at distance × rate. Every figure is worked in the comment above its expectation.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { resultSchema } from '../../../lambdas/agents/engines/expense-policy/schema.js';

function run(expense: string, expensePolicy: string) {
  const result = expensePolicyEngine.analyse({ expense, expensePolicy });
  expect(resultSchema.parse(result)).toEqual(result);
  return result;
}

const REFUSING = [
  'Meals are capped at $75 per day.',
  'The following are personal expenses and are not reimbursed, whatever expense category they are filed under:',
  '  - airline club memberships and airport lounge day passes (including during flight delays);',
  '  - traffic and parking fines.',
  '',
  'Attach a receipt for each expense.',
].join('\n');

const item = (merchant: string, memo: string, category = 'Meals', amount = 50) =>
  ({ merchant, memo, category, amount, currency: 'USD', receipt: 'r.pdf', date: '2026-03-02' });

describe('expense-policy: an item is refused by what it is', () => {
  it('a lounge day pass filed under Meals is refused; the rest is paid', () => {
    // Sky Club pass 50.00 refused; lunch 20.00 ≤ 75.00 → reject, reimbursable 20.00.
    const r = run(JSON.stringify({ expenses: [item('DELTA SKY CLUB ATL', 'Sky Club one-day pass, flight delayed'), item('Cafe', 'lunch', 'Meals', 20)] }), REFUSING);
    expect(r.verdict).toBe('reject');
    expect(r.reimbursable_amount).toBe(20);
    expect(r.violations.join(' ')).toMatch(/lounge day pass/i);
  });

  it('a description saying it is not the refused thing, or a mere delay, refuses nothing', () => {
    // "no lounge" negates the lounge; "traffic" alone is not "traffic fines"; "flight delayed" is no thing → approve 70.00.
    const r = run(JSON.stringify({ expenses: [
      item('Airport Cafe', 'lunch, no lounge day pass bought'), item('Cafe', 'dinner, stuck in traffic after flight delay', 'Meals', 20),
    ] }), REFUSING);
    expect(r.verdict).toBe('approve');
    expect(r.reimbursable_amount).toBe(70);
  });

  it('"no alcohol" in a memo is not alcohol', () => {
    // 46.90 dinner, memo "itemized - no alcohol", under "Alcohol is not reimbursable" → approve 46.90.
    const r = run(JSON.stringify([item('South City Kitchen', 'itemized - no alcohol', 'Dinner', 46.9)]), 'Alcohol is not reimbursable. Meals are capped at $70 per day.');
    expect(r.verdict).toBe('approve');
    expect(r.reimbursable_amount).toBe(46.9);
  });

  it('a company-paid row is owed nothing to the employee', () => {
    // Airfare 412.30 "Company Paid" → 0; taxi 32.50 → approve 32.50.
    const csv = 'Transaction Date,Expense Type,Vendor,Payment Type,Amount,Currency,Receipt Attached\n' +
      '02/24/2026,Airfare,Delta,Company Paid,412.30,USD,Y\n02/24/2026,Taxi,Lyft,Cash,32.50,USD,Y\n';
    const r = run(csv, 'Taxis are reimbursed at cost up to $100 per trip. Receipts are required for every expense.');
    expect(r.reimbursable_amount).toBe(32.5);
    expect(r.note).toMatch(/Company Paid/);
  });
});

describe('expense-policy: a report mileage entry with its distance', () => {
  it('km claimed at the per-mile rate is paid at the miles it comes to', () => {
    // 178 km = 110.604 miles × 0.70 = 77.42; claimed 124.60 → flag, 77.42 + parking 18.00 = 95.42.
    const report = [
      '03/05/2026   Personal Car Mileage   Houston - Galveston   $124.60',
      '    Business Purpose: crane rail survey',
      '    Business Distance: 178 km (89 km each way)',
      '    Rate: 0.70 USD',
      '',
      '03/05/2026   Parking   Port Lot C   $18.00',
      '    Receipt Status: Receipt image attached',
    ].join('\n');
    const r = run(report, 'Mileage is paid at $0.70 per mile. A receipt is required for parking of $10.00 or more.');
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(95.42);
  });
});

describe('expense-policy: personal lines itemised out of a request', () => {
  const FOLIO_POLICY = 'Lodging up to $240.00 per night. Personal charges on the folio (minibar, in-room movies) are not reimbursed.';
  const report = (requested: string) => [
    'Entry 1 of 1',
    '  Expense type:       Hotel',
    '  Amount:             $413.00',
    '  Itemizations:',
    '    03/02 - 03/03  Room Rate (2 x 199.50)                  $399.00',
    '    03/03          Personal Expense (do not reimburse) - minibar  $14.00',
    `  Requested:          ${requested}`,
    '  Receipt:            Hotel folio attached',
    '',
    'HOTEL FOLIO',
    'Arrival: 03/02/26   Departure: 03/04/26',
    '03/02/26  Room Charge          180.00',
    '03/02/26  Room Tax              19.50',
    '03/03/26  Room Charge          180.00',
    '03/03/26  Room Tax              19.50',
    '03/03/26  Minibar               14.00',
    '                   Total       413.00',
  ].join('\n');

  it('a request leaving the personal lines out claims none of them', () => {
    // 413.00 − minibar 14.00 = 399.00 requested; 2 nights × 240.00 = 480.00 ≥ 399.00 → approve 399.00.
    const r = run(report('$399.00'), FOLIO_POLICY);
    expect(r.verdict).toBe('approve');
    expect(r.reimbursable_amount).toBe(399);
  });

  it('a request for the whole folio has the personal line deducted', () => {
    // 413.00 claimed, minibar 14.00 deducted → flag, 399.00.
    const r = run(report('$413.00'), FOLIO_POLICY);
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(399);
  });
});

describe('expense-policy: the submission deadline and a FAQ answer', () => {
  const FAQ = [
    'How long do I have to submit?',
    'Expenses submitted more than 60 days after the expense date are not reimbursable.',
    'Do I need a receipt?',
    'Yes, for any single expense of $25.00 or more.',
  ].join('\n');
  const csv = (submitted: string) => 'Submitted Date,Expense Date,Merchant,Category,Amount,Currency,Receipt Attached\n' +
    `${submitted},19 Feb 2026,Hertz,Car Rental,186.42,USD,Yes\n${submitted},12 Mar 2026,Panera,Meals,18.76,USD,No\n`;

  it('an item older than the limit at submission is refused; a small item needs no receipt', () => {
    // 19 Feb → 04 May = 74 days > 60 → refused; Panera 18.76 < 25.00 needs no receipt → reject, 18.76.
    const r = run(csv('04 May 2026'), FAQ);
    expect(r.verdict).toBe('reject');
    expect(r.reimbursable_amount).toBe(18.76);
    expect(r.violations.join(' ')).toMatch(/74 days/);
  });

  it('within the limit nothing is refused', () => {
    // 19 Feb → 10 Apr = 50 days ≤ 60 → approve 186.42 + 18.76 = 205.18.
    const r = run(csv('10 Apr 2026'), FAQ);
    expect(r.verdict).toBe('approve');
    expect(r.reimbursable_amount).toBe(205.18);
  });
});
