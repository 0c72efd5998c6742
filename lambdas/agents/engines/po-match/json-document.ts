/**
 * JSON records (an ERP's or a procurement suite's PO or invoice as its API returns it), and the JSON forms of the EDI
 * and UBL readers: keys compared case- and punctuation-insensitively, one wrapper level unwrapped, each line and
 * header value kept with the key's line for evidence.
 */
import { AgentInputError } from '../port.js';
import { decimalFromNumber, parseDecimal } from './decimal.js';
import { unitCode } from './units.js';
import { readUbl, ublRoot } from './ubl.js';
import { readX12, x12Segments } from './x12.js';
import { jsonToNodes } from './xml.js';
import { edifactSegments, readEdifact } from './edifact.js';
import { gstInvoice, readGstInvoice } from './gst-einvoice.js';
import { chargeKind, completeLine, headerKey, isObject, type Doc, type RawLine } from './document.js';
import { jsonPositions, pathKey, type Cite } from '../text/json-positions.js';

// Defined here, not imported: document.ts imports this module, so its constants are not yet there at load time.
const key = (k: string) => k.toLowerCase().replace(/[^a-z0-9]/g, '');
const keys = (...names: string[]) => new Set(names);

/** A total that says it includes the tax (Coupa's `total-with-taxes`): the total a practitioner compares. */
const GROSS_TOTAL = keys('totalwithtaxes', 'totalwithtax', 'totalincludingtax', 'totalincludingtaxes', 'totalincltax',
  'totalinctax', 'totalinclvat', 'totalincvat', 'grosstotal', 'totalgross', 'taxinclusiveamount', 'amountincludingtax',
  'totalamountincludingtax');
/** Tax written as a list or an object (`"tax-lines": [{"rate": "21.0", "amount": "324.03"}]`): one tax charge, their sum. */
/** Dynamics 365 F&O's PurchaseOrderName is the vendor's name the order was raised to (its default). */
const VENDOR_NAME_FALLBACK = keys('purchaseordername', 'purchname', 'buyfromvendorname', 'payvendorname');
const TAX_LINES = keys('taxlines', 'taxes', 'taxtotals', 'taxtotal', 'taxbreakdown', 'vatbreakdown', 'taxsummary', 'taxdetails');

// Dynamics 365 F&O's expanded PurchaseOrderLines / PurchaseOrderLinesV2 and Business Central's purchaseOrderLines
// (a navigation property of the OData entity) and SAP S/4HANA's to_PurchaseOrderItem are the lines too.
const LINES_KEYS = keys('lines', 'items', 'lineitems', 'products', 'orderlines', 'invoicelines', 'polines', 'orderline',
  'purchaseorderlines', 'purchaseorderlinesv2', 'purchaselines', 'purchaseinvoicelines', 'vendorinvoicelines', 'topurchaseorderitem',
  'purchaseorderitems', 'purchaseorderitem');
// Field names of Dynamics 365 F&O (OrderedPurchaseQuantity, PurchasePrice per PurchasePriceQuantity, PurchaseUnitSymbol,
// LineDescription), Business Central (directUnitCost, unitOfMeasureCode, amountExcludingTax) and SAP S/4HANA
// (Material, OrderQuantity, NetPriceAmount per NetPriceQuantity, PurchaseOrderQuantityUnit) beside the common ones.
const LINE_KEYS = {
  sku: keys('sku', 'itemcode', 'partnumber', 'partno', 'productcode', 'itemnumber', 'itemno', 'code', 'productid',
    'itemid', 'supplierpartnum', 'supplierpartnumber', 'vendorpartnumber', 'defaultcode', 'material', 'externaldocumentitemnumber'),
  description: keys('description', 'desc', 'name', 'item', 'product', 'itemname', 'productname', 'title', 'linedescription',
    'purchaseorderitemtext', 'itemdescription', 'productdescription'),
  quantity: keys('quantity', 'qty', 'units', 'count', 'qtyordered', 'qtyinvoiced', 'qtybilled', 'qtyshipped', 'productqty',
    'orderedpurchasequantity', 'purchasequantity', 'orderquantity', 'orderedquantity', 'quantityordered', 'invoicequantity', 'receivequantity'),
  unitPrice: keys('unitprice', 'price', 'rate', 'unitcost', 'cost', 'priceeach', 'unitamount', 'priceunit', 'purchaseprice',
    'directunitcost', 'netpriceamount', 'unitnetprice'),
  amount: keys('amount', 'linetotal', 'total', 'extendedprice', 'extended', 'lineamount', 'extendedamount', 'value',
    'netamount', 'pricesubtotal', 'amountexcludingtax', 'netpricetotal'),
  uom: keys('uom', 'unit', 'unitofmeasure', 'productuom', 'uomcode', 'purchaseunitsymbol', 'unitofmeasurecode',
    'purchaseorderquantityunit', 'unitsymbol', 'purchaseunit'),
  line: keys('linenum', 'linenumber', 'lineno', 'purchaseorderitem', 'purchaseorderlinenumber'),
  /** The quantity the price is for: D365 PurchasePriceQuantity, S/4HANA NetPriceQuantity, a price unit of 100. */
  priceBase: keys('purchasepricequantity', 'netpricequantity', 'priceunitquantity', 'pricequantity', 'pricebasisquantity', 'priceper'),
  /** A line's own discount: its amount is then net of it, and its price per unit that net ÷ quantity. */
  discount: keys('linediscountamount', 'linediscount', 'discountamount', 'linediscountpercentage', 'linediscountpercent',
    'discountpercent', 'discount', 'multilinediscountamount'),
};
/** A value that is an Odoo many2one [id, "name"] or an object {code, name}: its text. */
function textValue(v: unknown): string | undefined {
  if (Array.isArray(v) && v.length === 2 && typeof v[1] === 'string') return v[1];
  if (isObject(v)) v = v.name ?? v.number ?? v.code;
  return typeof v === 'string' || typeof v === 'number' ? String(v).trim() || undefined : undefined;
}

