/**
 * Plain-text purchase orders and invoices: "Key: value" headers and item lines such as
 * "WID-10 Widget 10mm 100 x $2.50 = $250.00", "2 @ 12.00 Office chair", "WID-10 Widget 100 2.50 250.00" or
 * "Setup fee $150.00". Token scanning only (no backtracking regex over a whole line), so 1 MB is linear.
 */
import { AgentInputError } from '../port.js';
import { completeLine, headerKey, type Doc, type RawLine } from './document.js';
import { lineAmount, abs, parseDecimal } from './decimal.js';

const KEY_VALUE = /^([A-Za-z][A-Za-z0-9 #./_-]{0,40}?)\s*:\s*(.*)$/;
const KEYWORD_VALUE = /^(sub-?total|grand total|total due|amount due|balance due|total|tax|vat|gst|shipping|freight)\s+(.*)$/i;
const TIMES = new Set(['x', 'X', '×', '@', 'at']);
const SKIP_AFTER_PRICE = new Set(['each', 'ea', 'ea.', '/ea', 'per', 'unit', '/unit', 'apiece']);
const CURRENCY_TOKEN = /^(?:US\$|\$|€|£|¥|USD|EUR|GBP|CAD|AUD)$/i;
const HAS_CURRENCY = /[$€£¥]|USD|EUR|GBP|CAD|AUD/i;
/** First words of a totals or payment line, never an item ("Amount paid $100", "Discount $10"). */
const NOT_AN_ITEM = /^(?:paid|payment|deposit|discount|balance|credit|amount|total|subtotal|sub-total|tax|vat|gst|shipping|freight|less)\b/i;
const CODES = /\b(USD|EUR|GBP|CAD|AUD|JPY|CHF)\b|€|£/g;

export function readTextDocument(text: string, field: string): Doc {
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  const poMentions = new Set<string>();
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim().replace(/^[-*•]\s+/, '');
    if (line.length === 0) continue;
    if (readHeader(line, doc, field)) continue;
    const item = readItem(line);
    if (item) {
      doc.lines.push(completeLine(item, doc.lines.length + 1, field));
      continue;
    }
    for (const t of line.split(/\s+/)) if (/^PO[-#]?\d[\w-]*$/i.test(t)) poMentions.add(t.toUpperCase());
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

function readHeader(line: string, doc: Doc, field: string): boolean {
  const colon = KEY_VALUE.exec(line);
  const m = colon ?? KEYWORD_VALUE.exec(line);
  if (!m) return false;
  const h = headerKey(m[1]);
  if (h === undefined) return false;
  const value = m[2].trim();
  if (h === 'poNumber' || h === 'vendor' || h === 'currency') {
    doc[h] = value || undefined;
    return true;
  }
  const amount = parseDecimal(value);
  if (amount === undefined) {
    // "Total: 1e309" is an unreadable document; "Shipping: UPS Ground" or "Total due in 30 days" is just a remark.
    if (h === 'charge' || !colon) return false;
    throw new AgentInputError(field, `${m[1].trim()} "${value.slice(0, 40)}" is not an amount`);
  }
  if (h === 'charge') doc.charges.push({ label: m[1].trim(), amount });
  else doc[h] = amount;
  return true;
}

/** Money token, joining a currency sign or code written apart ("$ 2.50", "2.50 USD"); returns tokens used. */
function money(tokens: string[], i: number): { value: bigint; used: number; marked: boolean } | undefined {
  if (i >= tokens.length) return undefined;
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
  const tokens = line
    .replace(/(\d)\s*[xX×]\s*(?=[$€£¥\d])/g, '$1 x ')
    .replace(/[@=×]/g, ' $& ')
    .split(/\s+/)
    .filter((t) => t.length > 0);
  return timesItem(tokens) ?? tableItem(tokens) ?? lumpItem(tokens);
}

/** "[SKU] [description] QTY x PRICE [each] [= TOTAL] [description]". */
function timesItem(tokens: string[]): RawLine | undefined {
  let best: { i: number; quantity: bigint; price: ReturnType<typeof money> & object; score: number } | undefined;
  for (let i = 1; i + 1 < tokens.length; i++) {
    if (!TIMES.has(tokens[i])) continue;
    const quantity = parseDecimal(tokens[i - 1]);
    const price = money(tokens, i + 1);
    if (quantity === undefined || price === undefined || HAS_CURRENCY.test(tokens[i - 1])) continue;
    // Prefer "5 x $3.00" over "10 x 10 cm": a currency mark, then a decimal point, then the first.
    const score = price.marked ? 2 : tokens[i + 1].includes('.') ? 1 : 0;
    if (best === undefined || score > best.score) best = { i, quantity, price, score };
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
  return named(tokens.slice(0, best.i - 1), tokens.slice(j), {
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
  const description = trimPunctuation([...words, ...after].join(' ')) || undefined;
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
