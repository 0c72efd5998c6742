/**
 * RULES.md "Expense", text documents: a receipt, folio, invoice or ticket is ONE expense whose lines reconcile to its
 * stated total, however it is laid out (no tax line but settled by one card payment; the total printed first; a bill
 * in sections closed by a grand total; a bill carried into another form as one line). Its summaries and the numbers
 * that are not money (miles, ratings, rewards, a fare rule's prices) are never items; a listing stays many expenses.
 * Every figure is worked in the comment above it.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { resultSchema } from '../../../lambdas/agents/engines/expense-policy/schema.js';

function run(expense: string, expensePolicy: string) {
  const result = expensePolicyEngine.analyse({ expense, expensePolicy });
  expect(resultSchema.parse(result)).toEqual(result);
  return result;
}

describe('expense-policy: an invoice settled by one payment is one expense', () => {
  const POLICY = 'Lodging is reimbursed up to $250 per night. Receipts are required for every expense over $75. Reimbursement is in USD.';
  const invoice = [
    'Hotel for the Lyon trade fair, paid on my Visa. Statement: 14/05/2026 HOTEL DES TANNEURS LYON EUR 412.50 USD 447.86',
    'Please reimburse USD 447.86.',
    '',
    'HOTEL DES TANNEURS',
    'FACTURE / INVOICE  N° 88213',
    'Arrivée / Arrival:   12.05.2026',
    'Départ / Departure:  14.05.2026',
    '',
    'Date        Libellé / Description                  Montant EUR',
    '12.05.2026  Chambre / Room                             195,00',
    '13.05.2026  Chambre / Room                             195,00',
    '14.05.2026  Taxe de séjour / City tax (2 nuits)         22,50',
    '--------------------------------------------------------------',
    'Total TTC                                              412,50 €',
    '',
    'Règlement / Payment:',
    '14.05.2026  Visa ****4471                             -412,50 €',
    'Solde / Balance                                          0,00 €',
  ].join('\n');

  it('a hotel invoice with no tax line, paid by card, is one stay claimed at the card amount', () => {
    // 195,00 + 195,00 + 22,50 = 412,50 = Total TTC; the Visa line pays 412,50 → one bill, 2 nights (12.05 → 14.05).
    // The statement shows it as USD 447.86: 447.86 / 2 = 223.93 per night <= 250 → approve 447.86.
    expect(run(invoice, POLICY)).toMatchObject({ verdict: 'approve', reimbursable_amount: 447.86, violations: [] });
  });

  it('a listing closed by a total, with no payment of it, stays one expense per line', () => {
    // 90.00 and 95.00 on two days, each over the $80 day cap → 80.00 + 80.00 = 160.00 (one bill would be 80.00).
    const listing = ['Expenses for the Denver visit:', '', '03/02/2026  Dinner at Rioja             90.00', '03/03/2026  Dinner at Guard and Grace   95.00', '', 'Total                                  185.00'].join('\n');
    const r = run(listing, 'Meals are capped at $80 per day. Reimbursement is in USD.');
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 160 });
    expect(r.violations).toHaveLength(2);
  });
});

describe('expense-policy: a receipt that prints its total first', () => {
  const POLICY = 'Tips are reimbursable up to 15% of the pre-tax subtotal. Receipts are required for any expense over $25. Reimbursement is in USD.';

  it('the breakdown under the total is its itemisation; miles, a rating and a reward are not money', () => {
    // 30.00 + 2.80 + 2.50 + tip 6.00 = 41.30 = Total charged. Tip cap 15% × 35.30 = 5.295 → 5.30; 6.00 → 0.70 over.
    // 41.30 − 0.70 = 40.60. "9.60 mi", "4.90 ★" and the $0.62 reward are no expenses.
    const ride = [
      'Thanks for riding with Kim!',
      'Total charged $41.30',
      'April 2, 2026',
      '',
      'Ride fare                 $30.00',
      'Service fee                $2.80',
      'Airport fee                $2.50',
      'Tip                        $6.00',
      '',
      'Visa ****1881             $41.30',
      '',
      'Standard   9.60 mi | 24 min',
      'Kim   4.90 ★',
      'You earned $0.62 in Lyft Cash on this ride.',
    ].join('\n');
    const r = run(ride, POLICY);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 40.6 });
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0]).toContain('tip $6.00 exceeds 15% of the $35.30 pre-tax subtotal');
  });

  it('lines under a total with no subtotal, tax or tip among them are a listing, not its breakdown', () => {
    // Hotel 200.00 capped at 150.00; taxi 100.00 → 250.00.
    const r = run(['Total: $300.00', '', 'Hotel Marriott    $200.00', 'Taxi              $100.00'].join('\n'), 'Lodging is capped at $150 per night. Reimbursement is in USD.');
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 250 });
  });
});

describe('expense-policy: a bill printed in sections, forwarded by the merchant', () => {
  const ticket = [
    'From: Dana Reyes <dana@example.com>',
    'To: ap@example.com',
    'Subject: FW: Your booking confirmation',
    '',
    'Please reimburse $295.00 for the St. Louis train trip, booked on my own card.',
    '',
    '---------- Forwarded message ---------',
    'From: Midwest Rail <tickets@midwestrail.example>',
    'Date: Mon, Apr 6, 2026',
    'Subject: Your booking confirmation',
    '',
    'TICKET',
    'Coach fare CHI-STL                 230.00',
    'Station improvement fee              5.00',
    'Sales tax                           15.00',
    'Ticket Total:                      250.00 USD',
    '',
    'Form of payment: Mastercard ending 0041',
    '',
    'EXTRAS',
    'Metropolitan Lounge pass',
    '   Union Station, Apr 6              45.00 USD',
    'Extras Total:                       45.00 USD',
    '',
    'Total Charged:                     295.00 USD',
    '',
    'Baggage',
    '2 checked bags free; each extra bag USD 20.00',
  ].join('\n');

  it('section totals add up to the grand total: one purchase; a refused extra is deducted by its heading', () => {
    // 230.00 + 5.00 + 15.00 = 250.00 (Ticket Total); 45.00 (Extras Total); 250.00 + 45.00 = 295.00 = Total Charged = the
    // request. The 45.00 line sits under "Metropolitan Lounge pass": refused → deducted, reject; 295.00 − 45.00 = 250.00. The
    // "extra bag USD 20.00" price is the merchant's fare rule, not an expense.
    const r = run(ticket, 'Rail travel is reimbursed in coach class. Lounge passes are not reimbursed. Reimbursement is in USD.');
    expect(r).toMatchObject({ verdict: 'reject', reimbursable_amount: 250 });
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0]).toContain('"Metropolitan Lounge pass: Union Station, Apr 6 45.00 USD" = $45.00 deducted');
  });
});

describe('expense-policy: a bill carried into another form as one line', () => {
  it('the bill itemises the form\'s line: one dinner, its wine deducted', () => {
    // Bill: 32.00 + 48.00 + 40.00 = 120.00 + tax 9.60 = 129.60, paid by Visa. Form: 129.60 + tip 20.00 = 149.60.
    // One expense of 149.60; the pinot noir 40.00 deducted → 109.60; cap 60 × 3 = 180.00; tip 20.00 <= 20% × 120.00.
    const forms = [
      'Client dinner, 3 people. Form and bill below.',
      '',
      'BILL',
      'Grilled salmon            32.00',
      'Ribeye                    48.00',
      'Pinot noir (bottle)       40.00',
      'Subtotal                 120.00',
      'Tax                        9.60',
      'Total                    129.60',
      'Visa ****2231            129.60',
      '',
      'ENTERTAINMENT FORM',
      'Amount per attached bill        129.60',
      'Tip (cash)                       20.00',
      'Total spent                     149.60',
    ].join('\n');
    const policy = 'Meals are capped at $60 per person. Alcohol is not reimbursable. Tips are reimbursable up to 20% of the pre-tax subtotal. Reimbursement is in USD.';
    const r = run(forms, policy);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 109.6 });
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0]).toContain('$40.00 deducted');
  });
});

describe('expense-policy: a listing closed by the claim total is the whole claim', () => {
  it('a journey history below it repeating its entries is their support, not more expenses', () => {
    // 3.20 + 8.40 + 3.20 = 14.80 = "Total to reimburse"; the two history lines repeat 03/11 3.20 and 04/11 3.20.
    // Lunch 8.40 <= 12.00 → approve 14.80 (not 14.80 + 6.40).
    const claim = [
      'Claim for the Leeds visit:',
      '  03/11  Tram - Station to Office     £3.20',
      '  03/11  Lunch - Pret                 £8.40',
      '  04/11  Tram - Office to Station     £3.20',
      '  Total to reimburse                 £14.80',
      '',
      '[Contactless journey history]',
      '  03/11/2025  08:10  Station -> Office   Tram  £3.20',
      '  04/11/2025  17:45  Office -> Station   Tram  £3.20',
    ].join('\n');
    expect(run(claim, 'All amounts in pounds sterling. Lunch is reimbursed up to £12.00 per day.')).toMatchObject({ verdict: 'approve', reimbursable_amount: 14.8, violations: [] });
  });
});
