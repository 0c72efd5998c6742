/**
 * Caps per place written as a policy's list of cities: rows whose label closes with a colon and whose amount says it
 * is a limit ("Madrid, Barcelona:   up to EUR 170"), groups named with their places in brackets ("Tier 1 cities
 * (Boston, Chicago): $325"), the lead right above the rows (a sentence closed by a colon), and a hotel that cannot be
 * placed: above the lowest cap and in no listed place, with no row for every other place, it is held for a reviewer.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const COLON_ROWS = [
  'Reiserichtlinie España — policy currency EUR.',
  '1. Rail: second class only.',
  '2. Hotels (per night, city tax and VAT included):',
  '     Madrid, Barcelona, Sevilla:      up to EUR 170',
  '     Other Spanish cities:            up to EUR 120',
  '3. Meals: up to EUR 40 per person per meal.',
].join('\n');

const TIERS = [
  'ACME LTD — TRAVEL LIMITS',
  '',
  'Hotels (room and taxes, per night)',
  '   Tier 1 cities (Paris, Amsterdam, Munich): up to GBP 220.',
  '   Tier 2 cities (Lyon, Rotterdam, Hamburg): up to GBP 160.',
  'Receipts are required for every expense of GBP 10 or more.',
].join('\n');

describe('expense-policy: a list of cities whose rows close with a colon', () => {
  it('reads each row\'s places and limit, and keeps the lines before the lead as rules of their own', () => {
    const p = readPolicy(COLON_ROWS);
    expect(p.places.caps.map((c) => [c.places.join('/'), c.cents, c.fallback])).toEqual([
      ['Madrid/Barcelona/Sevilla', 17000n, false], ['', 12000n, true]]);
    expect(p.allowedClassRules.length).toBe(1);
  });

  it('holds a hotel in a listed city to that city\'s limit × its nights', () => {
    const r = run('2026-03-02 Hotel Catalonia Sevilla, 3 nights, EUR 600.00, receipt attached', COLON_ROWS);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 510 });
    expect(r.violations[0]).toContain('Madrid / Barcelona / Sevilla');
  });

  it('approves a hotel within its city limit, and holds one elsewhere to the other cities\' row', () => {
    expect(run('2026-03-02 Hotel NH Madrid, 2 nights, EUR 320.00, receipt attached', COLON_ROWS)).toMatchObject({ verdict: 'approve', reimbursable_amount: 320 });
    expect(run('2026-03-02 Hotel Zaragoza Centro, 2 nights, EUR 320.00, receipt attached', COLON_ROWS)).toMatchObject({ verdict: 'flag', reimbursable_amount: 240 });
  });
});

describe('expense-policy: groups of cities named with their places in brackets', () => {
  it('reads the places in the brackets as the row\'s', () => {
    const p = readPolicy(TIERS);
    expect(p.places.caps.map((c) => [c.places.join('/'), c.cents])).toEqual([['Paris/Amsterdam/Munich', 22000n], ['Lyon/Rotterdam/Hamburg', 16000n]]);
  });

  it('holds a hotel to its tier\'s cap', () => {
    expect(run('2026-05-11 Hotel Okura Amsterdam, 2 nights, GBP 420.00, receipt attached', TIERS)).toMatchObject({ verdict: 'approve', reimbursable_amount: 420 });
    expect(run('2026-05-11 Hotel Kipling Lyon, 2 nights, GBP 420.00, receipt attached', TIERS)).toMatchObject({ verdict: 'flag', reimbursable_amount: 320 });
  });

  it('holds for a reviewer a hotel above the lowest cap in no listed place, the table having no row for other places', () => {
    const r = run('2026-05-11 Hotel Adlon Berlin, 2 nights, GBP 400.00, receipt attached', TIERS);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 0 });
    expect(r.violations[0]).toMatch(/names no place/);
    // Below every cap listed it is within whichever applies.
    expect(run('2026-05-11 Hotel Adlon Berlin, 2 nights, GBP 300.00, receipt attached', TIERS)).toMatchObject({ verdict: 'approve', reimbursable_amount: 300 });
  });
});