export function readJsonDocument(text: string, field: string): Doc {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AgentInputError(field, 'looks like JSON but does not parse');
  }
  const segments = x12Segments(parsed, text);
  if (segments) return readX12(segments, field);
  if (/"(?:cac:)?(?:InvoiceLine|CreditNoteLine|OrderLine)"/.test(text)) {
    const inv = ublRoot(jsonToNodes('#root', parsed, 0, [], jsonPositions(text))[0]);
    if (inv) return readUbl(inv, field);
  }
  const gst = gstInvoice(parsed);
  if (gst) return readGstInvoice(gst, jsonPositions(text), field);
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
  let gross: { value: bigint; key: string } | undefined;
  let vendorFallback: string | undefined;
  for (let [k, v] of Object.entries(root)) {
    if (k === '' || LINES_KEYS.has(key(k))) {
      // OData v2 writes an expanded collection as { "results": [ … ] }.
      const odata = isObject(v) && Array.isArray(v.results);
      if (odata) v = (v as { results: unknown[] }).results;
      if (!Array.isArray(v)) throw new AgentInputError(field, `"${k}" must be an array of lines`);
      const base = k === '' ? [] : odata ? [k, 'results'] : [k];
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
    if (GROSS_TOTAL.has(key(k)) || TAX_LINES.has(key(k))) {
      const amount = jsonSum(v, k, field);
      if (amount === undefined) continue;
      if (GROSS_TOTAL.has(key(k))) gross = { value: amount, key: k };
      else if (amount !== 0n) doc.charges.push({ label: k, amount, kind: 'tax', cite: cite(k) });
      continue;
    }
    if (VENDOR_NAME_FALLBACK.has(key(k)) && typeof v === 'string') {
      vendorFallback = v.trim() || undefined;
      continue;
    }
    const h = headerKey(k);
    if (h === 'currency') doc.currency = isObject(v) ? textValue({ code: v.code ?? v.name }) : textValue(v);
    else if (h === 'poNumber') doc[h] = textValue(v);
    // A vendor account ("Supplier": "17300001", "V-1042") names no vendor: the name is compared, never the number.
    else if (h === 'vendor') doc.vendor = /^[A-Z]{0,3}-?\d+$/i.test(textValue(v) ?? '') ? doc.vendor : textValue(v);
    else if (h === 'total' || h === 'subtotal') {
      doc[h] = jsonNumber(v, k, field);
      if (h === 'total') doc.totalCite = cite(k);
    } else if (h === 'charge') {
      const amount = jsonNumber(v, k, field);
      if (amount !== undefined && amount !== 0n) doc.charges.push({ label: k, amount, kind: chargeKind(k), cite: cite(k) });
    }
  }
  // The total with tax is the total; a plain total beside it that differs is then the net.
  if (gross) {
    if (doc.total !== undefined && doc.total !== gross.value) doc.subtotal ??= doc.total;
    doc.total = gross.value;
    doc.totalCite = cite(gross.key);
  }
  doc.vendor ??= vendorFallback;
  // Odoo names the order itself: { "name": "P00318" } when no PO-number key is present.
  if (doc.poNumber === undefined && typeof root.name === 'string' && /^[A-Z]{0,4}[-/]?\d[\w/-]*$/i.test(root.name)) doc.poNumber = root.name;
  return doc;
}

function jsonLine(line: unknown, index: number, field: string): RawLine {
  if (!isObject(line)) throw new AgentInputError(field, `line ${index} must be an object`);
  const raw: RawLine = {};
  let discounted = false;
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
    else if (LINE_KEYS.priceBase.has(kk)) {
      const base = jsonNumber(v, what, field);
      if (base !== undefined && base > 0n && base !== 1_000_000n) raw.priceBase = base;
    } else if (LINE_KEYS.discount.has(kk) && (jsonNumber(v, what, field) ?? 0n) !== 0n) discounted = true;
  }
  // A line discount makes the amount net: its price per unit is that amount ÷ quantity, the gross price set aside.
  if (discounted && raw.amount !== undefined) {
    raw.unitPrice = undefined;
    raw.priceBase = undefined;
  }
  // "[OL-EV1L] Olive oil extra virgin 1 L tin": the bracketed code is the item number.
  const bracket = raw.description !== undefined ? /^\[([^\]]{2,40})\]\s*(.*)$/.exec(raw.description) : null;
  if (bracket) {
    raw.sku ??= bracket[1];
    raw.description = bracket[2] || raw.description;
  }
  return raw;
}

/** An amount written as a number, an object with an amount, or a list of them (tax lines): their sum. */
function jsonSum(v: unknown, what: string, field: string): bigint | undefined {
  if (Array.isArray(v)) {
    const parts = v.map((x, i) => jsonSum(x, `${what}[${i}]`, field)).filter((x): x is bigint => x !== undefined);
    return parts.length > 0 ? parts.reduce((a, x) => a + x, 0n) : undefined;
  }
  if (isObject(v)) {
    const k = Object.keys(v).find((x) => ['amount', 'taxamount', 'value', 'total'].includes(key(x)));
    return k === undefined ? undefined : jsonNumber(v[k], `${what} ${k}`, field);
  }
  return jsonNumber(v, what, field);
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
