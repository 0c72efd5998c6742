/**
 * RULES.md "trip length": a thing paid when the trip lasts some nights "or when" another condition holds ("Checked
 * baggage fees are reimbursed when the trip lasts three nights or more, or when the traveller carries company
 * equipment (demo kits, tools, samples)"): the claim naming the other condition meets it; the trip's nights may be the
 * ones the claim states when no hotel is claimed.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const POLICY = [
  'Travel policy (excerpt). All limits in EUR.',
  '1. Air travel',
  '   - Checked baggage fees are reimbursed when the trip lasts four nights or more, or when the traveller carries',
  '     company equipment (measuring kits, tools, samples).',
  '2. Receipts are required for every expense over EUR 50.',
].join('\n');

const claim = (note: string) => [
  `Hello, my expenses for the Lyon audit. ${note}`,
  '',
  '  Air France ticket CDG-LYS-CDG, economy ...................... EUR 180,00',
  '  Air France checked bag, 2 x EUR 25,00 ....................... EUR  50,00',
  '                                                               -----------',
  '  Total                                                        EUR 230,00',
  '',
  'Pasted: Air France receipt, total EUR 180,00',
].join('\n');

describe('expense-policy: a thing paid on a trip of some length, or on another condition', () => {
  it('reads the nights and the other condition\'s words', () => {
    const [rule] = readPolicy(POLICY).tripRules;
    expect(rule.nights).toBe(4n);
    expect(rule.things).toEqual(['checked baggage']);
    expect(rule.unless).toEqual(['measuring kit', 'tool', 'sample', 'equipment']);
  });

  it('refuses the bag on a shorter trip whose claim names no equipment', () => {
    const r = expensePolicyEngine.analyse({ expense: claim('Two nights, Mon to Wed.'), expensePolicy: POLICY });
    expect(r.verdict).toBe('reject');
    expect(r.reimbursable_amount).toBe(180);
  });

  it('pays it when the claim says the equipment was carried, or states a long enough trip', () => {
    for (const note of ['Two nights; I carried the tools case as checked baggage.', 'Five nights, Mon to Sat.']) {
      const r = expensePolicyEngine.analyse({ expense: claim(note), expensePolicy: POLICY });
      expect(r.reimbursable_amount).toBe(230);
    }
  });
});
