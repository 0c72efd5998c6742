/**
 * A UBL 2.1 invoice, credit note, order or order response (XML, the OASIS JSON representation, or XML converted to
 * JSON) read into a Doc: the order (an invoice's and a response's cac:OrderReference, an order's own cbc:ID), the
 * supplier's registered name, cbc:DocumentCurrencyCode, each line (cac:InvoiceLine, cac:CreditNoteLine, an order's
 * cac:OrderLine/cac:LineItem: its quantity@unitCode, cac:Price/cbc:PriceAmount per cbc:BaseQuantity,
 * cbc:LineExtensionAmount, item identifiers, the order line it bills), tax and charges, and the monetary total
 * (cac:LegalMonetaryTotal; an order's cac:AnticipatedMonetaryTotal).
 */
import { AgentInputError } from '../port.js';
import { completeLine, chargeKind, type Doc, type RawLine } from './document.js';
import { unitCode } from './units.js';
import { child, children, decimalOf, find, textOf, type XmlNode } from './xml.js';

const LINE_NAMES = ['InvoiceLine', 'CreditNoteLine', 'OrderLine'];
const ROOTS = ['Invoice', 'CreditNote', 'Order', 'OrderResponse'];
const isOrder = (root: XmlNode) => root.name === 'Order' || root.name === 'OrderResponse';

/** The document element of a tree (in an envelope or not), if the tree is one of the UBL documents read. */
export function ublRoot(tree: XmlNode): XmlNode | undefined {
  for (const name of ROOTS) {
    const root = find(tree, name);
    if (root && root.children.some((c) => LINE_NAMES.includes(c.name))) return root;
  }
  return undefined;
}

/** An order's line is its cac:LineItem; an invoice's or credit note's line is the element itself. */
const lineBody = (l: XmlNode) => (l.name === 'OrderLine' ? child(l, 'LineItem') : l);

const amount = decimalOf;

