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

const SLIP_CLAIM = [
  'Hi AP, one client lunch from Thursday, proof below.',
  '',
  '1. Lunch with Harlow Dental (2 people), Osteria Nove ........ $96.20',
  '',
  '--- photo of the slip ---',
  '   OSTERIA NOVE',
  '   SALE',
  '   VISA CONTACTLESS        **** 2291',
  '   AUTH CODE: 0412Q',
  '   AMOUNT                  $80.20',
  '   TIP                     $16.00',
  '   TOTAL                   $96.20',
  '   APPROVED',
  '   CUSTOMER COPY',
].join('\n');

const ITEMISED = [
  '1. Lunch with Harlow Dental (2 people), Osteria Nove ........ $96.20',
  '',
  'OSTERIA NOVE  - table 4',
  'Tagliatelle al ragu        24.00',
  'Risotto funghi             26.00',
  'Sparkling water             6.00',
  'Subtotal                   56.00',
  'Tax                         4.20',
  'Tip                        36.00',
  'Total                      96.20',
].join('\n');

describe('expense-policy: what kind of document supports an expense', () => {
  it('a card-terminal slip (the amount, a tip, the total, the approval) is a card slip, not an itemised receipt', () => {
    const { items } = readExpense(SLIP_CLAIM);
    expect(items).toHaveLength(1);
    expect(items[0].cents).toBe(9620n);
    expect(items[0].proof?.kind).toBe('card slip');
  });

  it('a bill listing what was eaten is an itemised receipt', () => {
    const { items } = readExpense(ITEMISED);
    expect(items).toHaveLength(1);
    expect(items[0].proof?.kind).toBe('itemised receipt');
  });

  it('the employee saying only the slip was kept makes it a card slip, quoting that line', () => {
    const text = 'Client dinner at Brasa, 4 people, $212.40 - they only gave me the card slip, photo attached';
    const { items } = readExpense(text);
    expect(items[0].proof).toMatchObject({ kind: 'card slip' });
    expect(items[0].proof?.text).toContain('only gave me the card slip');
  });

  it('a card statement line without a receipt is a card statement; a tip on a slip is still the tip', () => {
    const { items } = readExpense('Parking at the client, $18.00, no itemized receipt - card statement line attached');
    expect(items[0].proof?.kind).toBe('card statement');
    const slip = readExpense(SLIP_CLAIM.replace('   TIP   ', '   POURBOIRE / TIP')).items[0];
    expect(slip.tip?.cents).toBe(1600n);
  });
});

describe('expense-policy: the claim in the policy\'s own dollar', () => {
  const CLAIM = [
    'Claim for the Calgary site visit, receipts below.',
    '',
    '1. WestJet baggage fee ............ $35.00',
    '2. Team dinner, Modern Steak ...... $188.60',
    '   Attendees: me, Ravi Gill and Tara Boone (Prairie Grain).',
    '',
    '--- WestJet receipt ---',
    'Checked bag fee             33.33',
    'GST 5%                       1.67',
    'Total                       35.00 CAD',
  ].join('\n');

  it('a bare "$" in a claim against a Canadian-dollar policy is the Canadian dollar, so the receipt printed in CAD supports it', () => {
    const { items } = readExpense(CLAIM, 'CAD');
    expect(items.map((i) => [i.cents, i.currency])).toEqual([[3500n, 'CAD'], [18860n, 'CAD']]);
    expect(items[0].parts?.map((p) => p.cents)).toEqual([3333n, 167n]);
  });

  it('a claim that writes US dollars keeps "$" as the US dollar', () => {
    const { items } = readExpense(`${CLAIM}\nAll amounts in USD.`, 'CAD');
    expect(items[1].currency).toBe('USD');
  });

  it('names written on the attendees line are counted there', () => {
    const { items } = readExpense(CLAIM, 'CAD');
    expect(items[1].people).toBe(3n);
  });
});

describe('expense-policy: which meal a meal is', () => {
  it('by the time on its receipt when its words do not say', () => {
    const text = [
      'Meal on the Leeds audit, receipt below: £18.30',
      '',
      'THE GRAIN STORE  Leeds',
      '21/05/2026 19:42  Table 3',
      'Fish pie                 14.50',
      'Sparkling water           3.80',
      'TOTAL                    18.30',
      'VISA ****2210            18.30',
    ].join('\n');
    const { items } = readExpense(text, 'GBP');
    expect(items).toHaveLength(1);
    expect([items[0].category, items[0].meal]).toEqual(['meals', 'dinner']);
  });

  it('by its own words, in other languages too', () => {
    expect(readExpense('2026-05-21 Frühstück Hotel Adler, Mahlzeit 14,50 €', 'EUR').items[0].meal).toBe('breakfast');
    expect(readExpense('Working lunch with the site team $42.00', 'USD').items[0].meal).toBe('lunch');
    expect(readExpense('Evening meal, Leeds, £22.10', 'GBP').items[0].meal).toBe('dinner');
  });
});
