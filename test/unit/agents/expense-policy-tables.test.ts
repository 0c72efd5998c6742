/**
 * Policy tables read as rules (a row's category, limit and unit; the row an expense is filed under), and receipts
 * whose summaries must reconcile with their items (a tip under the card slip, tax inside the prices, a request above
 * the receipt).
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const SCHEDULE = [
  'Schedule of limits. All amounts in Canadian dollars (CAD)',
  '+-------------------+---------------------+',
  '| Category          | Limit               |',
  '+-------------------+---------------------+',
  '| Breakfast         | 25.00 per day       |',
  '| Team meal         | 40.00 per attendee  |',
  '| Client meal       | 95.00 per attendee  |',
  '+-------------------+---------------------+',
].join('\n');

describe('expense-policy: limits given in a table', () => {
  it('reads a bare per-unit limit as a cap and holds the expense to the row that names it', () => {
    const r = run('Team meal at Kessel Kitchen, CAD 300.00, 6 attendees, receipt attached', SCHEDULE);
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(240);
  });

  it('approves a team meal within its own row though a breakfast row is lower', () => {
    const r = run('Team meal at Kessel Kitchen, CAD 200.00, 6 attendees, receipt attached', SCHEDULE);
    expect(r.verdict).toBe('approve');
    expect(r.reimbursable_amount).toBe(200);
  });

  it('applies the labelled alternative limit to the places the notes list', () => {
    const policy = [
      'Expense type | Limit                          | Notes',
      'Hotel        | $200 per night                 | Tier 1 cities (Boston, Chicago): Tier 1 limit',
      '             | Tier 1 city: $300 per night    |',
    ].join('\n');
    expect(run('Hotel in Boston, 2 nights, $560.00, receipt attached', policy).verdict).toBe('approve');
    expect(run('Hotel in Dayton, 2 nights, $560.00, receipt attached', policy).reimbursable_amount).toBe(400);
  });
});

describe('expense-policy: receipts that reconcile', () => {
  it('closes a receipt at the charged total when the tip is written under the card slip', () => {
    const receipt = ['Burger   20.00', 'Salad    10.00', '', 'Subtotal 30.00', 'Tax       3.00', 'Total    33.00', '  VISA ****1234', '  Auth: 0001', 'Tip       6.00', 'TOTAL CHARGED  USD 39.00'].join('\n');
    const r = run(receipt, 'Meals are capped at $100 per day.');
    expect(r.verdict).toBe('approve');
    expect(r.reimbursable_amount).toBe(39);
  });

  it('pays the receipt and flags a request above it', () => {
    const expense = ['can I get reimbursed $50.00 for the workshop coffee? receipt below', '', 'Coffee   30.00', 'Pastries 10.00', '', 'Subtotal 40.00', 'Total    40.00'].join('\n');
    const r = run(expense, 'Meals are capped at $100 per day.');
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(40);
  });

  it('holds a cash expense in another currency that carries no rate', () => {
    const r = run('Taxi, 89.00 PLN, cash, receipt attached', 'Receipts are required for every expense of USD 25.00 or more. All reimbursements are paid in US dollars.');
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(0);
  });
});
