/**
 * Printed tables: a header row names the columns (Qty / Ordered / Shipped / B/O / U/M / Pack / Price / Amount …, in
 * English, German, Dutch or Italian) and each value belongs to the column it sits under. Rows are confirmed by
 * arithmetic (quantity × price ÷ price unit = extension); lines under a row without numbers continue its
 * description (or name the vendor's material number); summary lines (subtotal, tax, freight, total) are never items.
 */
import type { ChargeKind, RawLine } from './document.js';
import { lineAmount, abs, SCALE, CENT } from './decimal.js';
import { readNumber, type Decimal } from './number.js';
import { packSize, unitCode } from './units.js';

type Role = 'line' | 'sku' | 'desc' | 'qty' | 'ordered' | 'shipped' | 'bo' | 'uom' | 'pack' | 'price' | 'amount' | 'other';

const VOCAB_MAP = new Map<string, Role>();
const add = (role: Role, ...names: string[]) => names.forEach((n) => VOCAB_MAP.set(n, role));
const VOCAB = { get: (k: string) => VOCAB_MAP.get(k) };
add('line', 'ln', 'line', '#', 'pos', 'no', 'lin');
add('sku', 'item', 'item no', 'item #', 'item number', 'item code', 'part no', 'part number', 'part #', 'product code',
  'art.nr', 'artikel', 'artikelnr', 'product/service', 'material', 'codice', 'code', 'sku', 'item no/sku', 'model no',
  'model', 'model #', 'item id', 'catalog no', 'catalog #', 'cat no', 'vendor #', 'vendor item', 'mfr part', 'article no');
add('desc', 'description', 'bezeichnung', 'omschrijving', 'descrizione', 'desc', 'product', 'article', 'omschr');
add('qty', 'qty', 'quantity', 'aantal', 'q.tà', 'qta', 'menge', 'po quantity', 'order qty', 'bestellmenge', 'anzahl',
  'qty billed', 'qty invoiced', 'quantità');
add('ordered', 'ordered', 'ord', 'qty ord', 'order', 'qty ordered', 'ord qty', 'qty/ord');
add('shipped', 'shipped', 'shp', 'ship', 'qty shp', 'qty ship', 'qty shipped', 'shipped qty', 'delivered', 'geliefert');
add('bo', 'b/o', 'bo', 'backord', 'backorder', 'back order', 'qty b/o', 'backordered', 'back-ordered');
add('uom', 'u/m', 'um', 'uom', 'unit', 'units', 'me', 'eenh', 'u.m', 'unit of measure', 'eh');
add('pack', 'pack', 'pack size', 'pk');
add('other', 'size', 'disc %', 'disc', 'vat', 'tax', 'tax code', 'btw', 'mwst', 'taxes', 'type', 'return', 'need by',
  'received', 'invoiced', 'remaining', 'schedule lines', 'date req', 'req date', 'delivery date', 'due date', 'commodity', 'brand', 'account');
add('price', 'price', 'rate', 'unit price', 'unit cost', 'cost', 'prijs', 'preis', 'preis pro einheit', 'price per unit',
  'net price per unit', 'net price', 'prezzo', 'price each', 'each', 'einzelpreis', 'prezzo unitario');
add('amount', 'amount', 'extension', 'ext', 'extended', 'total', 'line total', 'nettowert', 'net value', 'net amount',
  'bedrag', 'totaal', 'importo', 'value', 'gesamtpreis', 'betrag', 'ext price', 'extended price', 'total price', 'ext amt',
  'extended amount', 'line amount', 'subtotal');

add('desc', 'memo', 'item description', 'memo/description');
add('price', 'sales price', 'purchase price');

