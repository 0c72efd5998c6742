/**
 * RULES.md "Currencies": a policy states once the currency of all its limits ("All limits in EUR.", "Amounts are in
 * SEK"); every amount it names is then in that currency, and a claim in it is checked against them.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

describe('expense-policy: the currency stated once for every limit', () => {
  it.each([
    ['Issued by Finance. All limits in EUR. Submit within 30 days.', 'EUR'],
    ['Amounts are in SEK.', 'SEK'],
    ['All amounts are stated in Swiss francs.', 'CHF'],
    ['Alla belopp i svenska kronor (SEK).', 'SEK'],
    ['Limits are expressed in Norwegian kroner (NOK).', 'NOK'],
  ])('"%s" → %s', (text, currency) => {
    const policy = readPolicy(`${text}\nReceipts are required for every expense.`);
    expect(policy.currency).toBe(currency);
    expect(policy.notUnderstood.join(' ')).not.toMatch(/belopp|amounts|limits/i);
  });

  it('a sentence naming two currencies states neither', () => {
    expect(readPolicy('Amounts are in EUR or GBP.\nReceipts are required for every expense.').currency).toBe('USD');
  });

  it('a claim in the stated currency is checked and paid', () => {
    const policy = ['Prepared by the CFO. All limits in EUR.', 'Receipts are required for every expense over 25 EUR.'].join('\n');
    const result = expensePolicyEngine.analyse({ expense: 'Train ticket Hamburg - Berlin EUR 89,00 (receipt attached)', expensePolicy: policy });
    expect(result.verdict).toBe('approve');
    expect(result.reimbursable_amount).toBe(89);
  });
});
