/**
 * The structured forms of a claim: JSON (one expense, an array, or { items | expenses: [...] }) and a CSV export with
 * a header row (Expensify, SAP Concur, Ramp and the like), columns and keys recognised by name. Each record is one
 * expense; it keeps the line of the text it was read from so a violation can cite it.
 */
import { AgentInputError } from '../port.js';
import { parseCents } from '../text/amount.js';
import { readCsv, detectDelimiter } from '../text/table.js';
import type { Item } from './expense.js';
import { textFacts, type Facts } from './line.js';
import { ALCOHOL, FINE, OTHER_CODES, categoriesIn, fareClassIn } from './words.js';

const FIELD = 'expense';
const MAX_ROWS = 5_000;
const key = (k: string) => k.toLowerCase().replace(/[^a-z0-9]/g, '');
const has = (...names: string[]) => new Set(names);
const K = {
  category: has('category', 'type', 'expensetype', 'kind', 'expensecategory', 'categoryname', 'expensetypename', 'spendcategory'),
  amount: has('amount', 'total', 'cost', 'price', 'value', 'totalamount', 'expenseamount', 'transactionamount'),
  currency: has('currency', 'currencycode', 'ccy', 'transactioncurrency', 'transactioncurrencycode'),
  people: has('attendees', 'people', 'persons', 'headcount', 'guests', 'pax', 'participants', 'diners', 'numberofattendees'),
  nights: has('nights', 'numberofnights'),
  days: has('days', 'numberofdays'),
  receipt: has('receipt', 'hasreceipt', 'receiptattached', 'receiptprovided', 'receipts', 'receipturl', 'receiptstatus', 'receiptreceived', 'receiptimage'),
  description: has('description', 'desc', 'memo', 'note', 'notes', 'details', 'purpose', 'title', 'comment', 'comments', 'businesspurpose'),
  fareClass: has('class', 'fareclass', 'cabin', 'cabinclass', 'travelclass', 'seatclass', 'bookingclass'),
  merchant: has('merchant', 'vendor', 'payee', 'restaurant', 'hotel', 'merchantname', 'vendorname', 'supplier'),
  alcohol: has('alcohol', 'alcoholamount', 'alcoholcost'),
  payment: has('payment', 'paymenttype', 'paymentmethod', 'paidby', 'fundingsource'),
  breakdown: has('lines', 'items', 'breakdown', 'lineitems', 'itemised', 'itemized'),
  date: has('date', 'timestamp', 'transactiondate', 'expensedate', 'txndate', 'posteddate', 'purchasedate', 'spenddate'),
};
type Field = keyof typeof K;
const FIELDS = Object.keys(K) as Field[];
const CONTAINER = has('items', 'expenses', 'lines', 'claims');
/** The columns that say what an expense is: a row with none of them filled is a footer, not an expense. */
const IDENTIFYING = new Set<Field | undefined>(['date', 'merchant', 'description', 'category']);

