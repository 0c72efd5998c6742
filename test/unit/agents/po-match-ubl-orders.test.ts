/**
 * po-match: UBL 2.1 orders and order responses as the purchase order (XML and the OASIS JSON representation), read
 * the way an invoice is: the order's own number, the seller's name, each cac:OrderLine/cac:LineItem, the anticipated
 * total; an order response answers the buyer's order it references.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine as engine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';

const run = (purchaseOrder: string, invoice: string) => engine.analyse({ purchaseOrder, invoice });
const money = (v: bigint | undefined) => (v === undefined ? undefined : Number(v) / 1e6);
const NS = 'xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';

interface L { id: string; sku: string; name: string; qty: string; unit: string; price: string; amount: string; base?: string }
// A Rotterdam office-furniture order: 6 chairs at 189.00 and 40 m of cable duct priced per 10 m at 27.50.
const LINES: L[] = [
  { id: '1', sku: 'ERG-220', name: 'Bureaustoel Ergo 220', qty: '6', unit: 'C62', price: '189.00', amount: '1134.00' },
  { id: '2', sku: 'KG-60', name: 'Kabelgoot 60 mm', qty: '40', unit: 'MTR', price: '27.50', amount: '110.00', base: '10' },
];
const price = (l: L) => `<cac:Price><cbc:PriceAmount currencyID="EUR">${l.price}</cbc:PriceAmount>${l.base ? `<cbc:BaseQuantity unitCode="${l.unit}">${l.base}</cbc:BaseQuantity>` : ''}</cac:Price>`;
const item = (l: L) => `<cac:Item><cbc:Name>${l.name}</cbc:Name><cac:SellersItemIdentification><cbc:ID>${l.sku}</cbc:ID></cac:SellersItemIdentification></cac:Item>`;

function order(root: 'Order' | 'OrderResponse', lines = LINES, extra = ''): string {
  const head = root === 'Order'
    ? '<cbc:ID>PO-RTM-5521</cbc:ID>'
    : '<cbc:ID>OR-77031</cbc:ID><cbc:SalesOrderID>SO-77031</cbc:SalesOrderID><cac:OrderReference><cbc:ID>PO-RTM-5521</cbc:ID></cac:OrderReference>';
  const total = root === 'Order' ? 'AnticipatedMonetaryTotal' : 'LegalMonetaryTotal';
  return `<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" ${NS}>
  <cbc:CustomizationID>urn:fdc:peppol.eu:poacc:trns:order:3</cbc:CustomizationID>
  ${head}
  <cbc:IssueDate>2026-10-02</cbc:IssueDate>
  <cbc:Note>Levering franco; deelleveringen toegestaan.</cbc:Note>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>${extra}
  <cac:BuyerCustomerParty><cac:Party><cac:PartyName><cbc:Name>Havenkantoor Rotterdam B.V.</cbc:Name></cac:PartyName></cac:Party></cac:BuyerCustomerParty>
  <cac:SellerSupplierParty><cac:Party><cac:PartyName><cbc:Name>Kantoorinrichting Maas</cbc:Name></cac:PartyName>
    <cac:PartyLegalEntity><cbc:RegistrationName>Kantoorinrichting Maas B.V.</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:SellerSupplierParty>
  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">261.24</cbc:TaxAmount></cac:TaxTotal>
  <cac:${total}><cbc:LineExtensionAmount currencyID="EUR">1244.00</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="EUR">1244.00</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="EUR">1505.24</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">1505.24</cbc:PayableAmount></cac:${total}>
${lines.map((l) => `  <cac:OrderLine><cac:LineItem><cbc:ID>${l.id}</cbc:ID><cbc:Quantity unitCode="${l.unit}">${l.qty}</cbc:Quantity><cbc:LineExtensionAmount currencyID="EUR">${l.amount}</cbc:LineExtensionAmount>${price(l)}${item(l)}</cac:LineItem></cac:OrderLine>`).join('\n')}
</${root}>`;
}

function invoice(lines = LINES, total = '1505.24', tax = '261.24', net = '1244.00'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" ${NS}>
  <cbc:ID>KM-2026-3310</cbc:ID>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:OrderReference><cbc:ID>PO-RTM-5521</cbc:ID></cac:OrderReference>
  <cac:AccountingSupplierParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Kantoorinrichting Maas B.V.</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">${tax}</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">${net}</cbc:LineExtensionAmount><cbc:TaxInclusiveAmount currencyID="EUR">${total}</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">${total}</cbc:PayableAmount></cac:LegalMonetaryTotal>
${lines.map((l) => `  <cac:InvoiceLine><cbc:ID>${l.id}</cbc:ID><cbc:InvoicedQuantity unitCode="${l.unit}">${l.qty}</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">${l.amount}</cbc:LineExtensionAmount><cac:OrderLineReference><cbc:LineID>${l.id}</cbc:LineID></cac:OrderLineReference>${item(l)}${price(l)}</cac:InvoiceLine>`).join('\n')}
</Invoice>`;
}

describe('po-match: UBL orders as the purchase order', () => {
  it('reads an Order: its own number, the seller, each OrderLine/LineItem with its price basis, the anticipated total', () => {
    const doc = readDocument(order('Order'), 'purchaseOrder');
    expect(doc).toMatchObject({ poNumber: 'PO-RTM-5521', vendor: 'Kantoorinrichting Maas B.V.', currency: 'EUR' });
    expect(money(doc.total)).toBe(1505.24);
    expect(money(doc.subtotal)).toBe(1244);
    expect(doc.lines.map((l) => [l.sku, money(l.quantity), l.uom, money(l.unitPrice), money(l.priceBase), money(l.amount), l.orderLineRef])).toEqual([
      ['ERG-220', 6, 'EA', 189, undefined, 1134, '1'],
      ['KG-60', 40, 'MTR', 27.5, 10, 110, '2'],
    ]);
    expect(doc.charges).toMatchObject([{ kind: 'tax', amount: 261_240_000n }]);
  });

  it('matches a UBL invoice against a UBL Order: the same lines pass, a raised price is held', () => {
    expect(run(order('Order'), invoice())).toMatchObject({ status: 'pass', invoiceTotal: 1505.24, poTotal: 1505.24, linesCompared: 2 });
    const dearer = LINES.map((l) => (l.id === '1' ? { ...l, price: '199.00', amount: '1194.00' } : l));
    const r = run(order('Order'), invoice(dearer, '1577.84', '273.84', '1304.00'));
    expect(r.status).toBe('hold');
    expect(r.discrepancies.join(' ')).toMatch(/ERG-220.*unit price 199\.00 differs from the PO unit price 189\.00/);
  });

  it('a PayableAmount above the tax-inclusive amount by more than rounding is the total asked, and held', () => {
    const inv = invoice().replace(/<cbc:PayableAmount currencyID="EUR">1505.24</, '<cbc:PayableAmount currencyID="EUR">1605.24<');
    const r = run(order('Order'), inv);
    expect(r).toMatchObject({ status: 'hold', invoiceTotal: 1605.24 });
    // Less by a prepaid amount is the usual case: the tax-inclusive amount stays the total.
    const prepaid = invoice().replace(/<cbc:PayableAmount currencyID="EUR">1505.24</, '<cbc:PayableAmount currencyID="EUR">1005.24<');
    expect(run(order('Order'), prepaid)).toMatchObject({ status: 'pass', invoiceTotal: 1505.24 });
  });

  it('reads an OrderResponse: the buyer order it answers is the PO number, not the response or sales order id', () => {
    const doc = readDocument(order('OrderResponse'), 'purchaseOrder');
    expect(doc.poNumber).toBe('PO-RTM-5521');
    expect(run(order('OrderResponse'), invoice())).toMatchObject({ status: 'pass', linesCompared: 2 });
  });

  it('reads the OASIS JSON representation of an Order', () => {
    const v = (x: string, attrs: Record<string, string> = {}) => [{ _: x, ...attrs }];
    const json = {
      Order: [{
        ID: v('PO-RTM-5521'),
        DocumentCurrencyCode: v('EUR'),
        SellerSupplierParty: [{ Party: [{ PartyName: [{ Name: v('Kantoorinrichting Maas') }] }] }],
        AnticipatedMonetaryTotal: [{ LineExtensionAmount: v('1244.00', { currencyID: 'EUR' }), PayableAmount: v('1244.00', { currencyID: 'EUR' }) }],
        OrderLine: LINES.map((l) => ({
          LineItem: [{
            ID: v(l.id),
            Quantity: v(l.qty, { unitCode: l.unit }),
            LineExtensionAmount: v(l.amount, { currencyID: 'EUR' }),
            Price: [{ PriceAmount: v(l.price, { currencyID: 'EUR' }), ...(l.base ? { BaseQuantity: v(l.base, { unitCode: l.unit }) } : {}) }],
            Item: [{ Name: v(l.name), SellersItemIdentification: [{ ID: v(l.sku) }] }],
          }],
        })),
      }],
    };
    const doc = readDocument(JSON.stringify(json, null, 2), 'purchaseOrder');
    expect(doc).toMatchObject({ poNumber: 'PO-RTM-5521', vendor: 'Kantoorinrichting Maas', currency: 'EUR' });
    expect(doc.lines.map((l) => [l.sku, money(l.amount)])).toEqual([['ERG-220', 1134], ['KG-60', 110]]);
    // Its payable amount is the net: a PO total that is the goods, the invoice's gross compared goods to goods.
    expect(run(JSON.stringify(json), invoice())).toMatchObject({ status: 'pass', poTotal: 1244, invoiceTotal: 1505.24 });
  });

  it('an order line without its LineItem, or an order without lines, is no order read', () => {
    const bare = order('Order').replace(/<cac:OrderLine><cac:LineItem>[^]*?<\/cac:LineItem><\/cac:OrderLine>/g, '');
    expect(() => readDocument(bare, 'purchaseOrder')).toThrow(/none of the forms read/);
  });
});
