/**
 * Two readings of a supplier portal's printout: a screening question that wraps after a comma and goes on with a
 * capitalised name on the next line, its answer after the "?" (the names on the first line take that answer), and a
 * trade-register extract naming the vendor's own tax registers ("prepayment register", "tax prepayment"), which ask
 * the buyer for no money in advance. The clean company of vendor-risk-company.ts with lines added.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { COMPANY_LINES } from '../../support/vendor-risk-company.js';

const run = (...lines: string[]) => vendorRiskEngine.analyse({ vendorProfile: [...COMPANY_LINES, ...lines].join('\n') });
const areas = (...lines: string[]) => run(...lines).flags.map((f) => f.split(':')[0]);

describe('a screening question wrapped after a comma', () => {
  it('names on the first line take the "No" after the "?" on the next', () => {
    const r = run(
      'Are any of your directors listed on a sanctions list?                 No',
      'Do you have offices, agents or customers in Iran, Syria, Cuba,',
      'Venezuela or Belarus?                                                  No',
    );
    expect(r.flags).toEqual([]);
    expect(r.decision).toBe('onboard');
  });

  it('a line ending in "and" runs on the same way', () => {
    expect(areas('Do you export to or buy from North Korea, Russia and', 'Myanmar (Burma)?      No')).toEqual([]);
  });

  it('answered "Yes" the names on both lines count', () => {
    const r = run('Do you have offices, agents or customers in Iran, Syria, Cuba,', 'Venezuela or Belarus?      Yes');
    expect(r.decision).toBe('decline');
    expect(r.flags.some((f) => f.includes('Iran'))).toBe(true);
    expect(r.flags.some((f) => f.includes('Belarus'))).toBe(true);
  });

  it('a country given as a value on the line above a question keeps its place', () => {
    const r = run('Country of operations: Cuba', 'Any sanctions exposure?      No');
    expect(r.decision).toBe('decline');
  });
});

describe("the vendor's own tax registers are no demand for money in advance", () => {
  it.each([
    ['a register extract line', 'Prepayment register (Ennakkoperintärekisteri): registered since 01.03.2015'],
    ['"tax prepayment" in a company record', 'Tax prepayment: registered, F-skatt approved'],
    ['"prepayment of income tax"', 'The company is entered for prepayment of income tax since 2012.'],
  ])('%s → clean', (_name, line) => {
    expect(areas(line)).toEqual([]);
  });

  it.each([
    ['a prepayment demanded', 'Terms: 100% prepayment before dispatch'],
    ['a prepayment tax invoice is a bill for money in advance', 'Please settle the enclosed prepayment tax invoice before we ship.'],
  ])('%s → upfront payment demand', (_name, line) => {
    expect(areas(line)).toEqual(['upfront payment demand']);
  });
});

describe('a field line ending on a comma is no part of the question under it', () => {
  it('"Address: …, Havana," above a sanctions question answered No keeps Havana', () => {
    const r = run('Site address: Calle 23 No. 54, Vedado, Havana,', 'Do you have operations in sanctioned countries?     No');
    expect(r.decision).toBe('decline');
    expect(r.flags.some((f) => f.includes('Cuba'))).toBe(true);
  });
});