export function jsonItems(text: string): Item[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AgentInputError(FIELD, 'looks like JSON but does not parse');
  }
  let list: unknown[];
  let approvals: Map<string, Record<string, unknown>> = new Map();
  if (Array.isArray(parsed)) list = parsed;
  else if (isObject(parsed)) {
    const entries = Object.entries(parsed);
    const container = entries.find(([k, v]) => CONTAINER.has(key(k)) && Array.isArray(v));
    const hasAmount = entries.some(([k]) => K.amount.has(key(k)));
    // A report's own "total" is the sum of its items, not an expense: the items are the claim when they carry amounts.
    const itemised = container !== undefined && (container[1] as unknown[]).some((v) => isObject(v) && Object.keys(v).some((k) => K.amount.has(key(k))));
    list = container && (!hasAmount || itemised) ? (container[1] as unknown[]) : [parsed];
    approvals = approvalRecords(entries);
  } else throw new AgentInputError(FIELD, 'JSON must be an expense object or a list of them');
  let cursor = 0;
  return list.map((entry, i) => {
    const item = jsonItem(entry, i + 1, `item ${i + 1}`);
    const found = locate(text, entry, cursor);
    if (found) {
      cursor = found.at + 1;
      item.at = [{ field: 'expense', line: found.line, quote: found.quote }];
    }
    const id = isObject(entry) ? Object.entries(entry).find(([k, v]) => /approv/i.test(k) && typeof v === 'string' && v.trim() !== '')?.[1] : undefined;
    if (typeof id === 'string') {
      const record = approvals.get(id.trim().toLowerCase());
      const status = String(record?.status ?? record?.state ?? '').toLowerCase();
      const scope = Object.values(record ?? {}).filter((v) => typeof v === 'string').join(' ');
      const limit = /\bup to\s+(?:US)?\$\s?([\d,]+(?:\.\d{2})?)/i.exec(scope)?.[1];
      item.preapproval = {
        id: id.trim(),
        approved: record !== undefined && (status === '' || /^(?:approved|granted|valid|active)$/.test(status)),
        limit: limit ? parseCents(limit) : undefined,
        text: record ? JSON.stringify(record).slice(0, 200) : id.trim(),
      };
    }
    return item;
  });
}

/**
 * Where a JSON item is written in the text, from `from` on: its first text value (its description, merchant or
 * category) as written, else its amount; the line it is on, for the item's evidence.
 */
function locate(text: string, entry: unknown, from: number): { at: number; line: number; quote: string } | undefined {
  if (!isObject(entry)) return undefined;
  const values = Object.values(entry);
  const candidates = [
    ...values.filter((v): v is string => typeof v === 'string' && v.trim().length >= 3).map((v) => JSON.stringify(v)),
    ...Object.entries(entry).filter(([k, v]) => K.amount.has(key(k)) && (typeof v === 'number' || typeof v === 'string')).map(([, v]) => String(v)),
  ];
  for (const quote of candidates) {
    const at = text.indexOf(quote, from);
    if (at < 0) continue;
    const line = (text.slice(0, at).match(/\r\n|\r|\n/g) ?? []).length + 1;
    return { at, line, quote };
  }
  return undefined;
}

/** A report's pre-approval records ({ "preapprovals": [{ "id", "status", "scope" }] }) by id. */
function approvalRecords(entries: [string, unknown][]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const [k, v] of entries) {
    if (!/approv/i.test(k) || !Array.isArray(v)) continue;
    for (const r of v) if (isObject(r) && typeof r.id === 'string') out.set(r.id.trim().toLowerCase(), r);
  }
  return out;
}

/**
 * A CSV export's column → the field it holds: an exact name ("Expense Type", "Receipt Status"), else a word in it
 * ("Amount (USD)" → amount). "Original Amount" / "Original Currency" (Expensify's pre-conversion figures) are not
 * the claim. Unknown columns (MCC, Tag, Employee) are not read.
 */
function columnField(header: string): { field?: Field; currency?: string } {
  const words = header.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  const code = new RegExp(`(?:^| )(usd|eur|gbp|cad|aud|jpy|${OTHER_CODES})$`).exec(words)?.[1];
  const bare = (code ? words.slice(0, -code.length) : words).trim();
  const exact = FIELDS.find((f) => K[f].has(bare.replace(/ /g, '')));
  if (exact) return { field: exact, currency: code?.toUpperCase() };
  if (/\boriginal\b/.test(bare)) return {};
  const word = (re: RegExp) => re.test(bare);
  const field: Field | undefined = word(/\bamount\b/) ? 'amount' : word(/\breceipts?\b/) ? 'receipt' : word(/\bdate\b/) ? 'date'
    : word(/\b(?:merchant|vendor)\b/) ? 'merchant' : word(/\bcategory\b/) ? 'category' : word(/\bcurrency\b/) ? 'currency'
    : word(/\battendees?\b/) ? 'people' : word(/\b(?:description|memo|comments?|purpose)\b/) ? 'description' : undefined;
  return { field, currency: code?.toUpperCase() };
}

