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
