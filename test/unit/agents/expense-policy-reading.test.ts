/**
 * RULES.md "Expense": the claim as people write it. Free-text lines with the amount, currency, date and receipt in
 * any of the usual orders, and the CSV exports of expense tools (Expensify's default export, an SAP Concur report
 * export, a Ramp card export, a European semicolon export). Before, "Taxi 18.00 USD 2026-02-01 receipt attached"
 * was refused as unreadable (the date after the currency code was taken for an amount), "receipt: yes" and
 * "(receipt)" were not read, and any CSV was refused. Input that genuinely has no amount is still a 400.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { resultSchema } from '../../../lambdas/agents/engines/expense-policy/schema.js';
import { AgentInputError } from '../../../lambdas/agents/engines/port.js';

const POLICY = [
  'Meals are capped at $75 per person per day.',
  'Hotel up to $250 per night.',
  'Receipts are required for any expense over $25.',
  'Alcohol is not reimbursable.',
  'Airfare must be economy class. Business class requires VP approval.',
].join('\n');
const EURO_POLICY = 'Meals are capped at €100 per person per day. Receipts are required for expenses over €25. Alcohol is not reimbursable.';

function run(expense: string, expensePolicy = POLICY) {
  const result = expensePolicyEngine.analyse({ expense, expensePolicy });
  expect(resultSchema.parse(result)).toEqual(result);
  return result;
}

function inputError(expense: string): AgentInputError {
  try {
    expensePolicyEngine.analyse({ expense, expensePolicy: POLICY });
  } catch (error) {
    expect(error).toBeInstanceOf(AgentInputError);
    return error as AgentInputError;
  }
  throw new Error('expected an AgentInputError');
}

const RECEIPT = 'receipt required ("Receipts are required for any expense over $25")';

describe('expense-policy: free-text lines in the common orders', () => {
  it('"Taxi 18.00 USD 2026-02-01 receipt attached": amount, code, date, receipt', () => {
    // 18.00 USD (the code is read once, so 2026-02-01 is the date, not "USD 2026-02-01"); taxi → ground, no cap;
    // 18.00 ≤ 25.00 needs no receipt anyway → approve, 18.00. (Before: 400 "amount usd2026-02-01 is not readable".)
    expect(run('Taxi 18.00 USD 2026-02-01 receipt attached')).toEqual({
      verdict: 'approve',
      reimbursable_amount: 18,
      violations: [],
      note: 'Checked 1 item(s) totalling $18.00 against 6 policy rule(s); reimbursable $18.00.',
    });
  });

  it('"2026-02-01 Taxi $38.00 (receipt)": date first, "(receipt)" is a receipt', () => {
    // 38.00 > 25.00, and "(receipt)" says it is attached → no violation → approve, 38.00. (Before: reject, "no
    // receipt indicated".)
    expect(run('2026-02-01 Taxi $38.00 (receipt)')).toMatchObject({ verdict: 'approve', reimbursable_amount: 38, violations: [] });
  });

  it('"USD 48.00 taxi on 01/02/2026, no receipt": code first, a numeric date, no receipt', () => {
    // 48.00 > 25.00 with "no receipt" → reject, 0.00; with the receipt it would be 48.00 (no cap on taxis).
    // 01/02/2026 reads both ways and nothing in the claim settles it: read month first, and the note says so.
    const r = run('USD 48.00 taxi on 01/02/2026, no receipt');
    expect(r).toMatchObject({ verdict: 'reject', reimbursable_amount: 0, violations: [`${RECEIPT}: $48.00 with no receipt`] });
    expect(r.note).toBe(
      'Checked 1 item(s) totalling $48.00 against 6 policy rule(s); reimbursable $0.00. Once its receipt is provided, ' +
        'the expense would be reimbursable at $48.00. Assumed: numeric dates are month first (01/02/2026 as 2026-01-02).',
    );
  });

  it('"Dinner with client — 142.50 EUR — 2026-03-04 — receipt: yes" against a euro policy', () => {
    // 142.50 EUR, receipt yes; dinner → meals; no attendee count → 1 person (noted). Cap €100.00 × 1 × 1 day =
    // €100.00 < €142.50 → flag, €42.50 over, €100.00 reimbursable. (Before: reject, the receipt was not read.)
    const r = run('Dinner with client — 142.50 EUR — 2026-03-04 — receipt: yes', EURO_POLICY);
    expect(r).toEqual({
      verdict: 'flag',
      reimbursable_amount: 100,
      violations: [
        'meals over the cap ("Meals are capped at €100 per person per day"): €142.50 > €100.00 × 1 person(s) × 1 day(s) = €100.00; €42.50 not reimbursed',
      ],
      note:
        'Checked 1 item(s) totalling €142.50 against 3 policy rule(s); reimbursable €100.00. ' +
        'Assumed: 1 person where the expense names no attendees; 1 day where the expense names none.',
    });
  });

  it.each([
    ['receipt: no', false],
    ['receipt missing', false],
    ['without receipt', false],
    ['receipt: yes', true],
    ['receipt attached', true],
    ['with receipt', true],
  ])('"Lunch 30.00 USD 2026-02-03 %s"', (words, attached) => {
    // 30.00 > 25.00: a receipt stated as there approves 30.00 (≤ 75 cap); stated as missing rejects, 0.00.
    const r = run(`Lunch 30.00 USD 2026-02-03 ${words}`);
    expect(r).toMatchObject(attached ? { verdict: 'approve', reimbursable_amount: 30 } : { verdict: 'reject', reimbursable_amount: 0 });
  });

  it('a line with a bare two-decimal amount and no currency is read in the policy currency', () => {
    // "18.00" is the only two-decimal number; no currency → USD (noted) → approve, 18.00. (Before: 400.)
    const r = run('Taxi 18.00 2026-02-01 receipt attached');
    expect(r).toMatchObject({ verdict: 'approve', reimbursable_amount: 18 });
    expect(r.note).toContain('Assumed: amounts without a currency are in USD.');
  });

  it('a line with no amount at all is still unreadable (400 naming expense)', () => {
    // The date is not an amount; nothing else is a number. (Guard: held before too.)
    expect(inputError('Taxi to airport, amount TBC, 2026-02-01').field).toBe('expense');
  });
});

describe('expense-policy: CSV exports of expense tools', () => {
  it("Expensify's default CSV export: Amount, Category, Comment, Receipt (a URL, or empty)", () => {
    // Columns read: Timestamp (date), Merchant, Amount, Category, Comment, Receipt; MCC, Tag, Reimbursable and the
    // Original Amount/Currency (pre-conversion figures) are not. No currency column → USD (noted).
    // Row 1: taxi 18.00, receipt URL → 18.00.
    // Row 2: meals 420.00, comment "4 people, incl. $60 wine": 420.00 − 60.00 = 360.00 > 75.00 × 4 = 300.00 → 300.00.
    // Row 3: hotel 840.00, empty Receipt cell = no receipt → reject; 3 nights: 840.00 > 750.00 → cap flag; 0.00 now,
    //        750.00 once the receipt is provided.
    // Total 18.00 + 300.00 + 0.00 = 318.00; reject.
    const csv = [
      'Timestamp,Merchant,Amount,MCC,Category,Tag,Comment,Reimbursable,Original Currency,Original Amount,Receipt',
      '2026-02-01 08:14:00,Yellow Cab,18.00,4121,Taxi,,Airport run,yes,USD,18.00,https://www.expensify.com/receipts/w_1.jpg',
      `2026-02-01 20:30:00,Luigi's,420.00,5812,Meals,,"Client dinner, 4 people, incl. $60 wine",yes,USD,420.00,https://www.expensify.com/receipts/w_2.jpg`,
      '2026-02-02 09:00:00,Hilton Boston,840.00,3504,Hotel,,3 nights,yes,USD,840.00,',
    ].join('\n');
    const r = run(csv);
    expect(r).toMatchObject({ verdict: 'reject', reimbursable_amount: 318 });
    const dinner = "item 2 (2026-02-01 Luigi's Client dinner, 4 people, incl. $60 wine)";
    const hotel = 'item 3 (2026-02-02 Hilton Boston 3 nights)';
    expect(r.violations).toEqual([
      `${dinner}: alcohol is not reimbursable ("Alcohol is not reimbursable"): $60.00 deducted`,
      `${dinner}: meals over the cap ("Meals are capped at $75 per person per day"): $360.00 > $75.00 × 4 person(s) × 1 day(s) = $300.00; $60.00 not reimbursed`,
      `${hotel}: ${RECEIPT}: $840.00 with no receipt`,
      `${hotel}: lodging over the cap ("Hotel up to $250 per night"): $840.00 > $250.00 × 3 night(s) = $750.00; $90.00 not reimbursed`,
    ]);
    expect(r.note).toContain(`Once its receipt is provided, ${hotel} would be reimbursable at $750.00.`);
    expect(r.note).toContain('amounts without a currency are in USD');
  });

  it('an SAP Concur report export: Expense Type, Vendor, Receipt Status, US dates', () => {
    // Row 1: airfare, comment "Business class" → VP approval, 1200.00 withheld (flag); receipt image attached.
    // Row 2: taxi 48.00, Receipt Status "Missing" → reject; 48.00 once the receipt is provided.
    // Row 3: business meal 61.50 ≤ 75.00 × 1 → 61.50.
    // Total 61.50; reject. 02/01/2026 and 02/03/2026 read both ways: month first, noted.
    const csv = [
      'Transaction Date,Expense Type,Vendor,City,Payment Type,Amount,Currency,Receipt Status,Comment',
      '02/01/2026,Airfare,Delta Air Lines,Boston,Company Card,1200.00,USD,Receipt Image Attached,Business class BOS-SFO',
      '02/01/2026,Taxi,Yellow Cab,Boston,Cash,48.00,USD,Missing,',
      '02/03/2026,Business Meal,Legal Sea Foods,Boston,Cash,61.50,USD,Receipt Image Attached,Dinner',
    ].join('\n');
    const r = run(csv);
    expect(r).toMatchObject({ verdict: 'reject', reimbursable_amount: 61.5 });
    expect(r.violations).toEqual([
      'item 1 (02/01/2026 Delta Air Lines Business class BOS-SFO): business class requires VP approval; $1200.00 withheld until approved',
      `item 2 (02/01/2026 Yellow Cab): ${RECEIPT}: $48.00 with no receipt`,
    ]);
    expect(r.note).toContain('Once its receipt is provided, item 2 (02/01/2026 Yellow Cab) would be reimbursable at $48.00.');
    expect(r.note).toContain('numeric dates are month first (02/01/2026 as 2026-02-01)');
  });

  it('a European semicolon export with comma decimals and day-first dotted dates', () => {
    // Row 1: meals €142,50 = 142.50, receipt yes: > €100.00 × 1 → flag, €100.00.
    // Row 2: taxi €38,00 = 38.00 > €25.00, receipt "no" → reject; €38.00 once provided.
    // Total €100.00; reject. Dotted dates are always day first, so nothing is assumed about them.
    const csv = ['Date;Merchant;Category;Amount;Currency;Receipt', '04.03.2026;Brasserie Lipp;Meals;142,50;EUR;yes', '05.03.2026;G7 Taxi;Taxi;38,00;EUR;no'].join('\n');
    const r = run(csv, EURO_POLICY);
    expect(r).toMatchObject({ verdict: 'reject', reimbursable_amount: 100 });
    expect(r.violations).toEqual([
      'item 1 (04.03.2026 Brasserie Lipp): meals over the cap ("Meals are capped at €100 per person per day"): €142.50 > €100.00 × 1 person(s) × 1 day(s) = €100.00; €42.50 not reimbursed',
      'item 2 (05.03.2026 G7 Taxi): receipt required ("Receipts are required for expenses over €25"): €38.00 with no receipt',
    ]);
    expect(r.note).not.toContain('month first');
  });

  it('a CSV amount that does not read is a 400 naming the row', () => {
    expect(inputError('Date,Merchant,Amount\n2026-02-01,Cab,eighteen').message).toBe(
      'expense: row 1 (line 2) amount "eighteen" is not an amount (at most 2 decimals)',
    );
  });
});
