/**
 * Plain-text purchase orders and invoices: "Key: value" headers and item lines such as
 * "WID-10 Widget 10mm 100 x $2.50 = $250.00", "2 @ 12.00 Office chair", "WID-10 Widget 100 2.50 250.00" or
 * "Setup fee $150.00". Token scanning only (no backtracking regex over a whole line), so 1 MB is linear.
 */
import { AgentInputError } from '../port.js';
import { chargeKind, completeLine, headerKey, type Doc, type RawLine } from './document.js';
import { lineAmount, abs, parseDecimal, SCALE } from './decimal.js';
import { chargeLine } from './xml-lines.js';
import { detectDecimal } from './number.js';
import { unitCode } from './units.js';
import { readTable } from './text-table.js';
import { IDENTIFIER_LINE } from './text-shifted.js';
import { readColumnTotals, readSummaries, readSummary } from './text-summary.js';
import { settleSummary, type SummaryLine } from './text-totals.js';
import { unmarkAmounts } from './text-marks.js';
import { findPoNumber, findVendor, currencyCode, currencyIn } from './text-headers.js';

const KEY_VALUE = /^([A-Za-z][A-Za-z0-9 #./_-]{0,40}?)\s*:\s*(.*)$/;
const KEYWORD_VALUE = /^(sub-?total|grand total|total due|amount due|balance due|total|tax|vat|gst|shipping|freight)\s+(.*)$/i;
const TIMES = new Set(['x', 'X', '×', '@', 'at']);
const UNIT_WORD = /^(?:ea|each|pcs?|units?|ton|tons|yd|yds|yards?|hrs?|hours?|rolls?|bags?|cases?|cs|boxe?s?|bx|packs?|pk|kg|lbs?|m|ft|sets?|pairs?)$/i;
const SKIP_AFTER_PRICE = new Set(['each', 'ea', 'ea.', '/ea', 'per', 'unit', '/unit', 'apiece']);
const CURRENCY_TOKEN = /^(?:US\$|\$|€|£|¥|USD|EUR|GBP|CAD|AUD)$/i;
const HAS_CURRENCY = /[$€£¥]|USD|EUR|GBP|CAD|AUD/i;
/** First words of a totals or payment line, never an item ("Amount paid $100", "Discount $10"). */
const NOT_AN_ITEM = /^(?:paid|payment|deposit|discount|balance|credit|amount|total|subtotal|sub-total|tax|vat|gst|shipping|freight|less)\b/i;
const CODES = /\b(USD|EUR|GBP|CAD|AUD|JPY|CHF)\b|€|£/g;

export function readTextDocument(sent: string, field: string): Doc {
  const { text, currency: marked } = unmarkAmounts(sent);
  const all = text.split('\n');
  const decimal = detectDecimal(text);
  const table = readTable(all, decimal, field === 'invoice' ? 'invoice' : 'order');
  const doc: Doc = table ? readTabled(all, table, decimal, field) : readLines(text, field);
  doc.poNumber ??= findPoNumber(all, field === 'invoice');
  doc.vendor ??= findVendor(all, field === 'invoice');
  if (doc.currency !== undefined) doc.currency = currencyCode(doc.currency);
  if (doc.currency === undefined || !/^[A-Z]{3}$/.test(doc.currency)) doc.currency = currencyIn(text) ?? marked ?? doc.currency;
  return doc;
}

/** A document with a printed table: its rows are the items; summary lines below it are subtotal, charges, total. */
function readTabled(all: string[], table: NonNullable<ReturnType<typeof readTable>>, decimal: ReturnType<typeof detectDecimal>, field: string): Doc {
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  for (const r of table.rows) {
    // A row that bills freight or a fee by name ("Frais de port  Franco  1 forfait  0,00", "Freight 1 x 45.00") is a
    // charge the PO's terms judge, never an item; one billed at nothing is no charge at all.
    const kind = (r.quantity ?? SCALE) <= SCALE ? chargeLine(r.description, r.sku) : undefined;
    if (kind) {
      const amount = r.amount ?? r.unitPrice ?? 0n;
      if (amount !== 0n) doc.charges.push({ label: r.description ?? r.sku ?? 'charge', amount, kind, cite: r.cites?.[0], inLines: true });
      continue;
    }
    doc.lines.push(completeLine(r, doc.lines.length + 1, field));
  }
  const summary: SummaryLine[] = [];
  all.forEach((line, i) => {
    if (table.used.has(i) || line.trim() === '') return;
    const trimmed = line.trim().replace(/^[-*•]\s+/, '');
    if (i > table.header) {
      const columns = readColumnTotals(line, decimal);
      if (columns) {
        for (const s of columns) summary.push({ ...s, cite: { line: i + 1 }, quote: trimmed.replace(/\s{2,}/g, '  ') });
        return;
      }
      const several = readSummaries(line, decimal);
      for (const s of several ?? []) summary.push({ ...s, cite: { line: i + 1 }, quote: trimmed.replace(/\s{2,}/g, '  ') });
      const s = several ? undefined : readSummary(line, decimal);
      if (several) return;
      if (s) {
        summary.push({ ...s, cite: { line: i + 1 }, quote: trimmed.replace(/\s{2,}/g, '  ') });
        return;
      }
    }
    const colon = KEY_VALUE.exec(trimmed);
    const h = colon ? headerKey(colon[1]) : undefined;
    if (colon && (h === 'poNumber' || h === 'currency') && colon[2].trim()) {
      doc[h] ??= colon[2].trim().split(/\s{2,}/)[0];
      return;
    }
    doc.unread++;
  });
  // "Total: 1,111.50" but no separate net line: the net is the lines' sum, checked by the engine.
  settleSummary(doc, summary);
  return doc;
}

/**
 * E-mail layouts put an item's name on one line and "6 ton x $78.00 ...... $468.00" (or "@ $38.90/cs = $389.00")
 * on the next: such a numbers-first line without a name of its own is joined to the line above it.
 */
function joinWrappedItems(raw: string[]): { text: string; lines: number[] }[] {
  const out: { text: string; lines: number[] }[] = [];
  const clean = (l: string) => l.replace(/\.{3,}/g, ' ').trim().replace(/^[-*•]\s+/, '');
  for (const [i, l] of raw.entries()) {
    const line = clean(l);
    const prev = out.length > 0 ? out[out.length - 1].text : '';
    const numbersFirst = /^(?:[@x×]\s|\d[\d.,]*\s+(?:[A-Za-z]{1,6}\s+)?[x×@]\s)/.test(line);
    // The line above is a name when it has words and no amount of its own.
    if (numbersFirst && /[A-Za-z]{3}/.test(prev) && !/\d\s*[x×@]\s*(?:[$€£]\s*\d|\d+[.,]\d)/.test(prev) && !/\d[.,]\d{2}\s*$/.test(prev) && !KEY_VALUE.test(prev)) {
      out[out.length - 1] = { text: `${prev} ${line}`, lines: [...out[out.length - 1].lines, i + 1] };
      continue;
    }
    out.push({ text: line, lines: [i + 1] });
  }
  return out;
}

function readLines(text: string, field: string): Doc {
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  const poMentions = new Set<string>();
  for (const { text: line, lines } of joinWrappedItems(text.split('\n'))) {
    if (line.length === 0) continue;
    if (readHeader(line, doc, field, lines[0])) continue;
    const item = readItem(line);
    if (item) {
      item.cites = lines.map((n) => ({ line: n }));
      doc.lines.push(completeLine(item, doc.lines.length + 1, field));
      continue;
    }
    for (const t of line.split(/\s+/)) if (/^#?PO[-#]?\d[\w-]*$/i.test(t)) poMentions.add(t.replace(/^#/, '').toUpperCase());
    doc.unread++;
  }
  // "Invoice for PO-1042" without a header: used only when exactly one PO number is mentioned.
  if (doc.poNumber === undefined && poMentions.size === 1) doc.poNumber = [...poMentions][0];
  if (doc.currency === undefined) {
    const codes = new Set([...text.matchAll(CODES)].map((m) => ({ '€': 'EUR', '£': 'GBP' })[m[0]] ?? m[0]));
    if (codes.size === 1) doc.currency = [...codes][0];
  }
  return doc;
}

function readHeader(line: string, doc: Doc, field: string, at: number): boolean {
  const colon = KEY_VALUE.exec(line);
  const m = colon ?? KEYWORD_VALUE.exec(line);
  if (!m) return false;
  const h = headerKey(m[1]);
  if (h === undefined) return false;
  const value = m[2].trim();
  // "Supplier #: 20133" is the vendor's number at the buyer, not its name.
  if (h === 'vendor' && /#|\bno\.?$|number|\bid$|acct|account/i.test(m[1])) return false;
  if (h === 'poNumber' || h === 'vendor' || h === 'currency') {
    // "Purchase Order: PO3318702        Version: 1": another column starts after a wide gap.
    if (h !== 'vendor') {
      doc[h] = value.split(/\s{2,}/)[0] || undefined;
      return true;
    }
    doc[h] = value || undefined;
    return true;
  }
  const amount = parseDecimal(value);
  if (amount === undefined) {
    // "Total: 1e309" is an unreadable document; "Shipping: UPS Ground" or "Total due in 30 days" is just a remark.
    if (h === 'charge' || !colon) return false;
    throw new AgentInputError(field, `${m[1].trim()} "${value.slice(0, 40)}" is not an amount`);
  }
  if (h === 'charge') doc.charges.push({ label: m[1].trim(), amount, kind: chargeKind(m[1]), cite: { line: at } });
  else {
    doc[h] = amount;
    if (h === 'total') doc.totalCite = { line: at };
  }
  return true;
}

/** Money token, joining a currency sign or code written apart ("$ 2.50", "2.50 USD"), with a per-unit suffix
 * ("$38.90/cs"); returns tokens used. */
function money(tokens: string[], i: number): { value: bigint; used: number; marked: boolean; uom?: string } | undefined {
  if (i >= tokens.length) return undefined;
  const per = /^(.*\d)\/([A-Za-z]{1,6})$/.exec(tokens[i]);
  if (per) {
    const value = parseDecimal(per[1]);
    return value === undefined ? undefined : { value, used: 1, marked: HAS_CURRENCY.test(per[1]), uom: unitCode(per[2]) };
  }
  if (CURRENCY_TOKEN.test(tokens[i]) && i + 1 < tokens.length) {
    const value = parseDecimal(tokens[i + 1]);
    return value === undefined ? undefined : { value, used: 2, marked: true };
  }
  const value = parseDecimal(tokens[i]);
  if (value === undefined) return undefined;
  const coded = i + 1 < tokens.length && CURRENCY_TOKEN.test(tokens[i + 1]);
  return { value, used: coded ? 2 : 1, marked: coded || HAS_CURRENCY.test(tokens[i]) };
}

function readItem(line: string): RawLine | undefined {
  if (IDENTIFIER_LINE.test(line)) return undefined;
  const tokens = line
    .replace(/(\d)\s*[xX×]\s*(?=[$€£¥\d])/g, '$1 x ')
    .replace(/[@=×]/g, ' $& ')
    .split(/\s+/)
    .filter((t) => t.length > 0);
  return timesItem(tokens) ?? tableItem(tokens) ?? lumpItem(tokens);
}

/** "[SKU] [description] QTY x PRICE [each] [= TOTAL] [description]". */
function timesItem(tokens: string[]): RawLine | undefined {
  let best: { i: number; quantity: bigint; price: ReturnType<typeof money> & object; score: number; q: number } | undefined;
  for (let i = 1; i + 1 < tokens.length; i++) {
    if (!TIMES.has(tokens[i])) continue;
    // "6 ton x $78.00": a unit word between the quantity and the sign; "10 cases liners … @ $38.90/cs": the quantity
    // opens the line.
    let q = i - 1;
    if (parseDecimal(tokens[q]) === undefined && q >= 1 && (UNIT_WORD.test(tokens[q]) || unitCode(tokens[q]) !== undefined) && parseDecimal(tokens[q - 1]) !== undefined) q--;
    else if (parseDecimal(tokens[q]) === undefined && tokens[i] === '@' && parseDecimal(tokens[0]) !== undefined) q = 0;
    const quantity = parseDecimal(tokens[q]);
    const price = money(tokens, i + 1);
    if (quantity === undefined || price === undefined || HAS_CURRENCY.test(tokens[i - 1])) continue;
    // Prefer "5 x $3.00" over "10 x 10 cm": a currency mark, then a decimal point, then the first.
    const score = price.marked ? 2 : tokens[i + 1].includes('.') ? 1 : 0;
    if (best === undefined || score > best.score) best = { i, quantity, price, score, q };
  }
  if (!best) return undefined;
  let j = best.i + 1 + best.price.used;
  while (j < tokens.length && SKIP_AFTER_PRICE.has(tokens[j].toLowerCase())) j++;
  let amount: bigint | undefined;
  if (tokens[j] === '=') {
    const total = money(tokens, j + 1);
    if (total) {
      amount = total.value;
      j += 1 + total.used;
    }
  } else {
    const total = money(tokens, j);
    if (total?.marked) {
      amount = total.value;
      j += total.used;
    }
  }
  const words = best.q === 0 ? tokens.slice(1, best.i) : tokens.slice(0, best.q);
  const unit = best.q === 0 ? unitCode(tokens[1]) : best.q < best.i - 1 ? unitCode(tokens[best.i - 1]) : undefined;
  return named(best.q === 0 ? words.slice(unit ? 1 : 0) : words, tokens.slice(j), {
    ...(unit || best.price.uom ? { uom: unit ?? best.price.uom } : {}),
    quantity: best.quantity,
    unitPrice: best.price.value,
    amount,
  });
}

/** "[SKU] description QTY PRICE TOTAL" where QTY × PRICE = TOTAL to the cent. */
function tableItem(tokens: string[]): RawLine | undefined {
  const n = tokens.length;
  if (n < 4) return undefined;
  const [quantity, unitPrice, amount] = tokens.slice(n - 3).map(parseDecimal);
  if (quantity === undefined || unitPrice === undefined || amount === undefined) return undefined;
  if (abs(lineAmount(quantity, unitPrice) - amount) > 10_000n) return undefined;
  return named(tokens.slice(0, n - 3), [], { quantity, unitPrice, amount });
}

/** "Setup fee $150.00": one unit at a currency-marked amount written last. */
function lumpItem(tokens: string[]): RawLine | undefined {
  for (const start of [tokens.length - 2, tokens.length - 1]) {
    if (start < 1) continue;
    const m = money(tokens, start);
    if (m && m.marked && start + m.used === tokens.length) return named(tokens.slice(0, start), [], { amount: m.value });
  }
  return undefined;
}

/** Splits the words around the numbers into an optional leading SKU and a description. */
function named(before: string[], after: string[], numbers: RawLine): RawLine | undefined {
  const words = [...before];
  if (words.length > 0 && /^\d+[.)]$/.test(words[0])) words.shift(); // "1." / "2)" line numbers
  let sku: string | undefined;
  const first = words[0]?.replace(/:$/, '');
  if (first !== undefined && /^[A-Z0-9][A-Z0-9._/-]{2,}$/.test(first) && /\d/.test(first) && /[A-Z-]/.test(first)) {
    sku = first;
    words.shift();
  }
  if (NOT_AN_ITEM.test(words[0] ?? after[0] ?? '')) return undefined;
  let description = trimPunctuation([...words, ...after].join(' ')) || undefined;
  // "Basalt cobble 4-8\" (BAS-COB-48)", "trash liners (your #TL4045-15B)": the bracketed code is the item number.
  const code = description ? /\((?:your\s*)?#?\s*([A-Z0-9][A-Z0-9._/-]{2,})\)/i.exec(description) : null;
  if (sku === undefined && code && /[\d-]/.test(code[1])) {
    sku = code[1];
    description = trimPunctuation(description!.replace(code[0], ' ').replace(/\s+/g, ' ')) || undefined;
  }
  if (sku === undefined && description === undefined) return undefined;
  return { ...numbers, sku, description };
}

/** Leading and trailing separators ("- Widget |") off, without a backtracking regex. */
function trimPunctuation(s: string): string {
  const edge = '-–:|, ';
  let start = 0;
  let end = s.length;
  while (start < end && edge.includes(s[start])) start++;
  while (end > start && edge.includes(s[end - 1])) end--;
  return s.slice(start, end);
}
