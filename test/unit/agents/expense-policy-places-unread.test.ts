/**
 * Caps per city from a policy's table of places, rail fare classes, approvals required for kinds of expense the policy
 * names, a mileage log's commute, and the safety net: an unread policy sentence stating a rule about an item claimed
 * holds that item for a reviewer, while unread sentences about nothing claimed leave a clean claim approved.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });
const explain = (expense: string, expensePolicy: string) => expensePolicyEngine.explain({ expense, expensePolicy });

const CITIES_PIPE = [
  '## 2. Hotels',
  'Hotels are reimbursed at cost up to the nightly limit for the city, taxes included.',
  '',
  '| City / country        | Nightly limit (EUR) |',
  '|-----------------------|--------------------:|',
  '| Madrid, Spain         | 190 |',
  '| Barcelona, Spain      | 170 |',
  '| Porto / Lisbon, Portugal | 150 |',
  '| All other cities      | 120 |',
  '',
  '## 3. Receipts',
  'A receipt is required for every expense of EUR 20.00 or more.',
].join('\n');

const CITIES_LEADERS = [
  'SECTION 5 - ACCOMMODATION',
  '  Book a standard room. Maximum per night, taxes included:',
  '    Toronto, Vancouver .............. C$260',
  '    Ottawa, Calgary, Montreal ....... C$220',
  '    Everywhere else ................. C$180',
  '',
  'SECTION 6 - MEALS',
  '  Meals are capped at C$90.00 per day.',
].join('\n');

describe('expense-policy: caps per place from a table of cities', () => {
  it('holds a hotel to the cap of the city its line names, nights × cap', () => {
    const p = readPolicy(CITIES_PIPE);
    expect(p.places.caps.map((c) => [c.places.join('/'), c.cents, c.fallback])).toEqual([
      ['Madrid', 19000n, false], ['Barcelona', 17000n, false], ['Porto/Lisbon', 15000n, false], ['', 12000n, true]]);
    const r = explain('2026-04-02, Hotel Lisboa Plaza Lisbon, 2 nights, EUR 380.00, receipt attached', CITIES_PIPE);
    expect(r.result).toMatchObject({ verdict: 'flag', reimbursable_amount: 300 });
    expect(r.result.violations[0]).toContain('Porto / Lisbon');
    expect(r.evidence[0].sources.some((s) => s.field === 'expensePolicy' && s.quote.includes('Porto / Lisbon'))).toBe(true);
  });

  it('approves a hotel within its city cap, and uses the row of every other city where none listed is named', () => {
    expect(run('2026-04-02, Hotel Arts Barcelona, 1 night, EUR 165.00, receipt attached', CITIES_PIPE)).toMatchObject({ verdict: 'approve', reimbursable_amount: 165 });
    expect(run('2026-04-02, Hotel Alfonso Toledo, 1 night, EUR 150.00, receipt attached', CITIES_PIPE)).toMatchObject({ verdict: 'flag', reimbursable_amount: 120 });
  });

  it('reads dot-leader rows under a lodging lead, the city named anywhere in the claim', () => {
    const claim = ['Trip: Calgary customer visit', '2026-05-04 Fairmont Palliser hotel, 2 nights, CAD 520.00, receipt attached'].join('\n');
    const r = run(claim, CITIES_LEADERS);
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(440);
  });
});

const RAIL = [
  'Travel policy. All amounts in EUR.',
  'Rail: travel in 2. Klasse (second class) only.',
  'Erste Klasse is not reimbursed.',
  'Receipts are required for every expense.',
].join('\n');

describe('expense-policy: rail fare classes', () => {
  it('reads first and second class of rail as air classes are read', () => {
    expect(run('2026-03-02 Deutsche Bahn ICE Köln - Berlin, 1. Klasse, EUR 189.00, receipt attached', RAIL).verdict).toBe('reject');
    expect(run('2026-03-02 Deutsche Bahn ICE Köln - Berlin, 2. Klasse, EUR 119.00, receipt attached', RAIL)).toMatchObject({ verdict: 'approve', reimbursable_amount: 119 });
  });

  it('takes the class from the receipt pasted under the report, labelled with the entry\'s line', () => {
    const report = [
      ' #  Date        Merchant        Category   Description                 Amount  Receipt',
      ' 1  02/03/2026  Trenitalia      Train      Frecciarossa Milano - Roma   96,00  Yes',
      ' 2  02/03/2026  Taxi Roma       Taxi       Termini - client             18,00  Yes',
      '',
      'Receipt for line 1',
      '  Frecciarossa 9521  Carrozza 3  Posto 12A  1ª classe / 1st class',
    ].join('\n');
    expect(run(report, RAIL).verdict).toBe('reject');
  });
});

const TRUSTED = [
  'Travel and expense policy (USD).',
  'Receipts are required for every expense of $50.00 or more.',
  'Airport lounge memberships and CLEAR Plus subscriptions are reimbursable only with the prior approval of your department head.',
].join('\n');

describe('expense-policy: approvals required for kinds of expense the policy names', () => {
  it('holds an item naming the kind until the approval is shown, and pays it once it is', () => {
    const held = run('2026-02-10, CLEAR, CLEAR Plus subscription renewal, $189.00, receipt attached, approval requested', TRUSTED);
    expect(held).toMatchObject({ verdict: 'flag', reimbursable_amount: 0 });
    expect(held.violations[0]).toContain("department head's approval");
    expect(run('2026-02-10, CLEAR, CLEAR Plus subscription renewal, $189.00, receipt attached, approved by department head (attached)', TRUSTED).verdict).toBe('approve');
    expect(run('2026-02-10, Yellow Cab, taxi to airport, $42.00, receipt attached', TRUSTED).verdict).toBe('approve');
  });
});

const COMMUTE = [
  'Mileage is paid at $0.65 per mile.',
  'Normal commuting between home and your office is personal and never reimbursed; claim the miles driven less your normal commute.',
].join('\n');

describe('expense-policy: a mileage log under a policy deducting the commute', () => {
  it('pays the distance less the commute the log deducts', () => {
    const log = ['Date,Start,Destination,Miles,Commute deduction (mi),Amount', '2026-03-03,Home,Client site,60.0,20.0,26.00', '2026-03-04,Office,Client site,30.0,0.0,19.50'].join('\n');
    expect(run(log, COMMUTE)).toMatchObject({ verdict: 'approve', reimbursable_amount: 45.5 });
  });

  it('holds a log whose legs start at home with no commute deducted', () => {
    const log = ['Date,Start,Destination,Miles,Amount', '2026-03-03,Home,Client site,60.0,39.00'].join('\n');
    const r = run(log, COMMUTE);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 0 });
    expect(r.violations[0]).toContain('no commute is deducted');
  });
});

describe('expense-policy: a policy sentence not understood that bears on an item claimed', () => {
  const POLICY = [
    'Expense policy. All amounts in USD.',
    'Meals are capped at $60.00 per day.',
    'Ferry crossings must be booked through the travel desk.',
    'Our offices are open Monday to Friday.',
    'Coworking memberships are reimbursed only with a signed project code.',
  ].join('\n');

  it('holds the item of the category the sentence is about, quoting it', () => {
    const r = explain('2026-06-01, Ferry crossing Dover - Calais, $85.00, receipt attached', POLICY);
    expect(r.result).toMatchObject({ verdict: 'flag', reimbursable_amount: 0 });
    expect(r.result.violations[0]).toContain('policy sentence not understood: a reviewer must apply it');
    expect(r.evidence[0].sources.some((s) => s.field === 'expensePolicy' && s.quote.includes('Ferry crossings'))).toBe(true);
  });

  it('holds an item whose own text shares a name of two telling words with the sentence', () => {
    expect(run('2026-06-01, WeWork, coworking membership June, $35.00, receipt attached', POLICY)).toMatchObject({ verdict: 'flag', reimbursable_amount: 0 });
  });

  it('leaves a claim the sentences are not about approved', () => {
    expect(run('2026-06-01, Blue Door Cafe, lunch, $24.00, receipt attached', POLICY)).toMatchObject({ verdict: 'approve', reimbursable_amount: 24 });
  });

  it('does not hold an item for a sentence qualifying a limit already read, or one about the receipts', () => {
    const policy = ['Meals are capped at $60.00 per day.', 'The cap includes tax and tip and is for the whole day.', 'Meal receipts must show every item ordered.'].join('\n');
    expect(run('2026-06-01, Blue Door Cafe, lunch, $24.00, receipt attached', policy).verdict).toBe('approve');
  });
});
