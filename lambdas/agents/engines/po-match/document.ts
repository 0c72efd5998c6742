/**
 * Reads a purchase order or an invoice, given as JSON text or as plain lines, into one shape. Nothing in the text is
 * obeyed: a line that is neither a known header nor an item line is only counted as unread.
 */
import { AgentInputError } from '../port.js';
import { decimalFromNumber, parseDecimal } from './decimal.js';
import { unitCode } from './units.js';
import { readTextDocument } from './text-document.js';
import { readCsvDocument } from './csv-document.js';
import { readUbl, ublRoot } from './ubl.js';
import { readX12, x12Segments } from './x12.js';
import { jsonToNodes, parseXml } from './xml.js';
import { edifactSegments, readEdifact } from './edifact.js';
import { cxmlInvoice, readCxml } from './cxml.js';
import type { Terms } from './terms.js';
import { jsonPositions, pathKey, type Cite } from '../text/json-positions.js';

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
  /** The price is per this many units (SAP "58,20 / 100 ST", UBL BaseQuantity); millionths, default one unit. */
  priceBase?: bigint;
  /** Unit of measure reduced to one code (units.ts), and the eaches in one such unit when the document says. */
  uom?: string;
  pack?: number;
  /** Distributor columns: ordered, shipped, back-ordered (millionths). `quantity` is what the line bills. */
  ordered?: bigint;
  shipped?: bigint;
  backOrdered?: bigint;
  /** Other item numbers the line carries (buyer's item, vendor's material number). */
  altSkus?: string[];
  /** The PO line this invoice line says it bills (UBL OrderLineReference, SAP item). */
  orderLineRef?: string;
  /** Priced per this unit ("15.890 LB") where the row counts another (3 CS): a catch-weight row. */
  priceUom?: string;
  /** A catch-weight row: the cases shipped (in caseUom) and each case's weight; `quantity` is then the total weight. */
  cases?: bigint;
  caseUom?: string;
  catchWeights?: bigint[];
  /** The line states an amount only (an amount-based or blanket PO line): a budget, not a quantity of one. */
  amountOnly?: boolean;
  /** The line as written, quoted in the discrepancy. */
  quote?: string;
  /** Where the line was read (its source lines), cited in the evidence. */
  cites?: Cite[];
}

export type ChargeKind = 'tax' | 'freight' | 'other';
export interface Charge {
  label: string;
  amount: bigint;
  kind?: ChargeKind;
  cite?: Cite;
}

/** "Sales tax", "VAT 19 %", "Freight", "Fuel surcharge", "Delivery charge" → what kind of charge it is. */
export function chargeKind(label: string): ChargeKind {
  const l = label.toLowerCase();
  if (/tax|vat|gst|hst|btw|mwst|iva|\bust\b/.test(l)) return 'tax';
  if (/freight|shipping|delivery|fuel|carriage|postage|d240|handling|transport/.test(l)) return 'freight';
  return 'other';
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
  /** The document's own words about its terms (PO: ship complete, freight, tax, tolerance). */
  terms?: Terms;
  /** Where the document states its total, quoted ("Order Total: GBP 713.52"). */
  totalQuote?: string;
  totalCite?: Cite;
}

/** A line as a reader found it, before its quantity defaults and its index are set (completeLine). */
export type RawLine = Partial<Omit<DocLine, 'index'>>;

const key = (k: string) => k.toLowerCase().replace(/[^a-z0-9]/g, '');
const keys = (...names: string[]) => new Set(names);

