/**
 * RULES.md "Below a claim's total": a listing closed by the claim's total is the whole claim; a card statement
 * attached below it shows what the card posted for each listed expense (matched by the foreign amount both print),
 * and a note below it is commentary.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'Meals are reimbursed up to $90 per day.',
  'Receipts are required for expenses of $30 or more.',
].join('\n');

const REPORT = (rate: string, amounts: [string, string], posted: [string, string]) => [
  'Expense report - Paris customer visit                         Employee: R. Okafor',
  '',
  '#  Date         Merchant              Category   Local amount   Rate     Amount (USD)  Receipt',
  `1  Oct 02, 2026 RATP                  Taxi       EUR 18.50      ${rate}   ${amounts[0].padStart(10)}  Yes`,
  `2  Oct 03, 2026 Le Petit Zinc         Meals      EUR 64.00      ${rate}   ${amounts[1].padStart(10)}  Yes`,
  `                                                                 Total claimed (USD)  ${(Number(amounts[0]) + Number(amounts[1])).toFixed(2)}`,
  `Comment: "I used ${rate} for the euro lines."`,
  '',
  'Attachment: credit card statement lines',
  '  Trans Date  Post Date  Description                     Amount',
  `  10/02       10/03      RATP PARIS FR               ${posted[0].padStart(10)}`,
  '                         18.50 EURO X 1.081081 (EXCHG RATE)',
  `  10/03       10/04      LE PETIT ZINC PARIS FR      ${posted[1].padStart(10)}`,
  '                         64.00 EURO X 1.080469 (EXCHG RATE)',
  '  10/05       10/06      AMAZON MKTPLACE             42.99',
].join('\n');

describe('expense-policy: a card statement attached below the claim total', () => {
  it('pays the posted amount where the employee converted above it, and flags the difference', () => {
    const result = analyse(REPORT('1.1500', ['21.28', '73.60'], ['20.00', '69.15']), POLICY);
    expect(result.verdict).toBe('flag');
    expect(result.reimbursable_amount).toBe(89.15);
    expect(result.violations.join(' ')).toMatch(/card statement posted \$69\.15/);
    // The statement's own lines, its other charges and the note's rate are no expenses.
    expect(result.note).toMatch(/Checked 2 item\(s\)/);
  });

  it('approves a claim converted at the posted amounts', () => {
    const result = analyse(REPORT('1.0810', ['20.00', '69.15'], ['20.00', '69.15']), POLICY);
    expect(result.verdict).toBe('approve');
    expect(result.reimbursable_amount).toBe(89.15);
  });

  it('a posting above the claim is no reason to pay more than claimed', () => {
    const result = analyse(REPORT('1.0500', ['19.43', '67.20'], ['20.00', '69.15']), POLICY);
    expect(result.verdict).toBe('approve');
    expect(result.reimbursable_amount).toBe(86.63);
  });
});
