/**
 * RULES.md "Expense": what a pasted receipt is, read from the receipt itself. Its category comes from its merchant
 * and its own lines where they name one, not from the cover note around it.
 */
import { describe, expect, it } from 'vitest';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';

const RIDE_UNDER_HOTEL_NOTE = [
  'Hi team,',
  'I stayed at the Marriott hotel downtown; this is the ride back to the airport on Thursday.',
  '',
  'Lyft ride receipt',
  'Thu, Apr 9, 2026 6:12 AM',
  'Total $41.80',
  'Lyft fare (18.2 mi, 27 min) $33.40',
  'Service fee $2.90',
  'Tip $5.50',
].join('\n');

const FOLIO_UNDER_TAXI_NOTE = [
  'Taxi was on the company card, so only the hotel is claimed here.',
  '',
  'HARBORVIEW INN',
  '12 Quay Street',
  '04/02/2026  Room charge              149.00',
  '04/02/2026  Occupancy tax             17.88',
  'Total                                 166.88',
].join('\n');

describe('expense-policy: a receipt is what its own lines say it is', () => {
  it('a ride receipt under a note that names the hotel is ground transport', () => {
    const { items } = readExpense(RIDE_UNDER_HOTEL_NOTE);
    expect(items).toHaveLength(1);
    expect([items[0].cents, items[0].category]).toEqual([4180n, 'ground']);
  });

  it('a hotel bill under a note that names a taxi is lodging', () => {
    const { items } = readExpense(FOLIO_UNDER_TAXI_NOTE);
    expect(items).toHaveLength(1);
    expect([items[0].cents, items[0].category]).toEqual([16688n, 'lodging']);
  });
});
