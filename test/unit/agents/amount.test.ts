import { describe, expect, it } from 'vitest';
import { centsToNumber, formatCents, parseCents } from '../../../lambdas/agents/engines/text/amount.js';

describe('parseCents', () => {
  it.each([
    ['12', 1200n],
    ['12.5', 1250n],
    ['0.07', 7n],
    ['$1,234.56', 123456n],
    ['-$45.00', -4500n],
    ['$-45.00', -4500n],
    ['(45.00)', -4500n],
    ['($1,200.00)', -120000n],
    ['45.00-', -4500n],
    ['45.00 CR', -4500n],
    ['45.00 DR', 4500n],
    ['USD 9,999.99', 999999n],
    ['1 234.50 EUR', 123450n],
    ['1.234,56', 123456n],
    ['12,50', 1250n],
    ['€12,50', 1250n],
    ['+3', 300n],
  ])('%s → %s cents', (text, cents) => {
    expect(parseCents(text)).toBe(cents);
  });

  it.each(['', '  ', '1e309', '12.345', 'abc', '1,23,4', '--5', '(−5)x', '12 34', 'NaN', 'Infinity', '(5', '1,2345', '9'.repeat(50)])(
    'refuses %j',
    (text) => {
      expect(parseCents(text)).toBeUndefined();
    },
  );

  it('a number with a thousands comma and three digits is thousands, not decimals', () => {
    expect(parseCents('1,234')).toBe(123400n);
  });
});

describe('formatCents / centsToNumber', () => {
  it('formats exactly', () => {
    expect(formatCents(123456n)).toBe('1234.56');
    expect(formatCents(-5n)).toBe('-0.05');
    expect(centsToNumber(-4500n)).toBe(-45);
    expect(centsToNumber(1n)).toBe(0.01);
  });
});
