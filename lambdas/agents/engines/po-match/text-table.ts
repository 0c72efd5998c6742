/**
 * Printed tables: a header row names the columns (Qty / Ordered / Shipped / B/O / U/M / Pack / Price / Amount …, in
 * English, German, Dutch or Italian) and each value belongs to the column it sits under. Rows are confirmed by
 * arithmetic (quantity × price ÷ price unit = extension); lines under a row without numbers continue its
 * description (or name the vendor's material number); summary lines (subtotal, tax, freight, total) are never items.
 */
import type { RawLine } from './document.js';
import { lineAmount, abs, SCALE, CENT } from './decimal.js';
import { readNumber, type Decimal } from './number.js';
import { packSize, priceBasis, unitCode, unitWithPack } from './units.js';
import { headerColumns, tokenize, type Column, type Role, type Tok } from './text-columns.js';
import { readSummaries, readSummary } from './text-summary.js';
import { IDENTIFIER_LINE, shiftedRow } from './text-shifted.js';
import { joinGroups, joinText, numbersIn, readPrice } from './text-cells.js';

const NUMERIC: Role[] = ['qty', 'ordered', 'shipped', 'bo', 'price', 'amount', 'pack'];
const isNumberish = (t: string) => /^[($€£-]*\d/.test(t) || /^(?:US\$|\$|€|£)$/.test(t);
/**
 * Words of a description that start with a digit but are no quantity or price: a pack ("120/CS", "200/BX", a whole
 * count over a unit, where a price per unit is written with its decimals, "38.90/cs") or a size ("3.5X10", "M10X40",
 * an inch or millimetre size in brackets: "(22G 1\")"), a bracket opened before a count and closed after its unit
 * ("(12 PR/DZ)": a negative amount in brackets closes them, "(12.00)").
 */
const isSpec = (t: string) => /^\(\d{1,5}$/.test(t) || /^\d{1,5}\/[A-Za-z]{2,6}$/.test(t) || /^\d+(?:[.,]\d+)?[xX×]\d/.test(t) || /^\(?\d+(?:[.,/]\d+)?(?:"|”|''|mm|cm|ml)\)?$/.test(t);

/** The column a token sits under: most overlap, else the nearest; text right of Description stays in it. */
function columnOf(t: Tok, cols: Column[], descIndex: number): number {
  let best = -1;
  let bestScore = -Infinity;
  cols.forEach((c, i) => {
    const overlap = Math.min(t.end, c.end) - Math.max(t.start, c.start);
    const score = overlap > 0 ? overlap : -Math.max(c.start - t.end, t.start - c.end);
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  if (descIndex >= 0 && (!isNumberish(t.text) || isSpec(t.text)) && best !== descIndex && bestScore <= 0) {
    const next = cols.slice(descIndex + 1).find((c) => c.role !== 'other');
    if (t.start >= cols[descIndex].start && (next === undefined || t.end < next.start)) return descIndex;
  }
  return best;
}

/** "C/W 11.42 10.86 11.73 … TOTAL WT 34.01 LB": each case's weight and the total (stated, else their sum). */
function catchWeights(line: string, decimal: Decimal): { each: bigint[]; total: bigint } | undefined {
  const m = /^\s*(?:C\/W|catch\s*weights?|weights?)\s*:?\s+((?:[\d.,]+\s+){0,40}[\d.,]+)(?:\s+(?:LBS?|KGS?))?(?:\s+(?:TOTAL\s+(?:WT|WEIGHT)|NET\s+WT)\s*:?\s*([\d.,]+))?/i.exec(line);
  if (!m) return undefined;
  const each = m[1].trim().split(/\s+/).map((t) => readNumber(t, decimal));
  if (each.some((w) => w === undefined || w <= 0n)) return undefined;
  const sum = (each as bigint[]).reduce((a, w) => a + w, 0n);
  const total = m[2] !== undefined ? readNumber(m[2], decimal) : sum;
  return total === undefined ? undefined : { each: each as bigint[], total };
}

export interface ParsedTable {
  rows: RawLine[];
  /** Indexes of the lines the table consumed (header, rows, continuation lines). */
  used: Set<number>;
  /** Line index of the header. */
  header: number;
}

const SUMMARY = /^(?:sub-?total|subtotaal|totaal|te betalen|maatstaf|yhteensä|alv|verollinen|veroton|total|totale?|merchandise|sale amount|product total|net order|order total|invoice total|amount due|balance due|tax|sales tax|vat|btw|iva|freight|delivery|shipping|fuel|imponibile|gesamt|summe|taxable)/i;
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
  // A rule printed under the rows closes them: what follows is a footer ("PIECES 12 CUBE 6.4"), never a description.
  let closed = false;
  const parseRow = (line: string) => {
    const toks = joinGroups(tokenize(line, true));
    if (toks.length === 0) return undefined;
    const cells = new Map<Role, Tok[]>();
    for (const t of toks) {
      const c = cols[columnOf(t, cols, descIndex)];
      const list = cells.get(c.role) ?? [];
      list.push(t);
      cells.set(c.role, list);
    }
    const row = readRow(cells, decimal, billedIs, line, amountTable) ?? shiftedRow(toks, cols, descIndex, decimal, (c) => readRow(c, decimal, billedIs, line, false));
    return { toks, cells, row };
  };
  // The next printed line (past blank ones) is an item row.
  const rowFollows = (i: number) => {
    for (let j = i + 1; j < lines.length; j++) if (lines[j].trim() !== '') return !IDENTIFIER_LINE.test(lines[j]) && parseRow(lines[j])?.row !== undefined;
    return false;
  };
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i];
    if (rows.length > 0 && /^\s*[-=_]{10,}\s*$/.test(line)) closed = true;
    // A block heading in capitals after a blank line ("DADOS ADICIONAIS — INFORMAÇÕES COMPLEMENTARES") starts the
    // form's next block: the rows are over.
    if (rows.length > 0 && i > 0 && lines[i - 1].trim() === '' && /^\s*\p{Lu}{3,}(?:[\s—–/&:-]+\p{Lu}{2,})+\s*$/u.test(line)) break;
    // Rules, section headings ("**** MEATS ****") and group subtotals inside the table are neither items nor summaries.
    if (line.trim() === '' || /^[\s\-=_|+*]+$/.test(line) || /^\s*\*{2,}[^*]*\*{2,}\s*$/.test(line) || /\b(?:group|section|category)\s+total\b/i.test(line)) {
      used.add(i);
      continue;
    }
    // A catch-weight line under a row priced by weight ("C/W 11.42 10.86 11.73   TOTAL WT 34.01 LB"): the row bills
    // the weight, not the cases.
    const weights = rows.length > 0 ? catchWeights(line, decimal) : undefined;
    if (weights) {
      const prev = rows[rows.length - 1];
      if (prev.priceUom !== undefined && prev.priceUom !== prev.uom) {
        prev.cases = prev.quantity;
        prev.caseUom = prev.uom;
        prev.catchWeights = weights.each;
        prev.quantity = weights.total;
        prev.uom = prev.priceUom;
        prev.cites = [...(prev.cites ?? []), { line: i + 1 }];
        prev.quote = `${prev.quote ?? ''}; ${line.trim().replace(/\s{2,}/g, '  ')}`;
      }
      used.add(i);
      continue;
    }
    // A bank account, a tax registration or a telephone printed among the rows is never one.
    if (IDENTIFIER_LINE.test(line)) continue;
    const parsed = parseRow(line);
    if (!parsed) continue;
    const { toks, cells, row } = parsed;
    // A totals label set well right of the descriptions ("Yhteensä alv 0 %   441,60", "Totaal excl. BTW") ends the
    // rows even where its numbers fall under the item columns.
    if (rows.length > 0 && toks[0].start > (descIndex >= 0 ? cols[descIndex].start : 0) + 8 && SUMMARY.test(line.trim()) && readSummary(line, decimal) !== undefined) break;
    // "Netto 1 240,00    VAT 23% 285,20    Brutto 1 525,20": totals side by side end the rows.
    if (rows.length > 0 && readSummaries(line, decimal) !== undefined) break;
    if (row) {
      row.cites = [{ line: i + 1 }];
      rows.push(row);
      used.add(i);
      continue;
    }
    const first = toks[0];
    const hasNumberInNumericColumn = NUMERIC.some((r) => (cells.get(r) ?? []).some((t) => readNumber(t.text, decimal) !== undefined));
    // A summary line ends the rows: a known label first, or a label printed well right of where descriptions start
    // ("Goods Net   314.00" set among the totals, its amount not quite under the amount column).
    const summary = readSummary(line, decimal) !== undefined;
    const indented = first.start > (descIndex >= 0 ? cols[descIndex].start : 0) + 8;
    if ((SUMMARY.test(line.trim()) && summary) || (summary && indented) || (first.start >= firstNumeric - 2 && hasNumberInNumericColumn)) break;
    // A remark printed under a row in its description column ("Restordre 4 stk leveres uke 23 - faktureres ved
    // levering", "Backorder 2 pcs ship wk 14"), its numbers counts and weeks rather than money, with item rows after
    // it, is no end of the table: it is passed over (counted as unread).
    if (rows.length > 0 && hasNumberInNumericColumn && !summary && descIndex >= 0 && first.start >= cols[descIndex].start - 1 && first.start < firstNumeric - 2 && !toks.some((t) => /\d[.,]\d{2}\b/.test(t.text)) && toks.filter((t) => /^\p{L}{2,}/u.test(t.text)).length >= 3 && rowFollows(i)) continue;
    if (rows.length > 0 && closed) break;
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
  const spill: Tok[] = [];
  for (let k = 0; k < priceToks.length && !priced; k++) {
    priced = readPrice(priceToks.slice(k).map((t) => t.text.replace(/ /g, '\u00a0')).join(' '), decimal);
    if (!priced) spill.push(priceToks[k]);
  }
  // A PER column (E / C / M) states the price basis the price cell leaves unwritten.
  const per = priceBasis(joinText(cells.get('per')));
  if (priced && priced.base === undefined && per !== undefined && per > 1) priced = { ...priced, base: BigInt(per) * SCALE };
  const candidates =
    billedIs === 'invoice'
      ? [shipped.values[0], qty.values[0], ordered.values[0]]
      : [ordered.values[0], qty.values[0], shipped.values[0]];
  let quantity = candidates.find((v) => v !== undefined);
  // A line of an amount-based table is its amount alone (one unit, completeLine).
  const amountOnly = quantity === undefined && !cells.has('qty') && !cells.has('ordered') && !cells.has('shipped') && priced === undefined && amount !== undefined && amountTable;
  if ((quantity === undefined && !amountOnly) || (priced === undefined && amount === undefined)) return undefined;
  // More than one number under the quantity column (a description running into it, "ctn 1000  2"): the arithmetic
  // decides, in whichever quantity column the row's quantity was taken from.
  const source = qty.values.length > 1 ? 'qty' : ([['ordered', ordered], ['shipped', shipped]] as const).find(([, c]) => c.values[0] === quantity && c.values.length > 1)?.[0] ?? 'qty';
  const spare = [...(source === 'qty' ? qty : source === 'ordered' ? ordered : shipped).values];
  // The numbers left of the quantity the arithmetic picks are the description's ("boîte de 100", "bidon 5 L").
  const spilledNumbers: Tok[] = [];
  if (priced && amount !== undefined && spare.length > 1) {
    const fit = spare.find((q) => abs(lineAmount(q, priced.price, priced.base) - amount) <= CENT);
    if (fit !== undefined) {
      quantity = fit;
      const toks = (cells.get(source) ?? []).filter((t) => readNumber(t.text, decimal) !== undefined);
      const at = toks.map((t) => readNumber(t.text, decimal)).lastIndexOf(fit);
      spilledNumbers.push(...toks.slice(0, Math.max(0, at)));
    }
  }
  const row: RawLine = { quantity, unitPrice: priced?.price, amount, priceBase: priced?.base, quote: line.trim().replace(/\s{2,}/g, '  ') };
  if (ordered.values[0] !== undefined) row.ordered = ordered.values[0];
  if (shipped.values[0] !== undefined) row.shipped = shipped.values[0];
  if (bo.values[0] !== undefined) row.backOrdered = bo.values[0];
  // "40,00 Rouleau(x)": a unit printed after the quantity may run under the price column's label.
  const uomWord = joinText(cells.get('uom')) || [...qty.words, ...ordered.words, ...shipped.words][0] || (cells.has('uom') ? undefined : spill.map((t) => t.text).find((w) => unitCode(w) !== undefined));
  // "CS 2/5-6LB": a unit column printed against a pack/size column reads by its first word.
  // "CS/12": a unit printed with what one of it holds is that unit, its pack size stated.
  // "Box (100 ea)", "PK (10 pcs)", "BX (500)": a unit cell printed with what one of it holds in brackets, its words
  // running towards the next column; those words are no part of the description.
  const uomTok = cells.get('uom')?.[0];
  const unitBracket = uomTok && !/[^\x00-\x7f]/.test(line) ? /^([A-Za-z]{2,8})\s*\((\d{1,5})(?:\s*(?:ea|each|pcs?|pieces|ct|units?))?\)/i.exec(line.slice(uomTok.start)) : null;
  const bracketSpan = unitBracket ? [uomTok!.start, uomTok!.start + unitBracket[0].length] : undefined;
  const packed = unitWithPack(uomWord) ?? (unitBracket ? unitWithPack(`${unitBracket[1]}/${unitBracket[2]}`) : undefined);
  const uom = unitCode(uomWord) ?? packed?.uom ?? unitCode(cells.get('uom')?.[0]?.text) ?? priced?.uom;
  if (uom) row.uom = uom;
  if (priced?.uom) row.priceUom = priced.uom;
  const pack = packSize(joinText(cells.get('pack'))) ?? (packed?.uom === uom ? packed?.pack : undefined);
  if (pack !== undefined) row.pack = pack;
  const skuToks = cells.get('sku') ?? [];
  // Words of the description that ran under the price column ("CUBETA 19 L") keep their printed order.
  const spilled = priced ? spill.filter((t) => t.text !== uomWord) : [];
  const inBracket = (t: Tok) => bracketSpan !== undefined && t.start >= bracketSpan[0] && t.end <= bracketSpan[1];
  const descToks = [...(cells.get('desc') ?? []), ...spilledNumbers, ...spilled].filter((t) => !inBracket(t)).sort((a, b) => a.start - b.start);
  const descWords = [joinText(descToks), ...qty.words.filter((w) => unitCode(w) === undefined)].filter(Boolean);
  // SAP prints "Item 00010" and "Material 520-1150" side by side: a digits-only item number is the PO line.
  if (skuToks.length > 1 && /^\d{1,6}$/.test(skuToks[0].text) && /[\d-]/.test(skuToks[1].text)) row.orderLineRef = skuToks.shift()!.text;
  // "SALMON … 2-3#   7011452": a number printed apart at the end of the item cells is the item number.
  const last = skuToks[skuToks.length - 1];
  const apart = skuToks.length > 1 && last.start - skuToks[skuToks.length - 2].end >= 2 && /^[A-Z0-9][A-Za-z0-9._/#-]{2,}$/.test(last.text) && /\d/.test(last.text) && !/[a-z]{3}/.test(last.text);
  const first = skuToks[0]?.text.replace(/[:,]$/, '');
  if (apart) {
    row.sku = last.text;
    descWords.unshift(joinText(skuToks.slice(0, -1)));
  } else if (first && /^[A-Z0-9][A-Za-z0-9._/#-]{2,}$/.test(first) && /[\d-]/.test(first) && !/[a-z]{3}/.test(first)) {
    row.sku = first;
    descWords.unshift(...skuToks.slice(1).map((t) => t.text));
  } else if (skuToks.length > 0) descWords.unshift(joinText(skuToks));
  const lineNo = joinText(cells.get('line'));
  if (/^\d{1,6}$/.test(lineNo)) row.orderLineRef ??= lineNo;
  row.description = descWords.join(' ').trim() || undefined;
  // Odoo prints the product's internal reference in brackets before its name: "[FE-500-300] Film étirable …".
  const bracket = row.description !== undefined ? /^\[([^\]\s]{2,40})\]\s*(.*)$/.exec(row.description) : null;
  if (bracket && row.sku === undefined) {
    row.sku = bracket[1];
    row.description = bracket[2] || row.description;
  }
  applyDiscount(row, cells.get('disc'), decimal);
  if (row.pack === undefined && row.description) row.pack = packSize(/\b(?:pack|case|box|carton|bag|bundle) of \d+/i.exec(row.description)?.[0]);
  return row;
}

/**
 * A discount column ("Korting %  5,00", "Disc %  10"): when quantity × price less that share is the row's amount, the
 * amount is the line's net and its price per unit is that amount ÷ quantity (no price is kept to compare gross with
 * net). A discount the arithmetic does not confirm changes nothing: the document's arithmetic check judges the row.
 */
function applyDiscount(row: RawLine, toks: Tok[] | undefined, decimal: Decimal): void {
  const text = joinText(toks).replace(/\s*%$/, '').trim();
  if (!text || row.unitPrice === undefined || row.amount === undefined || row.quantity === undefined) return;
  const rate = readNumber(text, decimal);
  if (rate === undefined || rate <= 0n || rate >= 100n * SCALE) return;
  const gross = lineAmount(row.quantity, row.unitPrice, row.priceBase);
  const net = (gross * (100n * SCALE - rate)) / (100n * SCALE);
  if (abs(gross - row.amount) <= CENT || abs(net - row.amount) > CENT) return;
  row.unitPrice = undefined;
  row.priceBase = undefined;
}
