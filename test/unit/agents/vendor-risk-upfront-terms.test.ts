/**
 * Payment terms that ask for money before delivery as English quotations, pro-forma invoices and e-mails write them
 * (RULES.md rule 7, terms.ts): the whole price or a share tied to the order being placed, confirmed or accepted, the
 * CIA / CWO codes, a pro-forma invoice to be settled before shipment, T/T advance, a non-refundable deposit. Ordinary
 * credit terms, and a deposit on returnable packaging, stay clean. Documents of their own, on the clean company of
 * vendor-risk-company.ts.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { COMPANY_LINES } from '../../support/vendor-risk-company.js';

const run = (...lines: string[]) => vendorRiskEngine.analyse({ vendorProfile: [...COMPANY_LINES, ...lines].join('\n') });

describe('money asked before delivery in quotation terms', () => {
  it.each([
    ['a quotation terms line', ['QUOTATION Q-2291', 'Item: hydraulic press, 1 unit', 'Terms of payment: 100% payment upon confirmation of order.'], 'Terms of payment: 100% payment upon confirmation of order.'],
    ['a table row with bars', ['| Delivery      | 6 weeks ex works      |', '| Payment terms | Full payment with order |'], '| Payment terms | Full payment with order |'],
    ['an e-mail sentence', ['Dear Sir,', 'Please note that we require payment in full on order confirmation for first-time customers.'], 'Please note that we require payment in full on order confirmation for first-time customers.'],
    ['the CIA code on a terms line', ['Payment terms:   CIA', 'Incoterms: FCA Rotterdam'], 'Payment terms: CIA'],
    ['cash with order written out', ['Our terms for new accounts are cash with order.'], 'Our terms for new accounts are cash with order.'],
    ['a pro-forma invoice settled before dispatch', ['The pro-forma invoice is to be settled in full before dispatch of the goods.'], 'The pro-forma invoice is to be settled in full before dispatch of the goods.'],
    ['a share against a pro-forma invoice', ['Payment: 100% against proforma invoice, goods released on receipt of funds.'], 'Payment: 100% against proforma invoice, goods released on receipt of funds.'],
    ['T/T advance shorthand', ['PAYMENT: 100% TT ADVANCE', 'LEAD TIME: 25 DAYS'], 'PAYMENT: 100% TT ADVANCE'],
    ['payment due when the quotation is accepted', ['Payment is due upon acceptance of this quote.'], 'Payment is due upon acceptance of this quote.'],
    ['a non-refundable deposit', ['A non-refundable booking deposit of USD 1,500 secures your production slot.'], 'A non-refundable booking deposit of USD 1,500 secures your production slot.'],
    ['a deposit said to be non-refundable', ['Once paid, the deposit is non-refundable.'], 'Once paid, the deposit is non-refundable.'],
    ['the total payable when the PO arrives', ['The total amount is payable upon receipt of your purchase order.'], 'The total amount is payable upon receipt of your purchase order.'],
  ])('%s → upfront payment demand quoting its line', (_name, lines, quoted) => {
    const out = run(...lines);
    expect(out.flags).toHaveLength(1);
    expect(out.flags[0]).toMatch(/^upfront payment demand: /);
    expect(out.flags[0]).toContain(`("${quoted}")`);
    expect(out.decision).toBe('hold');
  });
});

describe('credit terms and other wordings that ask for nothing in advance', () => {
  it.each([
    ['Net 30 in a table row', ['| Payment terms | Net 30 from invoice date |']],
    ['end of month', ['Terms of payment: 30 days end of month following invoice.']],
    ['payment on delivery', ['Payment on delivery, by bank transfer.']],
    ['the whole price within 30 days', ['Payment terms: 100% within 30 days of invoice']],
    ['an early-payment discount', ['Terms: 2% 10 Net 30']],
    ['a pallet deposit refunded', ['A deposit of EUR 12 per pallet is charged and refunded on return of pallets.', 'Pallet deposit is non-refundable if pallets are damaged.']],
    ['a payment confirmation sent', ['Payment confirmation will be sent by e-mail once your remittance is received.']],
    ['payment on confirmation of delivery', ['Payment on confirmation of receipt of goods, Net 15.']],
    ['acceptance of the goods', ['Payment is due 30 days after acceptance of the goods.', 'Payment on acceptance of the goods.']],
    ['a PO number quoted with payment', ['Please quote the PO number with payment.', 'Payment with order number reference.']],
    ['a negated demand', ['We do not require payment with order; standard terms are Net 45.']],
    ['the letters CIA not on a terms line', ['Notes: CIA World Factbook used for country data.']],
    ['signing of a delivery note', ['Payment at signing of the delivery note, Net 30 thereafter.']],
  ])('%s → clean', (_name, lines) => {
    const out = run(...lines);
    expect(out.flags).toEqual([]);
    expect(out.decision).toBe('onboard');
  });
});
