/**
 * RULES.md "Below a claim's total": a plain "Total" line (no claim word: "Total del informe", "Gesamt", "Total
 * submitted") equal to the sum of every listed expense above it closes the claim; what is pasted below it (the
 * receipts' lines, the payout lines, the per-person figure, a card statement under a head such as "Statement
 * screenshot" or "Posted transactions") is support, never more expenses.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = ['Meals are reimbursed up to $80 per person per day.', 'Receipts are required for expenses over $200.'].join('\n');

describe('expense-policy: support pasted below a plain total', () => {
  it('reads the rows above a plain total as the whole claim, not the receipt and payout lines below it', () => {
    const report = [
      'Travel report            Employee: K. Lindqvist',
      '',
      'Date        Type            Merchant               Paid by      Amount',
      '03/02/2026  Parking         Garage Hauptbahnhof    Employee      12.00',
      '03/02/2026  Meal            Brasserie Nord         Employee      58.40',
      '04/02/2026  Taxi            City Cab               Employee      21.10',
      '                                        Total of the trip:       91.50',
      '                                        Paid to employee:        91.50',
      '',
      'Details',
      '(2) Brasserie Nord, receipt attached',
      '    2  SOUP OF THE DAY       7.20      14.40',
      '    2  FISH PLATE           22.00      44.00',
      '    TOTAL                             58.40',
      '    Per person:                       29.20',
    ].join('\n');
    const result = analyse(report, POLICY);
    expect(result.reimbursable_amount).toBe(91.5);
    expect(result.note).toMatch(/Checked 3 item\(s\)/);
  });

  it('reads a card statement below the total under a "Posted transactions" head as support, not expenses', () => {
    const report = [
      'Trip: Lisbon sales visit',
      '#  Date        Merchant               Original      Amount requested (USD)',
      '1  Mar 4 2026  Taxi Aeroporto         EUR 24.00     $26.10',
      '2  Mar 4 2026  Tasca do Bairro        EUR 31.00     $33.71',
      '3  Mar 5 2026  Metro card             EUR 10.00     $10.87',
      '                                      Total         $70.68',
      '',
      'AMEX GOLD ••2002 — Posted transactions',
      '  03/05  TAXI AEROPORTO LISBOA      24.00 EUR   $26.10',
      '  03/05  TASCA DO BAIRRO LISBOA     31.00 EUR   $33.71',
      '  03/06  METRO LISBOA               10.00 EUR   $10.87',
    ].join('\n');
    const result = analyse(report, 'Meals are reimbursed up to $80 per day.\nReceipts are required for expenses over $100.');
    expect(result.reimbursable_amount).toBe(70.68);
    expect(result.note).toMatch(/Checked 3 item\(s\)/);
  });

  it('of two plain totals (a day subtotal, then the report total), reads every row up to the last', () => {
    const report = [
      'Date        Merchant              Amount',
      '03/02/2026  Cafe Lumen             18.00',
      '03/02/2026  City Cab               22.00',
      '                       Total       40.00',
      '04/02/2026  Bistro Vale dinner     95.00',
      '04/02/2026  City Cab               21.00',
      '                       Total      156.00',
    ].join('\n');
    const result = analyse(report, POLICY);
    // The second day's meal is still read (and held to its cap): the first subtotal does not close the claim.
    expect(result.verdict).toBe('flag');
    expect(result.note).toMatch(/Checked 4 item\(s\)/);
  });
});