/** The role of one header cell ("Sales Price" → price), for tabular formats with cells already split. */
export function columnRole(header: string): Role {
  const words = header.trim().split(/\s+/).map(norm).join(' ');
  return VOCAB.get(words) ?? VOCAB.get(words.replace(/[^a-z0-9/#. ]/g, '').trim()) ?? 'other';
}

interface Tok {
  text: string;
  start: number;
  end: number;
}
interface Column {
  role: Role;
  start: number;
  end: number;
  label: string;
}

export function tokenize(line: string): Tok[] {
  const out: Tok[] = [];
  const re = /\S+/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

const norm = (w: string) => w.toLowerCase().replace(/[.:]+$/, '').replace(/^\(|\)$/g, '');

/** Known column labels of a line, longest phrase first; undefined when the line is not a table header. */
export function headerColumns(line: string, above?: string): Column[] | undefined {
  // A header row is short and names at least two columns by known words: a cheap test before any tokenizing.
  if (line.length > 300) return undefined;
  let hits = 0;
  for (const w of line.toLowerCase().split(/\s+/)) if (VOCAB_MAP.has(w.replace(/[.:]+$/, ''))) hits++;
  if (hits < 2) return undefined;
  let toks = tokenize(line);
  if (toks.length < 3 || toks.length > 24) return undefined;
  // Prose that happens to use two column words ("Invoice each shipment against this order") is no header: a header's
  // words are mostly labels, and labels do not end in commas.
  if (hits * 4 < toks.length || toks.some((t) => /[a-z],$/i.test(t.text))) return undefined;
  // Two-line headers ("QTY" above "ORD"): a word stacked above another joins it.
  if (above !== undefined) {
    const up = above.length > 300 ? [] : tokenize(above);
    if (up.length > 0 && up.every((t) => VOCAB.get(norm(t.text)) !== undefined)) {
      toks = toks.map((t) => {
        const u = up.find((x) => x.start < t.end && t.start < x.end);
        return u ? { ...t, text: `${u.text} ${t.text}` } : t;
      });
    }
  }
  const cols: Column[] = [];
  let unknown = 0;
  for (let i = 0; i < toks.length; ) {
    let taken = 0;
    for (let k = Math.min(4, toks.length - i); k >= 1; k--) {
      const slice = toks.slice(i, i + k);
      if (slice.some((t, j) => j > 0 && t.start - slice[j - 1].end !== 1)) continue;
      const phrase = slice.map((t) => norm(t.text)).join(' ');
      const role = VOCAB.get(phrase);
      if (role !== undefined) {
        cols.push({ role, start: slice[0].start, end: slice[k - 1].end, label: slice.map((t) => t.text).join(' ') });
        taken = k;
        break;
      }
    }
    if (taken === 0) {
      const prev = cols[cols.length - 1];
      // "Prezzo EUR", "Item #": an unknown word right after a label belongs to it.
      if (prev && toks[i].start - prev.end === 1) prev.end = toks[i].end;
      else {
        unknown++;
        cols.push({ role: 'other', start: toks[i].start, end: toks[i].end, label: toks[i].text });
      }
      taken = 1;
    }
    i += taken;
  }
  const roles = new Set(cols.map((c) => c.role));
  const hasQty = roles.has('qty') || roles.has('ordered') || roles.has('shipped');
  // An amount-based order (a blanket or service PO: Description, Total, Received, Invoiced) has no quantity column.
  const amountBased = !hasQty && roles.has('amount') && roles.has('desc') && cols.length >= 4;
  if ((!hasQty && !amountBased) || !(roles.has('price') || roles.has('amount')) || cols.length < 3 || unknown * 3 > cols.length) return undefined;
  return cols;
}

const NUMERIC: Role[] = ['qty', 'ordered', 'shipped', 'bo', 'price', 'amount', 'pack'];
const isNumberish = (t: string) => /^[($€£-]*\d/.test(t) || /^(?:US\$|\$|€|£)$/.test(t);

/** The column a token sits under: most overlap, else the nearest; text right of Description stays in it. */
function columnOf(t: Tok, cols: Column[], descIndex: number): number {
  let best = -1;
  let bestScore = -Infinity;
  cols.forEach((c, i) => {
    const overlap = Math.min(t.end, c.end) - Math.max(t.start, c.start);
    const score = overlap > 0 ? overlap : -Math.max(c.start - t.end, t.start - c.end);
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  if (descIndex >= 0 && !isNumberish(t.text) && best !== descIndex && bestScore <= 0) {
    const next = cols.slice(descIndex + 1).find((c) => c.role !== 'other');
    if (t.start >= cols[descIndex].start && (next === undefined || t.end < next.start)) return descIndex;
  }
  return best;
}

export interface TableRow extends RawLine {
  /** Leftover numbers of quantity cells, tried when the arithmetic needs them. */
}

export interface ParsedTable {
  rows: RawLine[];
  /** Indexes of the lines the table consumed (header, rows, continuation lines). */
  used: Set<number>;
  /** Line index of the header. */
  header: number;
}

const SUMMARY = /^(?:sub-?total|subtotaal|total|totale?|merchandise|sale amount|product total|net order|order total|invoice total|amount due|balance due|tax|sales tax|vat|btw|iva|freight|delivery|shipping|fuel|imponibile|gesamt|summe|taxable)/i;
const ALT_SKU = /(?:material\s*(?:no|nr|number)|materialnummer|your\s+(?:item|part|material)\s*(?:no|#|number)?|vendor\s+(?:item|part))\.?\s*[:#]?\s*([A-Za-z0-9][\w./-]{2,})/i;

export function readTable(lines: string[], decimal: Decimal, billedIs: 'invoice' | 'order'): ParsedTable | undefined {
  let headerAt = -1;
  let cols: Column[] | undefined;
  for (let i = 0; i < lines.length && !cols; i++) {
    cols = headerColumns(lines[i], i > 0 ? lines[i - 1] : undefined);
    if (cols) headerAt = i;
  }
  if (!cols) return undefined;
  const descIndex = cols.findIndex((c) => c.role === 'desc');
  const amountTable = !cols.some((c) => c.role === 'qty' || c.role === 'ordered' || c.role === 'shipped');
  const rows: RawLine[] = [];
  const used = new Set<number>([headerAt]);
  const firstNumeric = Math.min(...cols.filter((c) => NUMERIC.includes(c.role) && c.role !== 'pack').map((c) => c.start));
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '' || /^[\s\-=_|+*]+$/.test(line)) {
      used.add(i);
      continue;
    }
    const toks = tokenize(line);
    const cells = new Map<Role, Tok[]>();
    for (const t of toks) {
      const c = cols[columnOf(t, cols, descIndex)];
      const list = cells.get(c.role) ?? [];
      list.push(t);
      cells.set(c.role, list);
    }
    const row = readRow(cells, decimal, billedIs, line, amountTable);
    if (row) {
      row.cites = [{ line: i + 1 }];
      rows.push(row);
      used.add(i);
      continue;
    }
    const first = toks[0];
    const hasNumberInNumericColumn = NUMERIC.some((r) => (cells.get(r) ?? []).some((t) => readNumber(t.text, decimal) !== undefined));
    if ((SUMMARY.test(line.trim()) && readSummary(line, decimal)) || (first.start >= firstNumeric - 2 && hasNumberInNumericColumn)) break;
    if (rows.length > 0 && !hasNumberInNumericColumn) {
      // A continuation of the row above: its description wraps, or it names the vendor's material number.
      const prev = rows[rows.length - 1];
      const alt = ALT_SKU.exec(line);
      if (alt) (prev.altSkus ??= []).push(alt[1]);
      else if (!/^\s*(?:\*\*|\/C\b|delivery date|liefertermin|lieferdatum)/i.test(line) && (prev.description ?? '').length < 200) {
        prev.description = `${prev.description ?? ''} ${line.trim()}`.trim();
      }
      used.add(i);
      continue;
    }
    if (rows.length > 0) break;
  }
  return rows.length > 0 ? { rows, used, header: headerAt } : undefined;
}

const joinText = (toks: Tok[] | undefined) => (toks ?? []).map((t) => t.text).join(' ');

function numbersIn(toks: Tok[] | undefined, decimal: Decimal): { values: bigint[]; words: string[] } {
  const values: bigint[] = [];
  const words: string[] = [];
  for (const t of toks ?? []) {
    const v = readNumber(t.text, decimal);
    if (v !== undefined) values.push(v);
    else if (!/^(?:US\$|\$|€|£)$/.test(t.text)) words.push(t.text);
  }
  return { values, words };
}

/** "4,85 / 1 ST", "€ 0,0185/st", "$38.90/cs", "48.750": price, price unit (base) and unit. */
export function readPrice(text: string, decimal: Decimal): { price: bigint; base?: bigint; uom?: string } | undefined {
  const m = /^\s*(?:US\$|\$|€|£|EUR|USD|GBP)?\s*([\d.,]+)\s*(?:\/\s*([\d.,]+)?\s*([A-Za-z]{1,8})?)?\s*(?:EUR|USD|GBP)?\s*$/.exec(text);
  if (!m) return undefined;
  const price = readNumber(m[1], decimal);
  if (price === undefined) return undefined;
  const base = m[2] !== undefined ? readNumber(m[2], decimal) : undefined;
  return { price, base: base !== undefined && base > 0n && base !== SCALE ? base : undefined, uom: unitCode(m[3]) };
}

function readRow(cells: Map<Role, Tok[]>, decimal: Decimal, billedIs: 'invoice' | 'order', line: string, amountTable: boolean): RawLine | undefined {
  const qty = numbersIn(cells.get('qty'), decimal);
  const ordered = numbersIn(cells.get('ordered'), decimal);
  const shipped = numbersIn(cells.get('shipped'), decimal);
  const bo = numbersIn(cells.get('bo'), decimal);
  const amountNums = numbersIn(cells.get('amount'), decimal).values;
  const amount = amountNums[amountNums.length - 1];
  // A description running into the price column: the price is the longest readable tail of the cell.
  const priceToks = cells.get('price') ?? [];
  let priced: ReturnType<typeof readPrice>;
  const spill: string[] = [];
  for (let k = 0; k < priceToks.length && !priced; k++) {
    priced = readPrice(joinText(priceToks.slice(k)), decimal);
    if (!priced) spill.push(priceToks[k].text);
  }
  const candidates =
    billedIs === 'invoice'
      ? [shipped.values[0], qty.values[0], ordered.values[0]]
      : [ordered.values[0], qty.values[0], shipped.values[0]];
  let quantity = candidates.find((v) => v !== undefined);
  // A line of an amount-based table is its amount alone (one unit, completeLine).
  const amountOnly = quantity === undefined && !cells.has('qty') && !cells.has('ordered') && !cells.has('shipped') && priced === undefined && amount !== undefined && amountTable;
  if ((quantity === undefined && !amountOnly) || (priced === undefined && amount === undefined)) return undefined;
  // More than one number under the quantity column (a description running into it): the arithmetic decides.
  const spare = [...qty.values];
  if (priced && amount !== undefined && spare.length > 1) {
    const fit = spare.find((q) => abs(lineAmount(q, priced.price, priced.base) - amount) <= CENT);
    if (fit !== undefined) quantity = fit;
  }
  const row: RawLine = { quantity, unitPrice: priced?.price, amount, priceBase: priced?.base, quote: line.trim().replace(/\s{2,}/g, '  ') };
  if (ordered.values[0] !== undefined) row.ordered = ordered.values[0];
  if (shipped.values[0] !== undefined) row.shipped = shipped.values[0];
  if (bo.values[0] !== undefined) row.backOrdered = bo.values[0];
  const uomWord = joinText(cells.get('uom')) || [...qty.words, ...ordered.words, ...shipped.words][0];
  const uom = unitCode(uomWord) ?? priced?.uom;
  if (uom) row.uom = uom;
  const pack = packSize(joinText(cells.get('pack')));
  if (pack !== undefined) row.pack = pack;
  const skuToks = cells.get('sku') ?? [];
  const descWords = [joinText(cells.get('desc')), ...qty.words.filter((w) => unitCode(w) === undefined), ...(priced ? spill : [])].filter(Boolean);
  // SAP prints "Item 00010" and "Material 520-1150" side by side: a digits-only item number is the PO line.
  if (skuToks.length > 1 && /^\d{1,6}$/.test(skuToks[0].text) && /[\d-]/.test(skuToks[1].text)) row.orderLineRef = skuToks.shift()!.text;
  const first = skuToks[0]?.text.replace(/[:,]$/, '');
  if (first && /^[A-Z0-9][A-Za-z0-9._/#-]{2,}$/.test(first) && /[\d-]/.test(first) && !/[a-z]{3}/.test(first)) {
    row.sku = first;
    descWords.unshift(...skuToks.slice(1).map((t) => t.text));
  } else if (skuToks.length > 0) descWords.unshift(joinText(skuToks));
  const lineNo = joinText(cells.get('line'));
  if (/^\d{1,6}$/.test(lineNo)) row.orderLineRef ??= lineNo;
  row.description = descWords.join(' ').trim() || undefined;
  if (row.pack === undefined && row.description) row.pack = packSize(/\b(?:pack|case|box|carton|bag) of \d+/i.exec(row.description)?.[0]);
  return row;
}

export interface Summary {
  kind: 'net' | ChargeKind | 'total';
  label: string;
  amount: bigint;
}

const SKIP_LABEL = /taxable|pieces|cases:|eaches|analysis|paid|payment|deposit/i;
/** "MERCHANDISE   733.90", "Order Total:  GBP  713.52", "BTW 21% over 1.321,30   277,47", "Subtotal ..... $1,117.75". */
export function readSummary(line: string, decimal: Decimal): Summary | undefined {
  // A currency written after the amount ("48,137.50 kr", "1,002.15 USD") is not part of the label.
  const clean = line.replace(/\.{3,}/g, '  ').replace(/\s+$/, '').replace(/(\d)\s*(?:kr|sek|nok|dkk|usd|eur|gbp|chf|cad|aud|pln|zł)\.?$/i, '$1');
  const segs = clean.split(/\s{2,}/).map((s) => s.trim()).filter(Boolean);
  if (segs.length === 0) return undefined;
  const last = segs[segs.length - 1];
  const lastToks = last.split(/\s+/);
  const amountText = lastToks[lastToks.length - 1];
  // Money is written with cents; "Page 1 of 1" or "NET 30" is not a summary line.
  if (!/[.,]\d{2}\)?$/.test(amountText)) return undefined;
  const amount = readNumber(amountText, decimal);
  if (amount === undefined) return undefined;
  const texts = [...segs.slice(0, -1), lastToks.slice(0, -1).join(' ')].filter((s) => s && !/^(?:US\$|\$|€|£|EUR|USD|GBP|CAD)$/i.test(s));
  // The label is the words before the amount; one step further left only past a rate ("SALES TAX  AUSTIN 8.25%").
  for (let i = texts.length - 1; i >= Math.max(0, texts.length - (/%/.test(texts[texts.length - 1] ?? '') ? 2 : 1)); i--) {
    const label = texts[i];
    const l = label.toLowerCase();
    if (SKIP_LABEL.test(l)) return undefined;
    let kind: Summary['kind'] | undefined;
    if (/sub-?total|subtotaal|untaxed|merchandise|sale amount|product total|net order|total net|net total|nettowert|imponibile|excl|ohne|before tax|goods total|lines total|netto/.test(l)) kind = 'net';
    else if (/tax|vat|btw|mwst|\bmoms\b|\biva\b|gst|hst|\bust\b/.test(l)) kind = 'tax';
    else if (/freight|shipping|delivery|fuel|handling|carriage|postage/.test(l)) kind = 'freight';
    else if (/total|amount due|balance due|te betalen|totale|summe|gesamt|to pay/.test(l)) kind = 'total';
    // A fee or surcharge printed among the totals ("DROP SHIP FEE 25.00", "Small order charge") is a charge, never an item.
    else if (/\b(?:fee|surcharge|charge)\b/.test(l) && !/%/.test(l)) kind = 'other';
    // A discount or allowance lowers the total however it is printed ("Discount 10.00", "Less 5% (12.50)").
    else if (/discount|allowance|rebate|korting|sconto|rabatt|skonto/.test(l)) return { kind: 'other', label: label.replace(/[:\s]+$/, ''), amount: amount > 0n ? -amount : amount };
    if (kind) return { kind, label: label.replace(/[:\s]+$/, ''), amount };
  }
  return undefined;
}
