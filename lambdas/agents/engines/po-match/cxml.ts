/**
 * A cXML InvoiceDetailRequest (Ariba, Coupa and other networks' supplier invoices) read into a Doc: the order it
 * bills (OrderReference@orderID or OrderIDInfo@orderID), the supplier (the remit-to / from partner's name), each
 * InvoiceDetailItem or InvoiceDetailServiceItem (@quantity, UnitOfMeasure, UnitPrice/Money, SubtotalAmount/Money,
 * SupplierPartID as the SKU and BuyerPartID as a second item number, the order line it cites) and the summary
 * (SubtotalAmount, Tax, ShippingAmount, SpecialHandlingAmount, InvoiceDetailDiscount, NetAmount / GrossAmount).
 */
import { AgentInputError } from '../port.js';
import { completeLine, type Doc, type RawLine } from './document.js';
import { parseDecimal } from './decimal.js';
import { unitCode } from './units.js';
import { child, decimalOf, find, textOf, type XmlNode } from './xml.js';

/** The OrderRequest of a cXML tree (a buyer's purchase order sent over the network), if it is one. */
export function cxmlOrder(tree: XmlNode): XmlNode | undefined {
  return find(tree, 'OrderRequest');
}

/** cXML's PriceBasisQuantity: the quantity the unit price is for (a price per 100); undefined for one unit. */
function priceBasisOf(n: XmlNode | undefined): bigint | undefined {
  const q = child(n, 'PriceBasisQuantity')?.attrs.quantity;
  const v = q === undefined ? undefined : parseDecimal(q);
  return v !== undefined && v > 0n && v !== 1_000_000n ? v : undefined;
}

/**
 * A cXML OrderRequest read as the purchase order: OrderRequestHeader@orderID, its Total, Shipping and Tax (charges;
 * a Tax described as exempt is a tax exemption, quoted), the supplier Contact's Name where the order carries one,
 * and each ItemOut (@quantity, @lineNumber, SupplierPartID the SKU, BuyerPartID a second item number, ItemDetail's
 * UnitPrice, PriceBasisQuantity, Description and UnitOfMeasure). Its Comments are read as the PO's terms.
 */
export function readCxmlOrder(req: XmlNode, field: string): Doc {
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  const header = child(req, 'OrderRequestHeader');
  doc.poNumber = header?.attrs.orderID?.trim() || undefined;
  const supplier = all(header ?? req, 'Contact').find((c) => /^supplier/i.test(c.attrs.role ?? ''));
  doc.vendor = textOf(supplier, 'Name');
  const totalMoney = child(child(header, 'Total'), 'Money');
  doc.currency = totalMoney?.attrs.currency ?? all(req, 'Money')[0]?.attrs.currency;
  doc.total = money(totalMoney, 'Total', field);
  if (doc.total !== undefined) {
    doc.totalQuote = `Total ${totalMoney!.text.trim()}`;
    doc.totalCite = totalMoney!.cite;
  }
  for (const [name, kind] of [['Shipping', 'freight'], ['Tax', 'tax']] as const) {
    const n = child(header, name);
    const v = money(n, name, field);
    if (v !== undefined && v !== 0n) doc.charges.push({ label: name, amount: v, kind, cite: child(n, 'Money')?.cite });
    const said = textOf(n, 'Description');
    if (name === 'Tax' && said && /\bexempt|\bexento|\bexon/i.test(said)) doc.terms = { ...doc.terms, taxExempt: { quote: said } };
  }
  all(req, 'ItemOut').forEach((item, k) => {
    const detail = child(item, 'ItemDetail');
    const ids = child(item, 'ItemID');
    const q = item.attrs.quantity;
    const raw: RawLine = {
      quantity: q === undefined ? undefined : parseDecimal(q),
      unitPrice: money(child(detail, 'UnitPrice'), 'UnitPrice', field),
      priceBase: priceBasisOf(detail),
      uom: unitCode(textOf(detail, 'UnitOfMeasure')),
      sku: textOf(ids, 'SupplierPartID'),
      description: textOf(detail, 'Description'),
      orderLineRef: item.attrs.lineNumber,
    };
    if (q !== undefined && raw.quantity === undefined) throw new AgentInputError(field, `ItemOut quantity "${q.slice(0, 40)}" is not a number`);
    const buyer = textOf(ids, 'BuyerPartID');
    if (buyer) raw.altSkus = [buyer];
    raw.quote = `ItemOut ${item.attrs.lineNumber ?? k + 1}: ${q ?? '?'} ${textOf(detail, 'UnitOfMeasure') ?? ''} × ${child(child(detail, 'UnitPrice'), 'Money')?.text.trim() ?? '?'} ${raw.sku ?? ''} ${raw.description ?? ''}`.replace(/\s+/g, ' ').trim();
    raw.cites = [item, child(child(detail, 'UnitPrice'), 'Money')].map((n) => n?.cite).filter((c): c is NonNullable<typeof c> => c !== undefined);
    doc.lines.push(completeLine(raw, k + 1, field));
  });
  return doc;
}