/** Whether a line is a header row: two or more cells, no digits, an amount column and another known one. */
function headerRow(line: string): { cells: number } | undefined {
  const cells = line.split(detectDelimiter(line)).map((c) => c.trim().replace(/^"|"$/g, ''));
  if (cells.length < 2 || cells.some((c) => /\d/.test(c))) return undefined;
  const fields = cells.map((c) => columnField(c).field);
  return fields.includes('amount') && fields.filter((f) => f !== undefined).length >= 2 ? { cells: cells.length } : undefined;
}

/**
 * The line (0-based) of a CSV export's header row: the first line, or the first wide header row under the export's
 * own preamble (a title, "Report ID:,ER-2025-08-004417", "Submitted:,18/08/2025", blank lines: at most two cells a
 * line), as Chrome River and Certify print their report exports.
 */
function headerAt(text: string): number | undefined {
  const lines = text.slice(0, Math.min(text.length, 6000)).split(/\r\n|\r|\n/).slice(0, 30);
  if (lines.length > 0 && headerRow(lines[0])) return 0;
  for (let k = 1; k < lines.length; k++) {
    const found = headerRow(lines[k]);
    if (found && found.cells >= 5) return k;
    const d = detectDelimiter(lines[k]);
    if (lines[k].split(d).filter((c) => c.trim() !== '').length > 2) return undefined;
  }
  return undefined;
}

/** Whether the claim is a CSV export: a header row first, or under the export's preamble. */
export function csvHeader(text: string): boolean {
  return headerAt(text) !== undefined;
}

export function csvItems(text: string): Item[] {
  const lines = text.split(/\r\n|\r|\n/);
  // Under a preamble the table starts at its header row; its rows keep the lines of the whole text.
  const skip = headerAt(text) ?? 0;
  const read = readCsv(lines.slice(skip).join('\n'), FIELD, MAX_ROWS);
  const headers = read.headers;
  const rows = read.rows.map((r) => ({ ...r, line: r.line > 0 ? r.line + skip : 0 }));
  const columns = headers.map(columnField);
  const headerCurrency = columns.find((c) => c.field === 'amount' && c.currency)?.currency;
  // A totals row an export appends (";;;;Total;1.569,10;1.569,10;;") sums the rows above it: it is no expense.
  const summary = (cells: string[]) => {
    const words = cells.map((c) => c.trim()).filter((c) => c !== '' && !/^[-+(]?[$€£¥]?\d[\d.,]*\)?$/.test(c));
    if (words.length > 0 && words.every((c) => /^(?:report |grand |claim )?totals?:?$|^(?:summe|gesamt|gesamtsumme|total général)$/i.test(c))) return true;
    // A report's footer rows (",,,,,,,Company Paid,,,0.00", "Amount Due Employee 940.83") name no date, merchant,
    // description or category: a label and its sum, written under another column, never an expense.
    return words.length > 0 && !cells.some((c, k) => c.trim() !== '' && IDENTIFYING.has(columns[k]?.field ?? 'amount'));
  };
  // A line of one cell with no amount under the table ("Exported 18/08/2025 10:05 by …") is the export's note.
  const note = (cells: string[]) => headers.length >= 3 && cells.filter((c) => c.trim() !== '').length === 1 &&
    !cells.some((c, k) => c.trim() !== '' && columns[k]?.field === 'amount');
  // The amount in the reimbursement currency ("Amount (AUD)" beside "Spent Amount" and "Spent Currency") is the claim.
  const coded = columns.findIndex((c) => c.field === 'amount' && c.currency !== undefined);
  return rows.filter((row) => !summary(row.cells) && !note(row.cells)).map((row, i) => {
    const entry: Record<string, unknown> = {};
    // A column named for the field ("Category") is read before a looser one ("Type": Brex prints "Reimbursement"), and
    // the expense's date before the report's ("Submitted Date", "Approved Date").
    const loose = (h: string) => Number(/^\W*type\W*$|\b(?:submit\w*|submission|approv\w*|report)\b/i.test(h));
    const order = columns.map((_, k) => k).sort((a, b) => Number(b === coded) - Number(a === coded) || loose(headers[a]) - loose(headers[b]));
    for (const k of order) {
      const field = columns[k].field;
      const cell = (row.cells[k] ?? '').trim();
      if (field !== undefined && cell !== '' && entry[field] === undefined) entry[field] = cell;
    }
    if (coded >= 0 && (row.cells[coded] ?? '').trim() !== '') entry.currency = columns[coded].currency;
    // An empty receipt cell is an export's way of saying there is none.
    if (columns.some((c) => c.field === 'receipt') && entry.receipt === undefined) entry.receipt = false;
    if (entry.currency === undefined && headerCurrency) entry.currency = headerCurrency;
    // No amount in the reimbursement currency (a cash expense not converted yet): the expense is its original amount
    // in its own currency, which the currency rule holds until the conversion is supplied.
    if (entry.amount === undefined) {
      const at = (re: RegExp) => headers.findIndex((h) => re.test(h));
      const [amount, currency] = [at(/^\W*original\W*amount\W*$/i), at(/^\W*original\W*currency\W*$/i)];
      const [a, c] = [(row.cells[amount] ?? '').trim(), (row.cells[currency] ?? '').trim()];
      if (amount >= 0 && currency >= 0 && a !== '' && /^[a-z]{3}$/i.test(c)) {
        entry.amount = a;
        entry.currency = c.toUpperCase();
      }
    }
    const item = jsonItem(entry, i + 1, `row ${i + 1} (line ${row.line})`);
    const raw = row.line > 0 ? lines[row.line - 1]?.trim() : undefined;
    if (raw) item.at = [{ field: 'expense', line: row.line, quote: raw }];
    return item;
  });
}

