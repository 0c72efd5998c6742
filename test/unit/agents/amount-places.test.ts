/**
 * The shared money reader to more than two places (a unit price of 0.0785, 0,0185 per piece): the same grammar as
 * parseCents and parseMoney, counted in 10^-places units; and po-match's numbers read through it.
 */
import { describe, expect, it } from 'vitest';
import { parseCents, parseMoney, parseScaled } from '../../../lambdas/agents/engines/text/amount.js';
import { parseDecimal } from '../../../lambdas/agents/engines/po-match/decimal.js';
import { readNumber } from '../../../lambdas/agents/engines/po-match/number.js';

describe('parseScaled / parseMoney with places', () => {
  it('two places is parseCents and parseMoney exactly', () => {
    for (const t of ['1,234.56', '(45.00)', '45.00-', '12.50 CR', '€ 1.234,56', '12,50', '1 234.56', 'USD 5', '1.234', '0.125', 'abc']) {
      expect(parseScaled(t, 2)).toBe(parseCents(t));
      expect(parseMoney(t, ',', 2)).toBe(parseMoney(t, ','));
    }
  });

  it('reads up to six decimals with every sign and separator the two-place reading knows', () => {
    expect(parseScaled('0.0785', 6)).toBe(78_500n);
    expect(parseScaled('$1,200.125', 6)).toBe(1_200_125_000n);
    expect(parseScaled('(0.125)', 6)).toBe(-125_000n);
    expect(parseScaled('0.125 CR', 6)).toBe(-125_000n);
    expect(parseScaled('0.1234567', 6)).toBeUndefined();
    expect(parseScaled('0.125', 3)).toBe(125n);
    // A comma with three digits after it is a thousands separator, never a decimal mark, where no convention is given.
    expect(parseScaled('12,125', 6)).toBe(12_125_000_000n);
  });

  it('under a document convention, the decimals the mark allows', () => {
    expect(parseMoney('0,0185', ',', 6)).toBe(18_500n);
    expect(parseMoney('1.321,305', ',', 6)).toBe(1_321_305_000n);
    expect(parseMoney('5.000', ',', 6)).toBe(5_000_000_000n);
    expect(parseMoney('5.000', '.', 6)).toBe(5_000_000n);
  });
});

describe("po-match's numbers through the shared reader", () => {
  it('parseDecimal: millionths, any notation the shared reader knows', () => {
    expect(parseDecimal('2.5')).toBe(2_500_000n);
    expect(parseDecimal('$0.125')).toBe(125_000n);
    expect(parseDecimal('(4.00)')).toBe(-4_000_000n);
    expect(parseDecimal('1e5')).toBeUndefined();
  });

  it('readNumber: the currencies POs print, the comma convention, and codes that are no amounts', () => {
    expect(readNumber('C$12.50', '.')).toBe(12_500_000n);
    expect(readNumber('-CA$1,200.00', '.')).toBe(-1_200_000_000n);
    expect(readNumber('CHF 48.20', '.')).toBe(48_200_000n);
    expect(readNumber('1.321,30', ',')).toBe(1_321_300_000n);
    expect(readNumber('0,0185', ',')).toBe(18_500n);
    expect(readNumber('1.5', ',')).toBe(1_500_000n);
    expect(readNumber('12,90', '.')).toBeUndefined();
    expect(readNumber('5412345678901234', '.')).toBeUndefined();
    expect(readNumber('0.0785', '.')).toBe(78_500n);
  });
});