/** The InvoiceDetailRequest of a cXML tree, if it is one. */
export function cxmlInvoice(tree: XmlNode): XmlNode | undefined {
  return find(tree, 'InvoiceDetailRequest');
}

function all(n: XmlNode, name: string, out: XmlNode[] = [], depth = 0): XmlNode[] {
  if (depth > 40) return out;
  for (const c of n.children) {
    if (c.name === name) out.push(c);
    else all(c, name, out, depth + 1);
  }
  return out;
}

function money(n: XmlNode | undefined, what: string, field: string): bigint | undefined {
  return decimalOf(n?.name === 'Money' ? n : child(n, 'Money'), what, field);
}

export function readCxml(req: XmlNode, field: string): Doc {
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  const order = all(req, 'OrderReference')[0] ?? all(req, 'OrderIDInfo')[0];
  doc.poNumber = order?.attrs.orderID?.trim() || undefined;
  const header = child(req, 'InvoiceDetailRequestHeader');
  const partners = all(header ?? req, 'Contact');
  const supplier = ['from', 'remitTo', 'soldFrom', 'shipFrom'].map((r) => partners.find((c) => c.attrs.role === r)).find(Boolean);
  doc.vendor = textOf(supplier, 'Name');
  doc.currency = all(req, 'Money')[0]?.attrs.currency;
  const items = [...all(req, 'InvoiceDetailItem'), ...all(req, 'InvoiceDetailServiceItem')];
  items.forEach((item, k) => {
    const ref = child(item, 'InvoiceDetailItemReference') ?? child(item, 'InvoiceDetailServiceItemReference');
    const ids = child(ref, 'ItemID');
    const q = item.attrs.quantity;
    const raw: RawLine = {
      quantity: q === undefined ? undefined : parseDecimal(q),
      unitPrice: money(child(item, 'UnitPrice'), 'UnitPrice', field),
      priceBase: priceBasisOf(item),
      amount: money(child(item, 'SubtotalAmount'), 'SubtotalAmount', field),
      uom: unitCode(textOf(item, 'UnitOfMeasure')),
      sku: textOf(ids, 'SupplierPartID'),
      description: textOf(ref, 'Description'),
      orderLineRef: ref?.attrs.lineNumber ?? item.attrs.invoiceLineNumber,
    };
    if (q !== undefined && raw.quantity === undefined) throw new AgentInputError(field, `InvoiceDetailItem quantity "${q.slice(0, 40)}" is not a number`);
    const buyer = textOf(ids, 'BuyerPartID');
    if (buyer) raw.altSkus = [buyer];
    raw.quote = `InvoiceDetailItem ${item.attrs.invoiceLineNumber ?? k + 1}: ${q ?? '?'} ${textOf(item, 'UnitOfMeasure') ?? ''} × ${child(child(item, 'UnitPrice'), 'Money')?.text.trim() ?? '?'} = ${child(child(item, 'SubtotalAmount'), 'Money')?.text.trim() ?? '?'} ${buyer ?? raw.sku ?? ''}`.replace(/\s+/g, ' ');
    const cites = [item, child(child(item, 'UnitPrice'), 'Money'), child(child(item, 'SubtotalAmount'), 'Money')].map((n) => n?.cite).filter((c): c is NonNullable<typeof c> => c !== undefined);
    raw.cites = cites;
    doc.lines.push(completeLine(raw, k + 1, field));
  });
  const summary = child(req, 'InvoiceDetailSummary');
  doc.subtotal = money(child(summary, 'SubtotalAmount'), 'SubtotalAmount', field);
  const charge = (name: string, label: string, kind: 'tax' | 'freight' | 'other', sign = 1n) => {
    const n = child(summary, name);
    const v = money(n, name, field);
    if (v !== undefined && v !== 0n) doc.charges.push({ label, amount: sign * v, kind, cite: (child(n, 'Money') ?? n)?.cite });
  };
  charge('Tax', 'Tax', 'tax');
  charge('ShippingAmount', 'ShippingAmount', 'freight');
  charge('SpecialHandlingAmount', 'SpecialHandlingAmount (handling)', 'freight');
  charge('InvoiceDetailDiscount', 'InvoiceDetailDiscount', 'other', -1n);
  const totalNode = ['NetAmount', 'GrossAmount', 'DueAmount'].map((n) => child(summary, n)).find((n) => money(n, 'total', field) !== undefined);
  if (totalNode) {
    doc.total = money(totalNode, totalNode.name, field);
    const m = child(totalNode, 'Money');
    doc.totalQuote = `${totalNode.name} ${m?.text.trim()}`;
    doc.totalCite = m?.cite ?? totalNode.cite;
  }
  return doc;
}
