/**
 * Reads a purchase order or an invoice, given as JSON text or as plain lines, into one shape. Nothing in the text is
 * obeyed: a line that is neither a known header nor an item line is only counted as unread.
 */
import { AgentInputError } from '../port.js';
import { decimalFromNumber, parseDecimal } from './decimal.js';
import { readTextDocument } from './text-document.js';

export interface DocLine {
  /** 1-based position in the document. */
  index: number;
  sku?: string;
  description?: string;
  /** Millionths. Defaults to 1 when the line only states an amount. */
  quantity: bigint;
  /** Millionths; absent when the line only states an amount. */
  unitPrice?: bigint;
  /** Line total as written (millionths); absent when the line only states a unit price. */
  amount?: bigint;
}

export interface Charge {
  label: string;
  amount: bigint;
}

export interface Doc {
  poNumber?: string;
  vendor?: string;
  currency?: string;
  lines: DocLine[];
  subtotal?: bigint;
  /** Tax, shipping, freight: added to the lines to make the total. */
  charges: Charge[];
  total?: bigint;
  /** Text lines that were neither a header nor an item. */
  unread: number;
}

export interface RawLine {
  sku?: string;
  description?: string;
  quantity?: bigint;
  unitPrice?: bigint;
  amount?: bigint;
}

const key = (k: string) => k.toLowerCase().replace(/[^a-z0-9]/g, '');
const keys = (...names: string[]) => new Set(names);

export const HEADER_KEYS = {
  poNumber: keys('ponumber', 'po', 'pono', 'ponum', 'purchaseorder', 'purchaseordernumber', 'purchaseorderno',
    'purchaseorderid', 'poid', 'poref', 'poreference', 'yourpo', 'customerpo', 'refpo', 'referencepo'),
  vendor: keys('vendor', 'supplier', 'vendorname', 'suppliername', 'seller', 'sellername'),
  currency: keys('currency', 'currencycode', 'ccy'),
  total: keys('total', 'invoicetotal', 'pototal', 'ordertotal', 'grandtotal', 'totalamount', 'amountdue', 'totaldue',
    'balancedue', 'totalvalue'),
  subtotal: keys('subtotal', 'nettotal', 'totalbeforetax', 'linestotal'),
  charge: keys('tax', 'taxamount', 'salestax', 'vat', 'gst', 'shipping', 'freight', 'delivery', 'handling',
    'shippingandhandling', 'shippinghandling'),
};
const LINES_KEYS = keys('lines', 'items', 'lineitems', 'products', 'orderlines', 'invoicelines', 'polines');
const LINE_KEYS = {
  sku: keys('sku', 'itemcode', 'partnumber', 'partno', 'productcode', 'itemnumber', 'itemno', 'code', 'productid',
    'itemid'),
  description: keys('description', 'desc', 'name', 'item', 'product', 'itemname', 'productname', 'title'),
  quantity: keys('quantity', 'qty', 'units', 'count', 'qtyordered', 'qtyinvoiced', 'qtybilled', 'qtyshipped'),
  unitPrice: keys('unitprice', 'price', 'rate', 'unitcost', 'cost', 'priceeach', 'unitamount'),
  amount: keys('amount', 'linetotal', 'total', 'extendedprice', 'extended', 'lineamount', 'extendedamount', 'value',
    'netamount'),
};

export function headerKey(rawKey: string): keyof typeof HEADER_KEYS | undefined {
  const k = key(rawKey);
  return (Object.keys(HEADER_KEYS) as (keyof typeof HEADER_KEYS)[]).find((h) => HEADER_KEYS[h].has(k));
}

