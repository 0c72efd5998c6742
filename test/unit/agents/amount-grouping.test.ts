/**
 * Digit grouping read by the document's evidence: the decimal mark settled for the document, every other separator
 * in a figure is grouping, by threes or, as Indian amounts are written, by twos before a last three (lakh, crore).
 */
import { describe, expect, it } from 'vitest';
import { decimalMarkOf, parseCents, parseMoney } from '../../../lambdas/agents/engines/text/amount.js';
import { rec, shape } from '../../support/bank-rec-engine.js';

describe('digit grouping', () => {
  it('Indian lakh and crore grouping reads as the same money as western grouping', () => {
    expect(parseMoney('1,50,000.00', '.')).toBe(15000000n);
    expect(parseMoney('12,34,56,789.05', '.')).toBe(123456789_05n);
    expect(parseMoney('₹ 4,75,000', '.')).toBe(47500000n);
    expect(parseCents('Rs. 2,36,000.00')).toBe(23600000n);
    expect(parseMoney('-3,25,500.50', '.')).toBe(-32550050n);
    expect(parseCents('9,99,999.99')).toBe(99999999n);
    expect(decimalMarkOf(['1,50,000.00', '75,000.00']).mark).toBe('.');
  });

  it('a grouping that is neither is refused, and a comma-decimal figure is not read as lakh', () => {
    expect(parseMoney('12,3,456.00', '.')).toBeUndefined();
    expect(parseMoney('1,50,00.00', '.')).toBeUndefined();
    expect(parseMoney('12,50', '.')).toBeUndefined();
    expect(parseMoney('12,50', ',')).toBe(1250n);
    expect(parseMoney('1.50.000,00', ',')).toBe(15000000n);
  });

  it('a Tally-style Indian ledger in lakh grouping reconciles against a bank download in plain figures', () => {
    const bank = 'Date,Narration,Withdrawal Amt.,Deposit Amt.,Closing Balance\n02/11/26,NEFT CR-RAO STEELS,0.00,150000.00,1150000.00\n' +
      '09/11/26,RTGS DR-GUPTA LOGISTICS,1225000.00,0.00,-75000.00\n';
    const books = 'Date,Particulars,Vch Type,Debit,Credit\n1-Nov-26,Opening Balance,,"10,00,000.00",\n2-Nov-26,Rao Steels,Receipt,"1,50,000.00",\n' +
      '9-Nov-26,Gupta Logistics,Payment,,"12,25,000.00"\n,Closing Balance,,,"75,000.00"\n';
    const r = rec(bank, books);
    expect(r).toMatchObject({ reconciled: true, matched: 2 });
    expect(shape(r)).toEqual([]);
  });
});
