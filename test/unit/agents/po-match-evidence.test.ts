/**
 * po-match: each discrepancy cites the invoice line and the PO line it is held against (verbatim, by line number)
 * with its arithmetic; and the document classes read since: cXML invoices, EDIFACT INVOIC as JSON with the order on
 * the lines, a fee the PO approves in its notes, an amount-based (blanket) PO line.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';

const explain = (purchaseOrder: string, invoice: string) => poMatchEngine.explain({ purchaseOrder, invoice });

// 40 × 12.00 = 480.00 ordered; the invoice bills 40 × 12.50 = 500.00: 20.00 over.
const PO = [
  'PO Number: 5120',
  'Vendor: Delta Fasteners Inc',
  '',
  'Qty   Item      Description            Price     Amount',
  '40    DF-100    Hex bolt M8 box        12.00     480.00',
  '',
  '                              Total   480.00',
].join('\n');

describe('po-match evidence', () => {
  it('cites the invoice line and the PO line, verbatim by line number, with the arithmetic', () => {
    const invoice = ['Delta Fasteners Inc       INVOICE', 'PO Number: 5120', '', 'Qty   Item      Description            Price     Amount',
      '40    DF-100    Hex bolt M8 box        12.50     500.00', '', '                              Total   500.00'].join('\r\n');
    const { result, evidence } = explain(PO, invoice);
    expect(result.status).toBe('hold');
    const price = evidence.find((e) => e.finding.endsWith(' price'))!;
    expect(price.finding).toMatch(/^discrepancies\[\d+\] price$/);
    expect(price.sources).toEqual([
      { field: 'invoice', line: 5, quote: '40    DF-100    Hex bolt M8 box        12.50     500.00' },
      { field: 'purchaseOrder', line: 5, quote: '40    DF-100    Hex bolt M8 box        12.00     480.00' },
    ]);
    expect(price.arithmetic).toBe('40 × 12.50 = 500.00 invoiced against 40 × 12.00 = 480.00 ordered: 20.00 over');
    expect(evidence).toHaveLength(result.discrepancies.length);
  });

  it('a clean match has no findings and no evidence', () => {
    const invoice = PO.replace('PO Number: 5120', 'Delta Fasteners Inc   INVOICE\nPO Number: 5120');
    expect(explain(PO, invoice)).toMatchObject({ result: { status: 'pass' }, evidence: [] });
  });
});

describe('po-match document classes', () => {
  it('reads a cXML InvoiceDetailRequest: a price above the PO is held, citing the item and Money lines', () => {
    const cxml = `<?xml version="1.0"?>
<cXML><Request><InvoiceDetailRequest>
  <InvoiceDetailRequestHeader invoiceID="X-1"><InvoicePartner><Contact role="remitTo"><Name>Delta Fasteners Inc</Name></Contact></InvoicePartner></InvoiceDetailRequestHeader>
  <InvoiceDetailOrder><InvoiceDetailOrderInfo><OrderReference orderID="5120"/></InvoiceDetailOrderInfo>
    <InvoiceDetailItem invoiceLineNumber="1" quantity="40"><UnitOfMeasure>EA</UnitOfMeasure>
      <UnitPrice><Money currency="USD">12.50</Money></UnitPrice>
      <InvoiceDetailItemReference lineNumber="1"><ItemID><SupplierPartID>DF-100</SupplierPartID></ItemID><Description>Hex bolt</Description></InvoiceDetailItemReference>
      <SubtotalAmount><Money currency="USD">500.00</Money></SubtotalAmount>
    </InvoiceDetailItem>
  </InvoiceDetailOrder>
  <InvoiceDetailSummary><SubtotalAmount><Money currency="USD">500.00</Money></SubtotalAmount><GrossAmount><Money currency="USD">500.00</Money></GrossAmount></InvoiceDetailSummary>
</InvoiceDetailRequest></Request></cXML>`;
    const { result, evidence } = explain(PO, cxml);
    expect(result).toMatchObject({ status: 'hold', linesCompared: 1, invoiceTotal: 500 });
    // The price, and the goods over the PO it causes.
    expect(result.discrepancies).toHaveLength(2);
    expect(evidence[0].sources.map((s) => [s.field, s.line])).toEqual([['invoice', 5], ['invoice', 6], ['invoice', 8], ['purchaseOrder', 5]]);
    expect(evidence[0].sources[1].quote).toBe('<UnitPrice><Money currency="USD">12.50</Money></UnitPrice>');
  });

  it('reads EDIFACT INVOIC JSON whose only order reference is RFF+ON on every line', () => {
    const seg = (name: string, ...elements: string[][]) => JSON.stringify({ name, elements });
    const invoic = `{"segments": [\n${[
      seg('UNH', ['1'], ['INVOIC', 'D', '96A', 'UN']), seg('BGM', ['380'], ['F-1']), seg('NAD', ['SU'], [], [], ['Delta Fasteners Inc']),
      seg('CUX', ['2', 'USD', '4']), seg('LIN', ['1']), seg('PIA', ['5'], ['DF-100', 'SA']), seg('QTY', ['47', '40', 'PCE']),
      seg('MOA', ['203', '480.00']), seg('PRI', ['AAA', '12.00']), seg('RFF', ['ON', '5120', '1']), seg('UNS', ['S']),
      seg('MOA', ['79', '480.00']), seg('MOA', ['77', '480.00']),
    ].join(',\n')}\n]}`;
    const { result } = explain(PO, invoic);
    expect(result).toMatchObject({ status: 'pass', linesCompared: 1, invoiceTotal: 480 });
  });

  it('a fee the PO approves in its notes passes up to its amount; above it is held', () => {
    const po = `${PO}\n\nNotes\nYour handling fee of $15.00 per order is approved for this PO and may be billed as a separate line.`;
    const invoice = (fee: string) => ['Delta Fasteners Inc       INVOICE', 'PO Number: 5120', '', 'Qty   Item      Description            Price     Amount',
      '40    DF-100    Hex bolt M8 box        12.00     480.00', '', `                       HANDLING FEE   ${fee}`, `                              Total   ${(480 + Number(fee)).toFixed(2)}`].join('\n');
    expect(explain(po, invoice('15.00')).result.status).toBe('pass');
    const over = explain(po, invoice('25.00'));
    expect(over.result.status).toBe('hold');
    expect(over.evidence[0].arithmetic).toBe('25.00 − 15.00 = 10.00 over the approved amount');
  });

  it('an amount-based (blanket) PO line is a budget at the rate its text states, within the remaining amount', () => {
    const po = ['Purchase Order #700', 'Supplier: Tessel Labs Inc', 'Order Type: Blanket', '',
      'Line  Description                          Type     Total       Invoiced',
      '1     Analytics plan, 10 seats at         Amount   12,000.00   1,000.00',
      '      $100.00/seat/month', '', 'Remaining USD 11,000.00'].join('\n');
    const invoice = (rate: string) => ['Tessel Labs Inc    INVOICE', 'P.O.# : 700', '', ' #   Item & Description         Qty     Rate      Amount',
      ` 1   Analytics plan             10.00   ${rate}    ${(10 * Number(rate)).toFixed(2)}`, '', `               Total    ${(10 * Number(rate)).toFixed(2)}`].join('\n');
    expect(explain(po, invoice('100.00')).result.status).toBe('pass');
    expect(explain(po, invoice('120.00')).result.discrepancies.join(' ')).toMatch(/rate the PO line states/);
  });

  // PO: 2 CS, est. 20.00 LB at 9.45/LB = 189.00, accept 9.5 - 10.5 LB per case.
  const CATCH_PO = ['PO Number: PO-418', 'Vendor: Lakeside Foods', '', 'Item                          Vendor #   UofM    Qty   Unit Cost    Amount',
    'Salmon fillet skin-on         7011452    LB    20.00        9.45    189.00', '   2 CS, catch weight, est. 10.0 LB/CS;',
    '   accept 9.5 - 10.5 LB per case', '', '                                     Estimated Total:    189.00'].join('\n');
  const catchInvoice = (weights: string, total: string, amount: string) => ['LAKESIDE FOODS                       INVOICE', 'CUST PO#  PO-418', '',
    ' QTY UNIT   DESCRIPTION              ITEM#       PRICE       EXTENDED', `   2 CS     SALMON ATL FLT SKN-ON    7011452    9.450 LB      ${amount}`,
    `          C/W  ${weights}              TOTAL WT   ${total} LB`, '', `                          INVOICE TOTAL           ${amount}`].join('\n');

  it('a catch-weight line bills the weighed total at the PO price per LB; every case inside the accepted range passes', () => {
    // 10.12 + 9.87 = 19.99 LB × 9.45 = 188.9055 → 188.91.
    expect(explain(CATCH_PO, catchInvoice('10.12   9.87', '19.99', '188.91')).result).toMatchObject({ status: 'pass', invoiceTotal: 188.91 });
    // 10.12 + 10.88 = 21.00 LB × 9.45 = 198.45: 10.88 is outside 9.5 - 10.5.
    const out = explain(CATCH_PO, catchInvoice('10.12  10.88', '21.00', '198.45'));
    expect(out.result.status).toBe('hold');
    expect(out.result.discrepancies[0]).toMatch(/case weight 10\.88 LB outside the PO's 'accept 9\.5 - 10\.5 LB per case'/);
  });

  it('a credit memo is held to the PO price, and a restocking fee the PO refuses is quoted', () => {
    const po = ['PO Number: 1583', 'Vendor: Front Range Electric', '', 'Qty   Item        Description          Unit Price     Total',
      '10    WPX1-50K    LED wall pack         142.75       1,427.50', '', '                                 Total   1,427.50', '',
      'Returns: no restocking fee applies to defective returns.'].join('\n');
    const memo = (fee: string[]) => ['FRONT RANGE ELECTRIC                 CREDIT MEMO', 'Cust PO#  1583', '', 'Qty   Item        Description          Unit Price     Total',
      '-4    WPX1-50K    LED wall pack         142.75        -571.00', '', ...fee, `                                 Total   ${fee.length ? '-485.35' : '-571.00'}`].join('\n');
    expect(explain(po, memo([])).result).toMatchObject({ status: 'pass', invoiceTotal: -571 });
    const fee = explain(po, memo(['                     RESTOCKING CHARGE 15%       85.65']));
    expect(fee.result.discrepancies).toEqual(["charge: RESTOCKING CHARGE 15% 85.65 deducted from the credit; the PO says 'Returns: no restocking fee applies to defective returns.'"]);
    expect(fee.evidence[0].sources.map((s) => s.field)).toEqual(['invoice', 'purchaseOrder']);
  });
});
