/**
 * Money before delivery as a practitioner reads it (RULES.md rule 7): a form that asks about a deposit or prepayment
 * and is answered no demands nothing; answered yes, with terms, or "no, but…", it does. And a share of an order or
 * an amount to be transferred, remitted or received ahead of the goods leaving is a demand in any wording. The
 * clean company of vendor-risk-company.ts with lines added.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { COMPANY_LINES } from '../../support/vendor-risk-company.js';

const flagsOf = (...lines: string[]) => vendorRiskEngine.analyse({ vendorProfile: [...COMPANY_LINES, ...lines].join('\n') }).flags;
const areas = (...lines: string[]) => flagsOf(...lines).map((f) => f.split(':')[0]);

describe('a form asking about money before delivery', () => {
  it.each([
    ['a question answered No', ['Is a deposit or advance payment required?   No']],
    ['a label answered None', ['Advance payment:  None']],
    ['a label answered 0 %', ['Prepayment (% of order): 0 %']],
    ['tick boxes with No ticked', ['Prepayment required      [ ] Yes   [x] No']],
    ['the answer on the line under the question', ['4.2 Do you require payment in advance?', '    No']],
    ['a numbered question answered N/A', ['7. Down payment required before production? N/A']],
  ])('%s → clean', (_name, lines) => {
    expect(flagsOf(...lines)).toEqual([]);
  });

  it.each([
    ['answered Yes', ['Is a deposit or advance payment required?   Yes']],
    ['answered with terms', ['Advance payment:  30% with order']],
    ['"No, but" is no clean no', ['Prepayment required? No, but a 40% deposit is due with the PO']],
    ['boxes with Yes ticked', ['Prepayment required      [x] Yes   [ ] No']],
    ['a sentence, not a label, that says it', ['We ask for advance payment on all first orders: no exceptions.']],
  ])('%s → upfront payment demand', (_name, lines) => {
    expect(areas(...lines)).toEqual(['upfront payment demand']);
  });
});

describe('money to be sent ahead of the goods, in any wording', () => {
  it.each([
    ['the whole amount transferred in advance', 'For this order we need 100% of the invoice value transferred in advance.'],
    ['a share of the order in advance', 'Our terms for new accounts are 30% of the order value in advance, balance at 30 days.'],
    ['the balance remitted in advance', 'The balance must be remitted in advance of loading.'],
    ['the amount received before the goods are released', 'The full amount must be received before we can release the pallets.'],
    ['payment before the mill releases', 'Full payment is needed before the mill will release the coils.'],
  ])('%s → upfront payment demand', (_name, line) => {
    expect(areas(line)).toEqual(['upfront payment demand']);
  });

  it.each([
    ['a timing with no money', 'We confirm the ship date before we release the order.'],
    ['payment after delivery, inspection before', 'Invoices are paid at 30 days. We inspect every lot before we ship.'],
  ])('%s → clean', (_name, line) => {
    expect(flagsOf(line)).toEqual([]);
  });
});