export const HEADER_KEYS = {
  poNumber: keys('ponumber', 'po', 'pono', 'ponum', 'purchaseorder', 'purchaseordernumber', 'purchaseorderno',
    'purchaseorderid', 'poid', 'poref', 'poreference', 'yourpo', 'customerpo', 'refpo', 'referencepo'),
  vendor: keys('vendor', 'supplier', 'vendorname', 'suppliername', 'seller', 'sellername', 'partnerid', 'partner'),
  currency: keys('currency', 'currencycode', 'ccy', 'currencyid'),
  total: keys('total', 'invoicetotal', 'pototal', 'ordertotal', 'grandtotal', 'totalamount', 'amountdue', 'totaldue',
    'balancedue', 'totalvalue', 'amounttotal'),
  subtotal: keys('subtotal', 'nettotal', 'totalbeforetax', 'linestotal', 'amountuntaxed'),
  charge: keys('tax', 'taxamount', 'salestax', 'vat', 'gst', 'shipping', 'freight', 'delivery', 'handling', 'amounttax',
    'shippingandhandling', 'shippinghandling'),
};
const LINES_KEYS = keys('lines', 'items', 'lineitems', 'products', 'orderlines', 'invoicelines', 'polines', 'orderline');
const LINE_KEYS = {
  sku: keys('sku', 'itemcode', 'partnumber', 'partno', 'productcode', 'itemnumber', 'itemno', 'code', 'productid',
    'itemid', 'supplierpartnum', 'supplierpartnumber', 'vendorpartnumber', 'defaultcode'),
  description: keys('description', 'desc', 'name', 'item', 'product', 'itemname', 'productname', 'title'),
  quantity: keys('quantity', 'qty', 'units', 'count', 'qtyordered', 'qtyinvoiced', 'qtybilled', 'qtyshipped', 'productqty'),
  unitPrice: keys('unitprice', 'price', 'rate', 'unitcost', 'cost', 'priceeach', 'unitamount', 'priceunit'),
  amount: keys('amount', 'linetotal', 'total', 'extendedprice', 'extended', 'lineamount', 'extendedamount', 'value',
    'netamount', 'pricesubtotal'),
  uom: keys('uom', 'unit', 'unitofmeasure', 'productuom', 'uomcode'),
  line: keys('linenum', 'linenumber', 'lineno'),
};
/** A value that is an Odoo many2one [id, "name"] or an object {code, name}: its text. */
function textValue(v: unknown): string | undefined {
  if (Array.isArray(v) && v.length === 2 && typeof v[1] === 'string') return v[1];
  if (isObject(v)) v = v.name ?? v.number ?? v.code;
  return typeof v === 'string' || typeof v === 'number' ? String(v).trim() || undefined : undefined;
}

export function headerKey(rawKey: string): keyof typeof HEADER_KEYS | undefined {
  const k = key(rawKey);
  return (Object.keys(HEADER_KEYS) as (keyof typeof HEADER_KEYS)[]).find((h) => HEADER_KEYS[h].has(k));
}

/**
 * The field's text as the readers see it: NFKC (full-width digits read as ASCII), line breaks unified to \n and
 * surrounding blank space dropped, but every line kept where it was, so a reader's line numbers are the buyer's.
 */
export function readable(text: string): string {
  return text
    .normalize('NFKC')
    .split(/\r\n|\r|\n/)
    .join('\n')
    .replace(/^\s+/, (m) => m.replace(/[^\n]/g, ''))
    .trimEnd();
}