export function readDocument(text: string, field: string): Doc {
  const normalised = text.normalize('NFKC').trim();
  const doc = /^[[{]/.test(normalised) ? readJsonDocument(normalised, field) : readTextDocument(normalised, field);
  if (doc.lines.length === 0) throw new AgentInputError(field, 'no line items found (see the accepted formats)');
  return doc;
}

function readJsonDocument(text: string, field: string): Doc {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AgentInputError(field, 'looks like JSON but does not parse');
  }
  let root: unknown = Array.isArray(parsed) ? { lines: parsed } : parsed;
  // { "purchaseOrder": { ... } } or { "invoice": { ... } }: one wrapper level is unwrapped.
  if (isObject(root) && !Object.keys(root).some((k) => LINES_KEYS.has(key(k)))) {
    const inner = Object.values(root).filter(isObject);
    if (inner.length === 1) root = inner[0];
  }
  if (!isObject(root)) throw new AgentInputError(field, 'JSON must be an object with line items');
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  for (const [k, v] of Object.entries(root)) {
    if (LINES_KEYS.has(key(k))) {
      if (!Array.isArray(v)) throw new AgentInputError(field, `"${k}" must be an array of lines`);
      v.forEach((line, i) => doc.lines.push(completeLine(jsonLine(line, i + 1, field), i + 1, field)));
      continue;
    }
    const h = headerKey(k);
    if (h === 'poNumber' || h === 'vendor' || h === 'currency') {
      const s = isObject(v) ? v.name ?? v.number ?? v.code : v;
      if (typeof s === 'string' || typeof s === 'number') doc[h] = String(s).trim() || undefined;
    } else if (h === 'total' || h === 'subtotal') {
      doc[h] = jsonNumber(v, k, field);
    } else if (h === 'charge') {
      const amount = jsonNumber(v, k, field);
      if (amount !== undefined) doc.charges.push({ label: k, amount });
    }
  }
  return doc;
}

function jsonLine(line: unknown, index: number, field: string): RawLine {
  if (!isObject(line)) throw new AgentInputError(field, `line ${index} must be an object`);
  const raw: RawLine = {};
  for (const [k, v] of Object.entries(line)) {
    const kk = key(k);
    const what = `line ${index} ${k}`;
    if (LINE_KEYS.sku.has(kk) && raw.sku === undefined && (typeof v === 'string' || typeof v === 'number')) {
      raw.sku = String(v).trim() || undefined;
    } else if (LINE_KEYS.description.has(kk) && raw.description === undefined && typeof v === 'string') {
      raw.description = v.trim() || undefined;
    } else if (LINE_KEYS.quantity.has(kk)) raw.quantity ??= jsonNumber(v, what, field);
    else if (LINE_KEYS.unitPrice.has(kk)) raw.unitPrice ??= jsonNumber(v, what, field);
    else if (LINE_KEYS.amount.has(kk)) raw.amount ??= jsonNumber(v, what, field);
  }
  return raw;
}

/** A number or numeric string; null is absent; anything else (1e309, "abc", true) is the buyer's error. */
function jsonNumber(v: unknown, what: string, field: string): bigint | undefined {
  if (v === null || v === undefined) return undefined;
  const n = typeof v === 'number' ? decimalFromNumber(v) : typeof v === 'string' ? parseDecimal(v) : undefined;
  if (n === undefined) {
    const shown = typeof v === 'number' ? String(v) : JSON.stringify(v)?.slice(0, 40);
    throw new AgentInputError(field, `${what} ${shown} is not a number (finite, at most 6 decimals)`);
  }
  return n;
}

/** Fills the defaults of RULES.md: an amount-only line is one unit at that amount; a line needs a price or amount. */
export function completeLine(raw: RawLine, index: number, field: string): DocLine {
  if (raw.unitPrice === undefined && raw.amount === undefined) {
    const label = raw.sku ?? raw.description ?? `#${index}`;
    throw new AgentInputError(field, `line ${index} (${label}) has neither a unit price nor an amount`);
  }
  return {
    index,
    sku: raw.sku,
    description: raw.description,
    quantity: raw.quantity ?? 1_000_000n,
    unitPrice: raw.unitPrice,
    amount: raw.amount,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