/** Reference numbers written in a claim (agreement, ticket, confirmation): runs of 6+ digits that are not dates. */
export function refsIn(text: string): string[] {
  return [...new Set((text.match(/(?<![\d.,/-])\d{6,}(?![\d.,/-]\d)/g) ?? []).filter((d) => !/^(?:19|20)\d{6}$/.test(d)))];
}

function jsonItem(entry: unknown, index: number, where: string): Item {
  if (!isObject(entry)) throw new AgentInputError(FIELD, `${where} must be an object`);
  const f: Partial<Record<Field, unknown>> = {};
  for (const [k, v] of Object.entries(entry)) {
    const kk = key(k);
    const name = FIELDS.find((n) => K[n].has(kk));
    if (name !== undefined && f[name] === undefined) f[name] = v;
  }
  const what = (m: string) => `${where} ${m}`;
  const cents = jsonMoney(f.amount, what('amount'));
  if (cents === undefined) throw new AgentInputError(FIELD, `${what('amount')} is missing`);
  const description = [f.merchant, f.description].filter((v) => typeof v === 'string').join(' ');
  const facts: Facts = textFacts(description.toLowerCase());
  const categoryText = typeof f.category === 'string' ? f.category.toLowerCase() : '';
  const category = categoriesIn(categoryText)[0];
  let alcohol: Item['alcohol'] = facts.alcohol;
  if (f.alcohol === true) alcohol = 'unknown';
  else if (f.alcohol === false) alcohol = undefined;
  else if (f.alcohol !== undefined && f.alcohol !== null) alcohol = jsonMoney(f.alcohol, what('alcohol'));
  else if (ALCOHOL.test(categoryText)) alcohol = cents; // an expense filed as "Alcohol" or "Wine" is alcohol throughout
  else if (Array.isArray(f.breakdown)) {
    for (const [i, part] of f.breakdown.entries()) {
      if (!isObject(part)) continue;
      const text = Object.values(part).filter((v) => typeof v === 'string').join(' ').toLowerCase();
      if (!ALCOHOL.test(text)) continue;
      const amount = Object.entries(part).find(([k]) => K.amount.has(key(k)))?.[1];
      const c = jsonMoney(amount, what(`breakdown ${i + 1} amount`));
      alcohol = c === undefined || alcohol === 'unknown' ? 'unknown' : (alcohol ?? 0n) + c;
    }
  }
  const dateText = typeof f.date === 'string' && f.date.trim() !== '' ? f.date.trim().slice(0, 40) : facts.dateText;
  const named = description.slice(0, 60) || (typeof f.category === 'string' ? f.category : '');
  const fine = FINE.test(description.toLowerCase());
  return {
    at: [],
    evidence: Object.values(entry).filter((v) => typeof v === 'string' || typeof v === 'number').join(', ').slice(0, 200),
    refs: refsIn(description),
    merchant: typeof f.merchant === 'string' ? f.merchant.trim().toLowerCase() : undefined,
    index,
    label: (dateText && named ? `${dateText.slice(0, 10)} ${named}` : named) || `item ${index}`,
    category: fine ? 'fines' : category ?? facts.category,
    cents,
    currency: typeof f.currency === 'string' ? f.currency.trim().toUpperCase() : facts.currency,
    people: jsonCount(f.people, what('attendees')) ?? facts.people,
    nights: jsonCount(f.nights, what('nights')) ?? facts.nights,
    days: jsonCount(f.days, what('days')) ?? facts.days,
    receipt: jsonReceipt(f.receipt) ?? facts.receipt,
    fareClass: (typeof f.fareClass === 'string' ? fareClassIn(f.fareClass.toLowerCase(), true) : undefined) ?? facts.fareClass,
    alcohol,
    dateText,
    // A charge the company settled itself ("Company Paid", "billed to company") is nothing owed to the employee.
    companyPaid: typeof f.payment === 'string' && COMPANY_PAID.test(f.payment.toLowerCase()) ? f.payment.trim().slice(0, 40) : undefined,
  };
}

