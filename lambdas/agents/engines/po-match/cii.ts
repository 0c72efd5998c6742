/**
 * The EN 16931 invoice in its UN/CEFACT Cross Industry Invoice syntax (rsm:CrossIndustryInvoice, D16B), as
 * XRechnung-CII, ZUGFeRD 2.x and Factur-X send it, read into a Doc beside UBL:
 * ExchangedDocument/TypeCode (381 a credit note: its lines are returns); in ApplicableHeaderTradeAgreement the
 * SellerTradeParty's Name the vendor and BuyerOrderReferencedDocument/IssuerAssignedID the PO (BT-13); each
 * IncludedSupplyChainTradeLineItem (AssociatedDocumentLineDocument/LineID; SpecifiedTradeProduct SellerAssignedID the
 * SKU, BuyerAssignedID and GlobalID further item numbers, Name; SpecifiedLineTradeDelivery/BilledQuantity@unitCode;
 * NetPriceProductTradePrice/ChargeAmount per its BasisQuantity; the line's BuyerOrderReferencedDocument/LineID the PO
 * line; SpecifiedTradeSettlementLineMonetarySummation/LineTotalAmount); in ApplicableHeaderTradeSettlement the
 * InvoiceCurrencyCode, the document-level SpecifiedTradeAllowanceCharge (ChargeIndicator, ActualAmount, Reason) and
 * SpecifiedLogisticsServiceCharge as charges, and the SpecifiedTradeSettlementHeaderMonetarySummation (LineTotalAmount
 * the goods, TaxTotalAmount in the invoice currency the tax — a second one in the tax currency is not counted —,
 * GrandTotalAmount the total).
 */
import { AgentInputError } from '../port.js';
import { chargeKind, completeLine, type Doc, type RawLine } from './document.js';
import { unitCode } from './units.js';
import { child, children, decimalOf, textOf, type XmlNode } from './xml.js';
import { chargeLine } from './xml-lines.js';

/** The CII root of a tree, if it is one. */
export function ciiRoot(tree: XmlNode): XmlNode | undefined {
  return tree.name === 'CrossIndustryInvoice' ? tree : undefined;
}