export function readDocument(text: string, field: string): Doc {
  const normalised = readable(text);
  const start = normalised.trimStart();
  const doc = /^[[{]/.test(start)
    ? readJsonDocument(normalised, field)
    : start.startsWith('<')
      ? readXmlDocument(normalised, field)
      : (readCsvDocument(normalised, field) ?? readTextDocument(normalised, field));
  if (doc.lines.length === 0) throw new AgentInputError(field, 'no line items found (see the accepted formats)');
  return doc;
}

function readXmlDocument(text: string, field: string): Doc {
  const tree = parseXml(text);
  if (!tree) throw new AgentInputError(field, 'looks like XML but is not well-formed');
  const cxml = cxmlInvoice(tree);
  if (cxml) return readCxml(cxml, field);
  const inv = ublRoot(tree);
  if (!inv) throw new AgentInputError(field, 'XML that is neither a UBL invoice (no cac:InvoiceLine) nor a cXML InvoiceDetailRequest');
  return readUbl(inv, field);
}

function readJsonDocument(text: string, field: string): Doc {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AgentInputError(field, 'looks like JSON but does not parse');
  }
  const segments = x12Segments(parsed, text);
  if (segments) return readX12(segments, field);
  if (/"(?:cac:)?InvoiceLine"/.test(text)) {
    const inv = ublRoot(jsonToNodes('#root', parsed, 0, [], jsonPositions(text))[0]);
    if (inv) return readUbl(inv, field);
  }
  const edifact = edifactSegments(parsed, text);
  if (edifact) return readEdifact(edifact, field);
  const positions = jsonPositions(text);
  // A top-level array is the lines themselves.
  let root: unknown = Array.isArray(parsed) ? { '': parsed } : parsed;
  let rootPath: (string | number)[] = [];
  // { "purchaseOrder": { ... } }, { "invoice": { ... } } or a JSON-RPC { "result": [ { ... } ] }: one level unwrapped.
  if (isObject(root) && !Array.isArray(parsed) && !Object.keys(root).some((k) => LINES_KEYS.has(key(k)))) {
    const candidates = Object.entries(root).flatMap(([k, v]): [(string | number)[], unknown][] =>
      Array.isArray(v) && v.length === 1 ? [[[k, 0], v[0]]] : [[[k], v]]);
    const inner = candidates.filter(([, o]) => isObject(o) && Object.keys(o).some((k) => LINES_KEYS.has(key(k))));
    const objects = Object.entries(root).filter(([, v]) => isObject(v));
    if (inner.length === 1) [rootPath, root] = inner[0];
    else if (objects.length === 1) [rootPath, root] = [[objects[0][0]], objects[0][1]];
  }
  if (!isObject(root)) throw new AgentInputError(field, 'JSON must be an object with line items');
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  const cite = (...path: (string | number)[]) => positions.get(pathKey([...rootPath, ...path]));
  for (const [k, v] of Object.entries(root)) {
    if (k === '' || LINES_KEYS.has(key(k))) {
      if (!Array.isArray(v)) throw new AgentInputError(field, `"${k}" must be an array of lines`);
      const base = k === '' ? [] : [k];
      v.forEach((line, i) => {
        const raw = jsonLine(line, i + 1, field);
        const keys = isObject(line) ? Object.keys(line) : [];
        const cites = keys.map((m) => positions.get(pathKey([...rootPath, ...base, i, m]))).filter((c): c is Cite => c !== undefined);
        const unique = cites.filter((c, j) => cites.findIndex((d) => d.line === c.line) === j);
        raw.cites = unique.length > 0 ? unique.slice(0, 4) : [positions.get(pathKey([...rootPath, ...base, i]))].filter((c): c is Cite => c !== undefined);
        doc.lines.push(completeLine(raw, i + 1, field));
      });
      continue;
    }
    const h = headerKey(k);
    if (h === 'currency') doc.currency = isObject(v) ? textValue({ code: v.code ?? v.name }) : textValue(v);
    else if (h === 'poNumber' || h === 'vendor') doc[h] = textValue(v);
    else if (h === 'total' || h === 'subtotal') {
      doc[h] = jsonNumber(v, k, field);
      if (h === 'total') doc.totalCite = cite(k);
    } else if (h === 'charge') {
      const amount = jsonNumber(v, k, field);
      if (amount !== undefined && amount !== 0n) doc.charges.push({ label: k, amount, kind: chargeKind(k), cite: cite(k) });
    }
  }
  // Odoo names the order itself: { "name": "P00318" } when no PO-number key is present.
  if (doc.poNumber === undefined && typeof root.name === 'string' && /^[A-Z]{0,4}[-/]?\d[\w/-]*$/i.test(root.name)) doc.poNumber = root.name;
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
    } else if (kk === 'productid' && Array.isArray(v) && typeof v[1] === 'string') {
      raw.description ??= v[1];
    } else if (LINE_KEYS.uom.has(kk)) raw.uom ??= unitCode(textValue(isObject(v) ? { code: v.code ?? v.name } : v));
    else if (LINE_KEYS.line.has(kk) && (typeof v === 'string' || typeof v === 'number')) raw.orderLineRef = String(v);
    else if (LINE_KEYS.quantity.has(kk)) raw.quantity ??= jsonNumber(v, what, field);
    else if (LINE_KEYS.unitPrice.has(kk)) raw.unitPrice ??= jsonNumber(v, what, field);
    else if (LINE_KEYS.amount.has(kk)) raw.amount ??= jsonNumber(v, what, field);
  }
  // "[OL-EV1L] Olive oil extra virgin 1 L tin": the bracketed code is the item number.
  const bracket = raw.description !== undefined ? /^\[([^\]]{2,40})\]\s*(.*)$/.exec(raw.description) : null;
  if (bracket) {
    raw.sku ??= bracket[1];
    raw.description = bracket[2] || raw.description;
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
  const line: DocLine = { ...raw, index, quantity: raw.quantity ?? 1_000_000n, amountOnly: raw.quantity === undefined && raw.unitPrice === undefined ? true : undefined };
  for (const k of Object.keys(line) as (keyof DocLine)[]) if (line[k] === undefined) delete line[k];
  return line;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
