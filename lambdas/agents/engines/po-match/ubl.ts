/**
 * A UBL 2.1 invoice (XML, the OASIS JSON representation, or XML converted to JSON) read into a Doc: the order it
 * bills (cac:OrderReference), the supplier's registered name, cbc:DocumentCurrencyCode, each cac:InvoiceLine
 * (cbc:InvoicedQuantity@unitCode, cac:Price/cbc:PriceAmount per cbc:BaseQuantity, cbc:LineExtensionAmount, item
 * identifiers, cac:OrderLineReference), tax and charges, and cac:LegalMonetaryTotal.
 */
import { completeLine, chargeKind, type Doc, type RawLine } from './document.js';
import { unitCode } from './units.js';
import { child, children, decimalOf, find, textOf, type XmlNode } from './xml.js';

const LINE_NAMES = ['InvoiceLine', 'CreditNoteLine'];

/** The Invoice element of a tree, if the tree is a UBL invoice. */
export function ublRoot(tree: XmlNode): XmlNode | undefined {
  const inv = find(tree, 'Invoice') ?? find(tree, 'CreditNote');
  return inv && inv.children.some((c) => LINE_NAMES.includes(c.name)) ? inv : undefined;
}

const amount = decimalOf;

export function readUbl(inv: XmlNode, field: string): Doc {
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  doc.poNumber = textOf(inv, 'OrderReference', 'ID');
  doc.currency = textOf(inv, 'DocumentCurrencyCode');
  const party = child(inv, 'AccountingSupplierParty', 'Party');
  doc.vendor = textOf(party, 'PartyLegalEntity', 'RegistrationName') ?? textOf(party, 'PartyName', 'Name');
  const totals = child(inv, 'LegalMonetaryTotal');
  // The invoice's total is TaxInclusiveAmount; PayableAmount can be less by a prepaid amount or rounding.
  const totalNode = child(totals, 'TaxInclusiveAmount') ?? child(totals, 'PayableAmount');
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
    .forEach((l, k) => {
      const q = child(l, 'InvoicedQuantity') ?? child(l, 'CreditedQuantity');
      const item = child(l, 'Item');
      const base = child(l, 'Price', 'BaseQuantity');
      const raw: RawLine = {
        quantity: amount(q, 'InvoicedQuantity', field),
        unitPrice: amount(child(l, 'Price', 'PriceAmount'), 'PriceAmount', field),
        amount: amount(child(l, 'LineExtensionAmount'), 'LineExtensionAmount', field),
        uom: unitCode(q?.attrs.unitCode),
        sku: textOf(item, 'SellersItemIdentification', 'ID') ?? textOf(item, 'StandardItemIdentification', 'ID'),
        description: textOf(item, 'Name') ?? textOf(item, 'Description'),
        orderLineRef: textOf(l, 'OrderLineReference', 'LineID'),
      };
      const cites = [q, child(l, 'Price', 'PriceAmount'), child(l, 'LineExtensionAmount')]
        .map((n) => n?.cite).filter((c): c is NonNullable<typeof c> => c !== undefined);
      raw.cites = cites.filter((c, j) => cites.findIndex((d) => d.line === c.line) === j);
      const buyers = textOf(item, 'BuyersItemIdentification', 'ID');
      if (buyers) raw.altSkus = [buyers];
      const b = amount(base, 'BaseQuantity', field);
      if (b !== undefined && b > 0n && b !== 1_000_000n) raw.priceBase = b;
      raw.quote = `cac:InvoiceLine ${textOf(l, 'ID') ?? k + 1}: ${q?.text.trim() ?? '?'} ${q?.attrs.unitCode ?? ''} × ${child(l, 'Price', 'PriceAmount')?.text.trim() ?? '?'}${b ? ` per ${base!.text.trim()}` : ''} = ${child(l, 'LineExtensionAmount')?.text.trim() ?? '?'} ${raw.description ?? ''}`.replace(/\s+/g, ' ');
      doc.lines.push(completeLine(raw, k + 1, field));
    });
  return doc;
}