export function readCii(root: XmlNode, field: string): Doc {
  const tx = child(root, 'SupplyChainTradeTransaction');
  if (!tx) throw new AgentInputError(field, 'a CrossIndustryInvoice without its SupplyChainTradeTransaction');
  const type = textOf(root, 'ExchangedDocument', 'TypeCode');
  const sign = type === '381' ? -1n : 1n;
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  const agreement = child(tx, 'ApplicableHeaderTradeAgreement');
  const settlement = child(tx, 'ApplicableHeaderTradeSettlement');
  doc.vendor = textOf(agreement, 'SellerTradeParty', 'Name');
  doc.poNumber = textOf(agreement, 'BuyerOrderReferencedDocument', 'IssuerAssignedID');
  doc.currency = textOf(settlement, 'InvoiceCurrencyCode');
  const buyer = child(agreement, 'BuyerTradeParty');
  doc.buyerIds = [...children(buyer, 'SpecifiedTaxRegistration'), child(buyer, 'SpecifiedLegalOrganization')]
    .map((n) => child(n, 'ID'))
    .filter((n): n is XmlNode => n !== undefined && n.text.trim() !== '')
    .map((n) => ({ label: 'BuyerTradeParty ID', value: n.text.trim(), cite: n.cite }));
  const sums = child(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const grand = child(sums, 'GrandTotalAmount');
  const total = decimalOf(grand, 'GrandTotalAmount', field);
  if (total !== undefined) {
    doc.total = sign * total;
    doc.totalQuote = `GrandTotalAmount ${grand!.text.trim()}`;
    doc.totalCite = grand!.cite;
  }
  const goods = decimalOf(child(sums, 'LineTotalAmount'), 'LineTotalAmount', field);
  if (goods !== undefined) doc.subtotal = sign * goods;
  // The tax in the invoice's currency; a TaxTotalAmount in another (the tax currency, BT-111) repeats it.
  const taxes = children(sums, 'TaxTotalAmount');
  const tax = taxes.find((t) => t.attrs.currencyID === undefined || t.attrs.currencyID === doc.currency) ?? taxes[0];
  const taxValue = decimalOf(tax, 'TaxTotalAmount', field);
  if (taxValue !== undefined && taxValue !== 0n) doc.charges.push({ label: `TaxTotalAmount ${tax!.text.trim()}`, amount: sign * taxValue, kind: 'tax', cite: tax!.cite });
  for (const ac of children(settlement, 'SpecifiedTradeAllowanceCharge')) {
    const charge = textOf(ac, 'ChargeIndicator', 'Indicator') === 'true';
    const amount = child(ac, 'ActualAmount');
    const value = decimalOf(amount, 'ActualAmount', field);
    const reason = textOf(ac, 'Reason') ?? (charge ? 'charge' : 'allowance');
    if (value !== undefined && value !== 0n) doc.charges.push({ label: reason, amount: sign * (charge ? value : -value), kind: charge ? chargeKind(reason) : 'other', cite: amount?.cite ?? ac.cite });
  }
  for (const lc of children(settlement, 'SpecifiedLogisticsServiceCharge')) {
    const amount = child(lc, 'AppliedAmount');
    const value = decimalOf(amount, 'AppliedAmount', field);
    if (value !== undefined && value !== 0n) doc.charges.push({ label: textOf(lc, 'Description') ?? 'freight', amount: sign * value, kind: 'freight', cite: amount?.cite ?? lc.cite });
  }
  for (const item of children(tx, 'IncludedSupplyChainTradeLineItem')) {
    const product = child(item, 'SpecifiedTradeProduct');
    const lineAgreement = child(item, 'SpecifiedLineTradeAgreement');
    const q = child(item, 'SpecifiedLineTradeDelivery', 'BilledQuantity');
    const net = child(lineAgreement, 'NetPriceProductTradePrice');
    const price = child(net, 'ChargeAmount');
    const basis = child(net, 'BasisQuantity');
    const total = child(item, 'SpecifiedLineTradeSettlement', 'SpecifiedTradeSettlementLineMonetarySummation', 'LineTotalAmount');
    const lineId = textOf(item, 'AssociatedDocumentLineDocument', 'LineID');
    const quantity = decimalOf(q, 'BilledQuantity', field);
    const amount = decimalOf(total, 'LineTotalAmount', field);
    const raw: RawLine = {
      quantity: quantity === undefined ? undefined : sign * quantity,
      unitPrice: decimalOf(price, 'ChargeAmount', field),
      amount: amount === undefined ? undefined : sign * amount,
      uom: q?.attrs.unitCode === undefined ? undefined : unitCode(q.attrs.unitCode) ?? q.attrs.unitCode,
      sku: textOf(product, 'SellerAssignedID'),
      altSkus: [textOf(product, 'BuyerAssignedID'), textOf(product, 'GlobalID')].filter((s): s is string => s !== undefined),
      description: textOf(product, 'Name'),
      orderLineRef: textOf(lineAgreement, 'BuyerOrderReferencedDocument', 'LineID'),
      quote: `IncludedSupplyChainTradeLineItem ${lineId ?? doc.lines.length + 1}: ${q?.text.trim() ?? '?'} ${q?.attrs.unitCode ?? ''} × ${price?.text.trim() ?? '?'} = ${total?.text.trim() ?? '?'} ${textOf(product, 'Name') ?? ''}`.replace(/\s+/g, ' ').trim(),
    };
    // A line that bills freight by name ("Fracht", "Frais de port") is that charge, never an item.
    const asCharge = (raw.quantity ?? 1_000_000n) <= 1_000_000n ? chargeLine(raw.description, raw.sku) : undefined;
    if (asCharge) {
      if (raw.amount !== undefined && raw.amount !== 0n) doc.charges.push({ label: raw.description ?? 'charge', amount: raw.amount, kind: asCharge, cite: total?.cite ?? item.cite, inLines: true });
      continue;
    }
    const b = decimalOf(basis, 'BasisQuantity', field);
    if (b !== undefined && b > 0n && b !== 1_000_000n) raw.priceBase = b;
    if (raw.altSkus?.length === 0) delete raw.altSkus;
    raw.cites = [q, price, total].map((n) => n?.cite).filter((c): c is NonNullable<typeof c> => c !== undefined)
      .filter((c, j, all) => all.findIndex((d) => d.line === c.line) === j);
    doc.lines.push(completeLine(raw, doc.lines.length + 1, field));
  }
  return doc;
}
