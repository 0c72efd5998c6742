/**
 * po-match: tax checked against the PO's own tax (a rate applied to a line the PO does not tax), an Australian tax
 * invoice's columns (Amount ex GST, GST, Amount inc GST; TOTAL INC GST), India's CGST and SGST as two taxes, a Tally
 * purchase order (Voucher No., Supplier (Bill from), prices inclusive of freight) and a description number spilling
 * into the Ordered column.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';
import { readTerms } from '../../../lambdas/agents/engines/po-match/terms.js';

const run = (purchaseOrder: string, invoice: string) => poMatchEngine.analyse({ purchaseOrder, invoice });
const money = (v: bigint | undefined) => (v === undefined ? undefined : Number(v) / 1e6);

const auPo = [
  'Harbourside Deli Pty Ltd',
  '                                                          PURCHASE ORDER',
  'Supplier:                                                 Purchase No.:   00000932',
  'Eastern Produce Wholesale Pty Ltd',
  '',
  'Item No.    Description                          Ordered   Unit     Price      Total   Tax',
  'BRD-SD      Sourdough loaf 800g, tray 12              10   EA        6.50      65.00   FRE',
  'NAP-2PLY    Napkins 2 ply, ctn 2000                    3   CTN      42.00     126.00   GST',
  '',
  '                                                Subtotal:              $191.00',
  '                                                GST:                    $12.60',
  '                                                Total Amount:          $203.60',
].join('\n');
const auInvoice = (breadGst: string, gst: string, total: string) => [
  'EASTERN PRODUCE WHOLESALE PTY LTD                                    TAX INVOICE',
  '                                                                     Your Order:  00000932',
  '',
  'Code        Description                    Qty   Unit   Unit Price   Amount ex GST     GST   Amount inc GST',
  `BRD-SD      SOURDOUGH 800G                  10   EA           6.50           65.00    ${breadGst}            ${(65 + Number(breadGst)).toFixed(2)}`,
  'NAP-2PLY    NAPKIN 2PLY CTN2000              3   CTN         42.00          126.00   12.60           138.60',
  '',
  '                                                   Total ex GST              191.00',
  `                                                   GST                        ${gst}`,
  `                                                   TOTAL INC GST             ${total}`,
].join('\n');

describe('tax against the PO\'s tax', () => {
  it('reads the columns ex GST as the line amount and TOTAL INC GST as the total; a number in the description is not the quantity', () => {
    const po = readDocument(auPo, 'purchaseOrder');
    expect(po.poNumber).toBe('00000932');
    expect(po.lines.map((l) => [l.sku, money(l.quantity), money(l.amount)])).toEqual([['BRD-SD', 10, 65], ['NAP-2PLY', 3, 126]]);
    const inv = readDocument(auInvoice('0.00', '12.60', '203.60'), 'invoice');
    expect(inv.lines.map((l) => money(l.amount))).toEqual([65, 126]);
    expect(money(inv.total)).toBe(203.6);
    expect(inv.charges.map((c) => [c.kind, money(c.amount)])).toEqual([['tax', 12.6]]);
  });
  it('the same goods taxed as the PO taxes them pass', () => {
    expect(run(auPo, auInvoice('0.00', '12.60', '203.60')).status).toBe('pass');
  });
  it('GST charged on a line the PO leaves GST-free is held with the tax over', () => {
    const r = run(auPo, auInvoice('6.50', '19.10', '210.10'));
    expect(r.status).toBe('hold');
    expect(r.discrepancies.some((d) => /^tax: .*6\.50 over/.test(d))).toBe(true);
    expect(r.invoiceTotal).toBe(210.1);
  });
  it('a partial invoice is not held for its tax share (mixed rates make the share unknown)', () => {
    const partial = auInvoice('0.00', '12.60', '203.60').split('\n').filter((l) => !l.startsWith('BRD-SD')).join('\n')
      .replace('191.00', '126.00').replace('203.60', '138.60');
    const r = run(auPo, partial);
    expect(r.discrepancies.filter((d) => d.startsWith('tax:'))).toEqual([]);
  });
});

describe('a Tally purchase order with CGST and SGST', () => {
  const po = [
    '                                   PURCHASE ORDER',
    'DECCAN PUMPS PVT LTD',
    'Supplier (Bill from)                              Voucher No.           Dated',
    'Coimbatore Castings & Forgings                    DPL/PO/26-27/0088     5-Sep-2026',
    '                                                  Terms of Delivery',
    '                                                  Door delivery, prices inclusive of freight.',
    '',
    'Sl  Description of Goods          HSN/SAC    Quantity       Rate    per        Amount',
    'No.',
    '1   Impeller casting CI FG260     8413       200 NOS      410.00    NOS     82,000.00',
    '                                                                           ----------',
    '                                                                            82,000.00',
    '    CGST @ 9%                                                                7,380.00',
    '    SGST @ 9%                                                                7,380.00',
    '                                                                           ----------',
    '    Total                                                                 ₹ 96,760.00',
  ].join('\n');
  it('reads the voucher number as the PO, the supplier below its bracketed label and both taxes', () => {
    const doc = readDocument(po, 'purchaseOrder');
    expect(doc.poNumber).toBe('DPL/PO/26-27/0088');
    expect(doc.vendor).toBe('Coimbatore Castings & Forgings');
    expect(doc.charges.map((c) => money(c.amount))).toEqual([7380, 7380]);
    expect(money(doc.total)).toBe(96760);
  });
  it('prices inclusive of freight make freight not billable', () => {
    expect(readTerms('Door delivery, prices inclusive of freight.').freightNotBillable).toBeDefined();
    expect(readTerms('No separate freight to be charged.').freightNotBillable).toBeDefined();
  });
  it('a total of the taxes printed after CGST and SGST is not added again', () => {
    const withTotal = po.replace('    SGST @ 9%                                                                7,380.00', '    SGST @ 9%                                                                7,380.00\n    Total GST                                                               14,760.00');
    const doc = readDocument(withTotal, 'purchaseOrder');
    expect(doc.charges.map((c) => money(c.amount))).toEqual([7380, 7380]);
  });
});
