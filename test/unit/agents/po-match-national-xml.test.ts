/**
 * po-match: the XML and JSON forms ERPs and tax authorities define, read as their standards define them — a Spanish
 * Facturae invoice, a Mexican CFDI, a cXML OrderRequest as the purchase order (with a delivery tolerance its comments
 * state) and an OData purchase order (Dynamics 365, SAP S/4HANA) whose lines sit under a navigation property.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine as engine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';
import { readTerms } from '../../../lambdas/agents/engines/po-match/terms.js';

const poMatchEngine = { run: engine.analyse };
const explain = engine.explain;
const money = (v: bigint | undefined) => (v === undefined ? undefined : Number(v) / 1e6);

function facturaeLine(ref: string, desc: string, qty: string, unit: string, price: string, cost: string, gross = cost): string {
  return `<InvoiceLine><ReceiverTransactionReference>${ref}</ReceiverTransactionReference><ItemDescription>${desc}</ItemDescription>` +
    `<Quantity>${qty}</Quantity><UnitOfMeasure>${unit}</UnitOfMeasure><UnitPriceWithoutTax>${price}</UnitPriceWithoutTax>` +
    `<TotalCost>${cost}</TotalCost>${gross !== cost ? `<DiscountsAndRebates><Discount><DiscountReason>Dto. 10%</DiscountReason><DiscountAmount>${(Number(cost) - Number(gross)).toFixed(2)}</DiscountAmount></Discount></DiscountsAndRebates>` : ''}<GrossAmount>${gross}</GrossAmount></InvoiceLine>`;
}
function facturae(lines: string[], base: string, tax: string, total: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<fe:Facturae xmlns:fe="http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_1.xml">
  <FileHeader><SchemaVersion>3.2.1</SchemaVersion><Batch><InvoiceCurrencyCode>EUR</InvoiceCurrencyCode></Batch></FileHeader>
  <Parties><SellerParty><LegalEntity><CorporateName>Papelería Levante, S.L.</CorporateName></LegalEntity></SellerParty></Parties>
  <Invoices><Invoice>
    <InvoiceIssueData><InvoiceCurrencyCode>EUR</InvoiceCurrencyCode></InvoiceIssueData>
    <TaxesOutputs><Tax><TaxTypeCode>01</TaxTypeCode><TaxRate>21.00</TaxRate><TaxableBase><TotalAmount>${base}</TotalAmount></TaxableBase><TaxAmount><TotalAmount>${tax}</TotalAmount></TaxAmount></Tax></TaxesOutputs>
    <InvoiceTotals><TotalGrossAmount>${base}</TotalGrossAmount><InvoiceTotal>${total}</InvoiceTotal></InvoiceTotals>
    <Items>
      ${lines.join('\n      ')}
    </Items>
  </Invoice></Invoices>
</fe:Facturae>`;
}
// 50 reams at 4.00 = 200.00 and 12 boxes of toner at 30.00 less 10 % = 324.00: 524.00, IVA 21 % 110.04.
const spanishPo = (notes = 'Condiciones: pago a 30 días.') => JSON.stringify({
  poNumber: 'PC-2291',
  supplier: 'Papelería Levante S.L.',
  currency: 'EUR',
  notes,
  lines: [
    { sku: 'RES-A4-80', description: 'Papel A4 80 g resma 500 hojas', quantity: 50, uom: 'EA', unitPrice: 4.0, amount: 200.0 },
    { sku: 'TON-HP-59A', description: 'Tóner HP 59A negro, caja', quantity: 12, uom: 'BX', unitPrice: 27.0, amount: 324.0 },
  ],
});

describe('po-match: a Facturae invoice', () => {
  const lines = [
    facturaeLine('PC-2291', 'RES-A4-80 Papel A4 80 g 500 hojas', '50.00', '01', '4.000000', '200.00'),
    facturaeLine('PC-2291', 'TON-HP-59A Tóner HP 59A negro', '12.00', '06', '30.000000', '360.00', '324.00'),
  ];
  it('reads the seller, the order the lines name, Facturae unit codes and a line discount as the net price', () => {
    const doc = readDocument(facturae(lines, '524.00', '110.04', '634.04'), 'invoice');
    expect(doc.vendor).toBe('Papelería Levante, S.L.');
    expect(doc.poNumber).toBe('PC-2291');
    expect(doc.lines.map((l) => [l.altSkus?.[0], l.uom, money(l.quantity), money(l.unitPrice), money(l.amount)])).toEqual([
      ['RES-A4-80', 'EA', 50, 4, 200],
      ['TON-HP-59A', 'BX', 12, undefined, 324],
    ]);
    const r = poMatchEngine.run({ purchaseOrder: spanishPo(), invoice: facturae(lines, '524.00', '110.04', '634.04') });
    expect(r.discrepancies).toEqual([]);
    expect(r.invoiceTotal).toBe(634.04);
  });

  it('holds a shipping line on an order whose freight is paid by the vendor, quoting the order', () => {
    const withFreight = [...lines, facturaeLine('PC-2291', 'Gastos de envío MRW', '1.00', '05', '12.000000', '12.00')];
    const inv = facturae(withFreight, '536.00', '112.56', '648.56');
    const po = spanishPo('Entrega en nuestro almacén, portes pagados por el proveedor.');
    const r = poMatchEngine.run({ purchaseOrder: po, invoice: inv });
    expect(r.status).toBe('hold');
    expect(r.discrepancies).toHaveLength(1);
    expect(r.discrepancies[0]).toMatch(/^freight: Gastos de envío MRW .*12\.00 billed but the PO says .*portes pagados/);
    expect(explain({ purchaseOrder: po, invoice: inv }).evidence[0].sources.length).toBeGreaterThan(1);
  });

  it('leaves the order unstated when the lines name different orders', () => {
    const mixed = [lines[0], facturaeLine('PC-2300', 'TON-HP-59A Tóner HP 59A negro', '12.00', '06', '30.000000', '360.00', '324.00')];
    expect(readDocument(facturae(mixed, '524.00', '110.04', '634.04'), 'invoice').poNumber).toBeUndefined();
  });
});

function cfdi(boots: string, addenda: string, kind = 'I'): string {
  const amount = (Number(boots) * 410).toFixed(2);
  const sub = (Number(amount) + 1200).toFixed(2);
  const iva = (Number(sub) * 0.16).toFixed(2);
  return `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0" Serie="F" Folio="881" SubTotal="${sub}" Moneda="MXN" Total="${(Number(sub) + Number(iva)).toFixed(2)}" TipoDeComprobante="${kind}">
  <cfdi:Emisor Rfc="HNO010101AB1" Nombre="HERRAMIENTAS DEL NOROESTE" RegimenFiscal="601"/>
  <cfdi:Conceptos>
    <cfdi:Concepto NoIdentificacion="GU-NIT-09" Cantidad="${boots}" ClaveUnidad="PR" Unidad="Par" Descripcion="GUANTE NITRILO T9" ValorUnitario="410.00" Importe="${amount}"/>
    <cfdi:Concepto NoIdentificacion="LEN-UV-01" Cantidad="20" ClaveUnidad="H87" Unidad="Pieza" Descripcion="LENTE UV CLARO" ValorUnitario="60.00" Importe="1200.00"/>
  </cfdi:Conceptos>
  <cfdi:Impuestos TotalImpuestosTrasladados="${iva}"><cfdi:Traslados><cfdi:Traslado Base="${sub}" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="${iva}"/></cfdi:Traslados></cfdi:Impuestos>
  ${addenda}
</cfdi:Comprobante>`;
}
const mexicanPo = [
  'ORDEN DE COMPRA',
  'Orden de compra No.: OC-5512',
  'Proveedor: HERRAMIENTAS DEL NOROESTE, S. de R.L. de C.V.',
  'Moneda: MXN',
  '',
  'GU-NIT-09 Guante de nitrilo talla 9 30 par x 410.00 = 12,300.00',
  'LEN-UV-01 Lente de seguridad UV claro 20 pza x 60.00 = 1,200.00',
].join('\n');

describe('po-match: a CFDI', () => {
  it('reads the order from an element of any addenda and the Emisor as the vendor', () => {
    const inv = cfdi('30', '<cfdi:Addenda><prov:Comercial xmlns:prov="urn:x"><prov:Pedido><prov:NumeroPedido>OC-5512</prov:NumeroPedido></prov:Pedido></prov:Comercial></cfdi:Addenda>');
    const doc = readDocument(inv, 'invoice');
    expect([doc.poNumber, doc.vendor, doc.currency, money(doc.total)]).toEqual(['OC-5512', 'HERRAMIENTAS DEL NOROESTE', 'MXN', 15660]);
    const r = poMatchEngine.run({ purchaseOrder: mexicanPo, invoice: inv });
    expect(r.discrepancies).toEqual([]);
    expect(r.status).toBe('pass');
  });

  it('reads the order every Concepto names when there is no addenda, and holds quantity over the order', () => {
    const inv = cfdi('36', '').replace(/Descripcion="([^"]+)"/g, 'Descripcion="$1 - O.C. OC-5512"');
    const r = poMatchEngine.run({ purchaseOrder: mexicanPo, invoice: inv });
    expect(r.status).toBe('hold');
    expect(r.discrepancies).toContainEqual(expect.stringMatching(/^line GU-NIT-09: invoice quantity 36 exceeds the PO quantity 30.*GUANTE NITRILO T9 - O\.C\. OC-5512/));
  });

  it('refuses a payment CFDI as no invoice', () => {
    expect(() => poMatchEngine.run({ purchaseOrder: mexicanPo, invoice: cfdi('30', '', 'P') })).toThrow(/not an invoice/);
  });
});

function orderRequest(comments: string): string {
  return `<?xml version="1.0"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.050/cXML.dtd">
<cXML payloadID="1" timestamp="2026-01-05T09:00:00Z"><Request><OrderRequest>
  <OrderRequestHeader orderID="4700-118" orderDate="2026-01-05" type="new">
    <Total><Money currency="USD">2625.00</Money></Total>
    <Contact role="supplierCorporate"><Name xml:lang="en">Prairie Aggregates Inc.</Name></Contact>
    <Comments xml:lang="en">${comments}</Comments>
  </OrderRequestHeader>
  <ItemOut quantity="120" lineNumber="1"><ItemID><SupplierPartID>GRV-57</SupplierPartID></ItemID>
    <ItemDetail><UnitPrice><Money currency="USD">21.50</Money></UnitPrice><Description xml:lang="en">Crushed gravel #57</Description><UnitOfMeasure>TON</UnitOfMeasure></ItemDetail></ItemOut>
  <ItemOut quantity="500" lineNumber="2"><ItemID><SupplierPartID>SB-FILL</SupplierPartID></ItemID>
    <ItemDetail><UnitPrice><Money currency="USD">9.00</Money></UnitPrice><PriceBasisQuantity quantity="100" conversionFactor="1"><UnitOfMeasure>EA</UnitOfMeasure></PriceBasisQuantity><Description xml:lang="en">Sandbags, filled</Description><UnitOfMeasure>EA</UnitOfMeasure></ItemDetail></ItemOut>
</OrderRequest></Request></cXML>`;
}
const gravelInvoice = (tons: string) => {
  const gravel = (Number(tons) * 21.5).toFixed(2);
  return ['INVOICE 7731', 'Prairie Aggregates Inc.', 'PO Number: 4700-118', '',
    `GRV-57 Crushed gravel #57 ${tons} TON x 21.50 = ${gravel}`, 'SB-FILL Sandbags filled 500 EA x 0.09 = 45.00', '',
    `Total: ${(Number(gravel) + 45).toFixed(2)}`].join('\n');
};

describe('po-match: a cXML OrderRequest as the purchase order', () => {
  it('reads ItemOut lines, the supplier contact and a price per PriceBasisQuantity', () => {
    const doc = readDocument(orderRequest(''), 'purchaseOrder');
    expect([doc.poNumber, doc.vendor, doc.currency]).toEqual(['4700-118', 'Prairie Aggregates Inc.', 'USD']);
    expect(doc.lines.map((l) => [l.sku, money(l.quantity), money(l.unitPrice), money(l.priceBase)])).toEqual([['GRV-57', 120, 21.5, undefined], ['SB-FILL', 500, 9, 100]]);
  });

  it('accepts a quantity over the order within the delivery tolerance the comments state for that line, and holds one beyond', () => {
    const po = orderRequest('Over/under delivery tolerance of 5% applies to line 1 (weighed loads).');
    const within = poMatchEngine.run({ purchaseOrder: po, invoice: gravelInvoice('125.4') });
    expect(within.discrepancies).toEqual([]);
    expect(within.note).toMatch(/within the PO's delivery tolerance: GRV-57 125\.4 against 120 ordered, 4\.5% over/);
    const beyond = poMatchEngine.run({ purchaseOrder: po, invoice: gravelInvoice('127') });
    expect(beyond.status).toBe('hold');
    expect(beyond.discrepancies[0]).toMatch(/beyond the PO's delivery tolerance \(at most 126/);
  });

  it('gives no line a tolerance the order states for another line, and reads no price tolerance from it', () => {
    const po = orderRequest('An overdelivery tolerance of 10% applies to line 2 only.');
    expect(readTerms(po).tolerance).toBeUndefined();
    const r = poMatchEngine.run({ purchaseOrder: po, invoice: gravelInvoice('125.4') });
    expect(r.status).toBe('hold');
  });
});

describe('po-match: an OData purchase order', () => {
  it('reads SAP S/4HANA items under to_PurchaseOrderItem.results, a price per NetPriceQuantity, and no vendor from a supplier number', () => {
    const po = JSON.stringify({ d: {
      PurchaseOrder: '4500009911', Supplier: '17300002', DocumentCurrency: 'EUR',
      to_PurchaseOrderItem: { results: [
        { PurchaseOrderItem: '10', Material: 'SCR-M4-12', PurchaseOrderItemText: 'Screw M4x12 A2', OrderQuantity: '4000', PurchaseOrderQuantityUnit: 'ST', NetPriceAmount: '3.20', NetPriceQuantity: '100' },
      ] },
    } });
    const doc = readDocument(po, 'purchaseOrder');
    expect([doc.poNumber, doc.vendor]).toEqual(['4500009911', undefined]);
    expect(doc.lines.map((l) => [l.sku, l.uom, money(l.quantity), money(l.unitPrice), money(l.priceBase)])).toEqual([['SCR-M4-12', 'EA', 4000, 3.2, 100]]);
    const inv = ['INVOICE 55', 'Schrauben Nord GmbH', 'PO Number: 4500009911', '', 'SCR-M4-12 Screw M4x12 4000 EA x 0.032 = 128.00', '', 'Total: 128.00'].join('\n');
    expect(poMatchEngine.run({ purchaseOrder: po, invoice: inv }).discrepancies).toEqual([]);
  });

  it('reads a Dynamics line discount as a net amount, its price per unit that amount over the quantity', () => {
    const po = JSON.stringify({ PurchaseOrderNumber: '00005120', PurchaseOrderName: 'Contoso Tools', CurrencyCode: 'USD',
      PurchaseOrderLines: [{ LineNumber: 1, ItemNumber: 'DR-18V', LineDescription: 'Drill 18 V', OrderedPurchaseQuantity: 4, PurchaseUnitSymbol: 'ea', PurchasePrice: 150, PurchasePriceQuantity: 1, LineDiscountAmount: 60, LineAmount: 540 }],
      TotalOrderAmount: 540 });
    const doc = readDocument(po, 'purchaseOrder');
    expect([doc.vendor, money(doc.lines[0].unitPrice), money(doc.lines[0].amount), money(doc.total)]).toEqual(['Contoso Tools', undefined, 540, 540]);
  });
});
