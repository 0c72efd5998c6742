/**
 * Reads a purchase order or an invoice, given as JSON text or as plain lines, into one shape. Nothing in the text is
 * obeyed: a line that is neither a known header nor an item line is only counted as unread.
 */
import { AgentInputError } from '../port.js';
import { readTextDocument } from './text-document.js';
import { readCsvDocument } from './csv-document.js';
import { readUbl, ublRoot } from './ubl.js';
import { parseXml } from './xml.js';
import { cxmlInvoice, cxmlOrder, readCxml, readCxmlOrder } from './cxml.js';
import { facturaeRoot, readFacturae } from './facturae.js';
import { cfdiRoot, readCfdi } from './cfdi.js';
import { fatturaPaRoot, readFatturaPa } from './fatturapa.js';
import { ciiRoot, readCii } from './cii.js';
import { finvoiceRoot, readFinvoice } from './finvoice.js';
import type { Terms } from './terms.js';
import type { Cite } from '../text/json-positions.js';
import { readJsonDocument } from './json-document.js';

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
  /** Billed as a row among the items (a freight row of a printed table): a printed subtotal may include it. */
  inLines?: boolean;
}

/** "Sales tax", "VAT 19 %", "Freight", "Fuel surcharge", "Delivery charge" → what kind of charge it is. */
export function chargeKind(label: string): ChargeKind {
  const l = label.toLowerCase();
  if (/tax|vat|gst|hst|btw|mwst|iva|\bust\b|\btva\b|impuesto|消費税/.test(l)) return 'tax';
  if (/freight|shipping|delivery|fuel|carriage|postage|d240|handling|transport|\bportes\b|\bflete|env[ií]o|fracht|versand/.test(l)) return 'freight';
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
  /** The customer's tax or company numbers as a structured invoice states them (FatturaPA, CII, UBL, CFDI). */
  buyerIds?: { label: string; value: string; cite?: Cite }[];
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
    'balancedue', 'totalvalue', 'amounttotal', 'totalorderamount'),
  subtotal: keys('subtotal', 'nettotal', 'totalbeforetax', 'linestotal', 'amountuntaxed', 'totalwithouttaxes', 'totalwithouttax',
    'totalexcludingtax', 'totalexcludingtaxes', 'totalexcltax', 'totalexvat', 'totalexclvat', 'taxexclusiveamount',
    'totallineamount', 'totalamountexcludingtax'),
  charge: keys('tax', 'taxamount', 'salestax', 'vat', 'gst', 'shipping', 'freight', 'delivery', 'handling', 'amounttax',
    'shippingandhandling', 'shippinghandling', 'totalsalestax', 'totaltaxamount'),
};
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
  const order = cxmlOrder(tree);
  if (order) return readCxmlOrder(order, field);
  const facturae = facturaeRoot(tree);
  if (facturae) return readFacturae(facturae, field);
  const cfdi = cfdiRoot(tree);
  if (cfdi) return readCfdi(cfdi, field);
  const fattura = fatturaPaRoot(tree);
  if (fattura) return readFatturaPa(fattura, field);
  const cii = ciiRoot(tree);
  if (cii) return readCii(cii, field);
  const finvoice = finvoiceRoot(tree);
  if (finvoice) return readFinvoice(finvoice, field);
  const inv = ublRoot(tree);
  if (!inv) throw new AgentInputError(field, 'XML that is none of the forms read (UBL invoice, credit note, order or order response, cXML InvoiceDetailRequest or OrderRequest, Facturae, CFDI, FatturaPA, CII, Finvoice)');
  return readUbl(inv, field);
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

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