const COMPANY_PAID = /^(?:company[- ]paid|paid by (?:the )?company|company billed|billed to (?:the )?company|direct[- ]bill(?:ed)?|central(?:ly)? bill(?:ed)?)\b/;

function jsonMoney(v: unknown, what: string): bigint | undefined {
  if (v === null || v === undefined) return undefined;
  const cents = typeof v === 'number' ? (Number.isFinite(v) && !/e/i.test(String(v)) ? parseCents(String(v)) : undefined) : typeof v === 'string' ? parseCents(v) : undefined;
  if (cents === undefined) throw new AgentInputError(FIELD, `${what} ${typeof v === 'number' ? String(v) : JSON.stringify(v)?.slice(0, 40)} is not an amount (at most 2 decimals)`);
  if (cents < 0n) throw new AgentInputError(FIELD, `${what} is negative`);
  return cents;
}

/** A count: a number, a list (of names), "4", "4 people", or names separated by ; or , ("Ann; Bo; Cy" → 3). */
function jsonCount(v: unknown, what: string): bigint | undefined {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) return BigInt(v.length);
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 10_000) return BigInt(v);
  if (typeof v === 'string') {
    const s = v.trim();
    const n = /^(\d{1,4})(?:\s*(?:people|persons|guests|attendees|pax))?$/i.exec(s);
    if (n) return BigInt(n[1]);
    if (s.length > 0 && s.length <= 2000 && !/\d/.test(s)) return BigInt(s.split(/\s*[;,\n]\s*/).filter((x) => x !== '').length);
  }
  throw new AgentInputError(FIELD, `${what} ${JSON.stringify(v)?.slice(0, 40)} is not a count`);
}

const RECEIPT_NO =
  /^(?:no|n|none|false|0|missing|lost|pending|n\/a|na|-|unavailable|outstanding|to follow|not (?:attached|provided|required|received|available|submitted|uploaded))$|\b(?:no receipt|missing|lost|without|not (?:attached|received|provided))\b/i;

/** A receipt field: a boolean, 1/0, or text ("yes", a file name or URL: true; "", "no", "Missing", "Not attached": false). */
function jsonReceipt(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.trim() !== '' && !RECEIPT_NO.test(v.trim());
  return v === null ? false : undefined;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
