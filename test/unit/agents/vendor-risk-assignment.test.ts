/**
 * Payment assigned to another party (RULES.md rule 6): a notice of assignment, a factoring arrangement, or an
 * instruction to pay a named company that is not the vendor is a payment redirection; denied, asked, or answered no
 * it is not. And a JSON export's quoted answer to the prepayment question reads as a form's answer does. The clean
 * company of vendor-risk-company.ts with lines added.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { COMPANY_LINES } from '../../support/vendor-risk-company.js';

const analyse = (...lines: string[]) => vendorRiskEngine.explain({ vendorProfile: [...COMPANY_LINES, ...lines].join('\n') });
const areas = (...lines: string[]) => analyse(...lines).result.flags.map((f) => f.split(':')[0]);

describe('payment to be made to another party', () => {
  it.each([
    ['a factor\'s notice of assignment', ['NOTICE OF ASSIGNMENT', 'Northwind Traders LLC has assigned its receivables to Harbor Capital Funding LLC.']],
    ['receivables sold to a lender', ['Please note that Northwind Traders LLC has sold all of its present and future accounts receivable to Summit Trade Finance Inc.']],
    ['an assignment of receivables', ['This letter confirms the assignment of all receivables under our agreement.']],
    ['a factoring company named', ['We now work with a factoring company; their details are below.']],
    ['made payable to another company', ['From 1 March, invoices should be made payable to Bluegate Receivables Corp and mailed to their office.']],
    ['pay to the order of another company', ['Pay to the order of Crestline Capital LLC.']],
    ['payments directed to another company', ['All payments should now be directed to Redwood Commercial Finance, Inc. as of today.']],
  ])('%s → payment redirection, cited', (_name, lines) => {
    const { result, evidence } = analyse(...lines);
    expect(result.flags.map((f) => f.split(':')[0])).toEqual(['payment redirection']);
    expect(result.decision).toBe('hold');
    expect(result.grade).toBe('MEDIUM RISK');
    expect(evidence[0].sources[0].quote).toBeTruthy();
  });

  it.each([
    ['a denial', ['We do not use a factoring company and never assign our receivables.']],
    ['a question', ['Have you entered into an assignment of receivables with any lender?  No']],
    ['a label answered N/A', ['Factoring company:  N/A']],
    ['remit to the vendor itself, punctuation aside', ['Please remit to Northwind Traders, L.L.C. at the address above.']],
    ['payable to the vendor in capitals', ['Cheques payable to NORTHWIND TRADERS LLC']],
    ['remit to an address', ['Remit to: 400 Market St, Suite 200, San Francisco, CA 94105']],
  ])('%s → clean', (_name, lines) => {
    expect(areas(...lines)).toEqual([]);
  });
});

describe('a JSON export answering the prepayment question', () => {
  it.each([
    ['quoted none', ['  "prepayment": "none",']],
    ['none, then the credit terms', ['  "advancePayment": "none; invoiced on delivery, net 45",']],
    ['no, then days', ['  "deposit": "No - 30 days from invoice"']],
  ])('%s → clean', (_name, lines) => {
    expect(areas(...lines)).toEqual([]);
  });

  it.each([
    ['a share', ['  "prepayment": "30% with order",']],
    ['none, then a turn', ['  "prepayment": "none; but 50% before delivery",']],
  ])('%s → upfront payment demand', (_name, lines) => {
    expect(areas(...lines)).toEqual(['upfront payment demand']);
  });
});