export function readUbl(inv: XmlNode, field: string): Doc {
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  // An order is the PO itself: its own number; an order response answers the buyer's order it references.
  doc.poNumber = inv.name === 'Order' ? textOf(inv, 'ID') : textOf(inv, 'OrderReference', 'ID');
  doc.currency = textOf(inv, 'DocumentCurrencyCode') ?? textOf(inv, 'PricingCurrencyCode');
  const party = child(inv, isOrder(inv) ? 'SellerSupplierParty' : 'AccountingSupplierParty', 'Party') ?? child(inv, 'SellerSupplierParty', 'Party');
  doc.vendor = textOf(party, 'PartyLegalEntity', 'RegistrationName') ?? textOf(party, 'PartyName', 'Name');
  const customer = child(inv, 'AccountingCustomerParty', 'Party');
  doc.buyerIds = [child(customer, 'PartyTaxScheme', 'CompanyID'), child(customer, 'PartyLegalEntity', 'CompanyID')]
    .filter((n): n is XmlNode => n !== undefined && n.text.trim() !== '')
    .map((n) => ({ label: `AccountingCustomerParty ${n.name}`, value: n.text.trim(), cite: n.cite }));
  const totals = child(inv, 'LegalMonetaryTotal') ?? child(inv, 'AnticipatedMonetaryTotal');
  // The invoice's total is TaxInclusiveAmount; PayableAmount can be less by a prepaid amount or rounding. A payable
  // amount above it by more than rounding is what the document asks: it stands, and the arithmetic check holds it.
  const inclusive = child(totals, 'TaxInclusiveAmount');
  const payable = child(totals, 'PayableAmount');
  const [incl, pay] = [amount(inclusive, 'TaxInclusiveAmount', field), amount(payable, 'PayableAmount', field)];
  const totalNode = incl !== undefined && pay !== undefined && pay - incl > 1_000_000n ? payable : (inclusive ?? payable);
  doc.total = amount(totalNode, totalNode?.name ?? 'PayableAmount', field);
  doc.subtotal = amount(child(totals, 'LineExtensionAmount'), 'LineExtensionAmount', field);
  if (doc.total !== undefined) {
    doc.totalQuote = `cbc:${totalNode!.name} ${totalNode!.text.trim()}`;
    doc.totalCite = totalNode!.cite;
  }
  for (const ac of children(inv, 'AllowanceCharge')) {
    const value = amount(child(ac, 'Amount'), 'AllowanceCharge Amount', field);
    if (value === undefined || value === 0n) continue;
    const charge = textOf(ac, 'ChargeIndicator') !== 'false';
    const reason = textOf(ac, 'AllowanceChargeReason') ?? textOf(ac, 'AllowanceChargeReasonCode') ?? (charge ? 'charge' : 'allowance');
    doc.charges.push({ label: reason, amount: charge ? value : -value, kind: charge ? chargeKind(reason) : 'other', cite: child(ac, 'Amount')?.cite ?? ac.cite });
  }
  for (const tt of children(inv, 'TaxTotal')) {
    // A second TaxTotal in the tax currency (cbc:TaxCurrencyCode) repeats the tax; only the document currency's counts.
    const cur = child(tt, 'TaxAmount')?.attrs.currencyID;
    if (cur && doc.currency && cur !== doc.currency) continue;
    const tax = amount(child(tt, 'TaxAmount'), 'TaxAmount', field);
    const pct = textOf(tt, 'TaxSubtotal', 'TaxCategory', 'Percent');
    if (tax !== undefined && tax !== 0n) doc.charges.push({ label: `cac:TaxTotal ${pct ? `${pct} % ` : ''}tax`, amount: tax, kind: 'tax', cite: child(tt, 'TaxAmount')?.cite ?? tt.cite });
  }
  inv.children
    .filter((c) => LINE_NAMES.includes(c.name))
    .forEach((outer, k) => {
      const l = lineBody(outer);
      if (!l) throw new AgentInputError(field, `cac:OrderLine ${k + 1} has no cac:LineItem`);
      const q = child(l, 'InvoicedQuantity') ?? child(l, 'CreditedQuantity') ?? child(l, 'Quantity');
      const item = child(l, 'Item');
      const base = child(l, 'Price', 'BaseQuantity');
      const raw: RawLine = {
        quantity: amount(q, 'InvoicedQuantity', field),
        unitPrice: amount(child(l, 'Price', 'PriceAmount'), 'PriceAmount', field),
        amount: amount(child(l, 'LineExtensionAmount'), 'LineExtensionAmount', field),
        uom: unitCode(q?.attrs.unitCode),
        sku: textOf(item, 'SellersItemIdentification', 'ID') ?? textOf(item, 'StandardItemIdentification', 'ID'),
        description: textOf(item, 'Name') ?? textOf(item, 'Description'),
        // An invoice line names the order line it bills; an order line is that line (an order response's line
        // names the buyer's line it answers).
        orderLineRef: textOf(l, 'OrderLineReference', 'LineID') ?? textOf(outer, 'OrderLineReference', 'LineID') ?? (isOrder(inv) ? textOf(l, 'ID') : undefined),
      };
      const cites = [q, child(l, 'Price', 'PriceAmount'), child(l, 'LineExtensionAmount')]
        .map((n) => n?.cite).filter((c): c is NonNullable<typeof c> => c !== undefined);
      raw.cites = cites.filter((c, j) => cites.findIndex((d) => d.line === c.line) === j);
      const buyers = textOf(item, 'BuyersItemIdentification', 'ID');
      if (buyers) raw.altSkus = [buyers];
      const b = amount(base, 'BaseQuantity', field);
      if (b !== undefined && b > 0n && b !== 1_000_000n) raw.priceBase = b;
      raw.quote = `cac:${outer.name} ${textOf(l, 'ID') ?? k + 1}: ${q?.text.trim() ?? '?'} ${q?.attrs.unitCode ?? ''} × ${child(l, 'Price', 'PriceAmount')?.text.trim() ?? '?'}${b ? ` per ${base!.text.trim()}` : ''} = ${child(l, 'LineExtensionAmount')?.text.trim() ?? '?'} ${raw.description ?? ''}`.replace(/\s+/g, ' ');
      doc.lines.push(completeLine(raw, k + 1, field));
    });
  return doc;
}
