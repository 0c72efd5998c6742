/**
 * po-match: national e-invoice forms read as their schemas define them — a Finnish Finvoice 3.0 invoice, an Indian
 * GST e-invoice as the Invoice Registration Portal returns it, and an X12 850 purchase order rendered as JSON.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine as engine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';

const run = engine.analyse;
const money = (v: bigint | undefined) => (v === undefined ? undefined : Number(v) / 1e6);

function finvoiceRow(code: string, name: string, qty: string, unit: string, price: string, net: string, extra = ''): string {
  return `<InvoiceRow><ArticleIdentifier>${code}</ArticleIdentifier><ArticleName>${name}</ArticleName>` +
    `<DeliveredQuantity QuantityUnitCode="${unit}">${qty}</DeliveredQuantity><UnitPriceAmount AmountCurrencyIdentifier="EUR">${price}</UnitPriceAmount>${extra}` +
    `<RowVatRatePercent>25,5</RowVatRatePercent><RowVatExcludedAmount AmountCurrencyIdentifier="EUR">${net}</RowVatExcludedAmount></InvoiceRow>`;
}
function finvoice(rows: string[], net: string, vat: string, total: string, order = 'TI-20931'): string {
  return `<?xml version="1.0" encoding="ISO-8859-15"?>
<Finvoice Version="3.0">
  <SellerPartyDetails><SellerPartyIdentifier>0112233-4</SellerPartyIdentifier><SellerOrganisationName>Sähkötarvike Lahti Oy</SellerOrganisationName></SellerPartyDetails>
  <InvoiceDetails>
    <InvoiceTypeCode>INV01</InvoiceTypeCode><InvoiceNumber>5521</InvoiceNumber><OrderIdentifier>${order}</OrderIdentifier>
    <InvoiceTotalVatExcludedAmount AmountCurrencyIdentifier="EUR">${net}</InvoiceTotalVatExcludedAmount>
    <InvoiceTotalVatAmount AmountCurrencyIdentifier="EUR">${vat}</InvoiceTotalVatAmount>
    <InvoiceTotalVatIncludedAmount AmountCurrencyIdentifier="EUR">${total}</InvoiceTotalVatIncludedAmount>
    <VatSpecificationDetails><VatRatePercent>25,5</VatRatePercent></VatSpecificationDetails>
  </InvoiceDetails>
  ${rows.join('\n  ')}
</Finvoice>`;
}
const finnishPo = JSON.stringify({
  poNumber: 'TI-20931', vendor: 'Sähkötarvike Lahti Oy', currency: 'EUR', total: 313.74,
  lines: [{ sku: 'KAAP-MMJ3', description: 'MMJ 3x2,5 kaapeli 100 m', quantity: 2, unitPrice: 89.5, amount: 179 },
    { sku: 'RASIA-80', description: 'Kojerasia 80 mm', quantity: 50, unitPrice: 1.3, amount: 65 }],
});

describe('Finvoice 3.0', () => {
  it('reads the seller, the order, each row and the totals with decimal commas', () => {
    const doc = readDocument(finvoice([finvoiceRow('KAAP-MMJ3', 'MMJ 3x2,5 kaapeli 100 m', '2', 'kpl', '89,50', '179,00'), finvoiceRow('RASIA-80', 'Kojerasia 80 mm', '50', 'kpl', '1,30', '65,00')], '244,00', '62,22', '306,22'), 'invoice');
    expect(doc.vendor).toBe('Sähkötarvike Lahti Oy');
    expect(doc.poNumber).toBe('TI-20931');
    expect(doc.currency).toBe('EUR');
    expect(doc.lines.map((l) => [l.sku, money(l.quantity), money(l.unitPrice), money(l.amount)])).toEqual([['KAAP-MMJ3', 2, 89.5, 179], ['RASIA-80', 50, 1.3, 65]]);
    expect(money(doc.subtotal)).toBe(244);
    expect(money(doc.total)).toBe(306.22);
    expect(doc.charges.map((c) => [c.kind, money(c.amount)])).toEqual([['tax', 62.22]]);
  });
  it('a row discount leaves the row net: its price per unit is the net ÷ quantity', () => {
    const doc = readDocument(finvoice([finvoiceRow('RASIA-80', 'Kojerasia 80 mm', '50', 'kpl', '1,30', '58,50', '<RowDiscountPercent>10</RowDiscountPercent>')], '58,50', '14,92', '73,42'), 'invoice');
    expect(doc.lines[0].unitPrice).toBeUndefined();
    expect(money(doc.lines[0].amount)).toBe(58.5);
  });
  it('a freight row (Rahti) is a charge, not an item; billed on a PO without freight it is held', () => {
    const xml = finvoice([finvoiceRow('KAAP-MMJ3', 'MMJ 3x2,5 kaapeli 100 m', '2', 'kpl', '89,50', '179,00'), finvoiceRow('RAHTI', 'Rahti', '1', 'kpl', '25,00', '25,00')], '204,00', '52,02', '256,02');
    const doc = readDocument(xml, 'invoice');
    expect(doc.lines).toHaveLength(1);
    expect(doc.charges.find((c) => c.kind === 'freight')?.amount).toBe(25_000_000n);
    const r = run({ purchaseOrder: finnishPo, invoice: xml });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.some((d) => /freight/i.test(d))).toBe(true);
  });
  it('an invoice citing another order is held', () => {
    const r = run({ purchaseOrder: finnishPo, invoice: finvoice([finvoiceRow('RASIA-80', 'Kojerasia 80 mm', '50', 'kpl', '1,30', '65,00')], '65,00', '16,58', '81,58', 'TI-20913') });
    expect(r.status).toBe('hold');
  });
});

function gstItem(sl: string, desc: string, qty: number, unit: string, price: number, ass: number, gst: number): Record<string, unknown> {
  return { SlNo: sl, PrdDesc: desc, IsServc: 'N', Qty: qty, Unit: unit, UnitPrice: price, TotAmt: ass, Discount: 0, AssAmt: ass, GstRt: 18, IgstAmt: gst, CgstAmt: 0, SgstAmt: 0, TotItemVal: ass + gst };
}
function gstInvoice(items: Record<string, unknown>[], val: Record<string, number>, po = '4500112233'): string {
  return JSON.stringify({ AckNo: 1, Irn: 'x', SignedInvoice: {
    Version: '1.1', DocDtls: { Typ: 'INV', No: 'PN/101', Dt: '02/09/2026' },
    SellerDtls: { Gstin: '27AAACP1234F1Z5', LglNm: 'PUNE PACKAGING PRIVATE LIMITED' },
    BuyerDtls: { Gstin: '29AABCB9876K1Z2', LglNm: 'BANGALORE FOODS LTD' },
    ItemList: items, ValDtls: val, RefDtls: { ContrDtls: [{ PORefr: po }] } } }, null, 2);
}
const indianPo = JSON.stringify({
  poNumber: '4500112233', vendor: 'Pune Packaging Pvt Ltd', currency: 'INR', total: 41300,
  lines: [{ description: 'Corrugated box 5 ply 400x300x300', quantity: 1000, uom: 'NOS', unitPrice: 35, amount: 35000 }],
  tax: 6300,
});

describe('GST e-invoice (IRP JSON)', () => {
  it('reads ItemList, RefDtls PORefr, SellerDtls and ValDtls; an inter-state IGST invoice at the PO terms passes', () => {
    const inv = gstInvoice([gstItem('1', 'CORRUGATED BOX 5 PLY 400X300X300', 1000, 'NOS', 35, 35000, 6300)], { AssVal: 35000, IgstVal: 6300, CgstVal: 0, SgstVal: 0, TotInvVal: 41300 });
    const doc = readDocument(inv, 'invoice');
    expect(doc.poNumber).toBe('4500112233');
    expect(doc.vendor).toBe('PUNE PACKAGING PRIVATE LIMITED');
    expect(doc.currency).toBe('INR');
    expect(doc.lines.map((l) => [money(l.quantity), l.uom, money(l.unitPrice), money(l.amount)])).toEqual([[1000, 'EA', 35, 35000]]);
    expect(money(doc.total)).toBe(41300);
    const r = run({ purchaseOrder: indianPo, invoice: inv });
    expect(r.discrepancies).toEqual([]);
    expect(r.status).toBe('pass');
  });
  it('a freight service item is a charge with its GST, held on a PO that carries none', () => {
    const inv = gstInvoice([gstItem('1', 'CORRUGATED BOX 5 PLY 400X300X300', 1000, 'NOS', 35, 35000, 6300), { ...gstItem('2', 'Freight charges Pune to Bengaluru', 1, 'OTH', 2000, 2000, 360), IsServc: 'Y' }],
      { AssVal: 37000, IgstVal: 6660, TotInvVal: 43660 });
    const doc = readDocument(inv, 'invoice');
    expect(doc.lines).toHaveLength(1);
    expect(doc.charges.find((c) => c.kind === 'freight')?.amount).toBe(2_000_000_000n);
    const r = run({ purchaseOrder: indianPo, invoice: inv });
    expect(r.status).toBe('hold');
    expect(r.invoiceTotal).toBe(43660);
  });
  it('a line discount makes the taxable value the line amount', () => {
    const item = { ...gstItem('1', 'CORRUGATED BOX', 1000, 'NOS', 35, 33250, 5985), TotAmt: 35000, Discount: 1750 };
    const doc = readDocument(gstInvoice([item], { AssVal: 33250, IgstVal: 5985, TotInvVal: 39235 }), 'invoice');
    expect(doc.lines[0].unitPrice).toBeUndefined();
    expect(money(doc.lines[0].amount)).toBe(33250);
  });
});

describe('X12 850 as JSON, the purchase order', () => {
  const po850 = JSON.stringify({ ST: { ST01: '850' }, BEG: { BEG01: '00', BEG02: 'NE', BEG03: 'MWF-77120' }, CUR: { CUR01: 'BY', CUR02: 'USD' },
    N1_loop: [{ N1: { N101: 'SU', N102: 'LAKESIDE FASTENER SUPPLY' } }],
    PO1_loop: [{ PO1: { PO101: '1', PO102: 200, PO103: 'EA', PO104: 0.42, PO106: 'VP', PO107: 'HB-516-2' }, PID: { PID01: 'F', PID05: 'HEX BOLT 5/16 X 2' } }],
    AMT: { AMT01: 'TT', AMT02: 84.0 } });
  const inv810 = (qty: number) => JSON.stringify({ ST: { ST01: '810' }, BIG: { BIG02: 'INV-1', BIG04: 'MWF-77120' }, N1_loop: [{ N1: { N101: 'RE', N102: 'LAKESIDE FASTENER SUPPLY' } }],
    IT1_loop: [{ IT1: { IT101: '1', IT102: qty, IT103: 'EA', IT104: 0.42, IT106: 'VP', IT107: 'HB-516-2' } }], TDS: { TDS01: Math.round(qty * 42) } });
  it('reads BEG03, the supplier, PO1 lines and AMT*TT', () => {
    const doc = readDocument(po850, 'purchaseOrder');
    expect(doc.poNumber).toBe('MWF-77120');
    expect(doc.vendor).toBe('LAKESIDE FASTENER SUPPLY');
    expect(doc.lines.map((l) => [l.sku, money(l.quantity), l.uom, money(l.unitPrice)])).toEqual([['HB-516-2', 200, 'EA', 0.42]]);
    expect(money(doc.total)).toBe(84);
  });
  it('an 810 billing the order passes; one billing more is held', () => {
    expect(run({ purchaseOrder: po850, invoice: inv810(200) }).status).toBe('pass');
    expect(run({ purchaseOrder: po850, invoice: inv810(250) }).status).toBe('hold');
  });
});
