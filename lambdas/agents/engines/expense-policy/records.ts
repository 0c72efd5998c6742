/**
 * The structured forms of a claim: JSON (one expense, an array, or { items | expenses: [...] }) and the records of a
 * CSV export (csv-records.ts finds its columns), keys recognised by name. Each record is one expense; it keeps the
 * line of the text it was read from so a violation can cite it.
 */
import { AgentInputError } from '../port.js';
import { parseCents } from '../text/amount.js';
import type { Item } from './expense.js';
import { textFacts, type Facts } from './line.js';
import { receiptAnswer } from './column-words.js';
import { ALCOHOL, FINE, categoriesIn, fareClassIn } from './words.js';

const FIELD = 'expense';
/** A key or column name as compared: lower case, letters and digits only, accents dropped ("Währung" → "wahrung"). */
export const key = (k: string) => plain(k).replace(/[^a-z0-9]/g, '');
export const plain = (k: string) => k.normalize('NFD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss').toLowerCase();
const has = (...names: string[]) => new Set(names);
export const K = {
  category: has('category', 'type', 'expensetype', 'kind', 'expensecategory', 'categoryname', 'expensetypename', 'spendcategory',
    'kategorie', 'ausgabenart', 'spesenart', 'categorie', 'categoria', 'kategori'),
  amount: has('amount', 'total', 'cost', 'price', 'value', 'totalamount', 'expenseamount', 'transactionamount', 'betrag', 'bruttobetrag', 'montant', 'importe', 'belopp', 'bedrag'),
  currency: has('currency', 'currencycode', 'ccy', 'transactioncurrency', 'transactioncurrencycode', 'wahrung', 'devise', 'moneda', 'valuta', 'waluta'),
  people: has('attendees', 'people', 'persons', 'headcount', 'guests', 'pax', 'participants', 'diners', 'numberofattendees', 'teilnehmer'),
  nights: has('nights', 'numberofnights'),
  days: has('days', 'numberofdays'),
  receipt: has('receipt', 'hasreceipt', 'receiptattached', 'receiptprovided', 'receipts', 'receipturl', 'receiptstatus', 'receiptreceived', 'receiptimage', 'beleg', 'belege', 'justificatif', 'kvitto', 'bewijsstuk'),
  description: has('description', 'desc', 'memo', 'note', 'notes', 'details', 'purpose', 'title', 'comment', 'comments', 'businesspurpose', 'notiz', 'beschreibung', 'zweck', 'bemerkung', 'kommentar', 'anteckning', 'beskrivning', 'omschrijving'),
  fareClass: has('class', 'fareclass', 'cabin', 'cabinclass', 'travelclass', 'seatclass', 'bookingclass'),
  merchant: has('merchant', 'vendor', 'payee', 'restaurant', 'hotel', 'merchantname', 'vendorname', 'supplier', 'handler', 'lieferant', 'fournisseur', 'handlare', 'leverancier'),
  alcohol: has('alcohol', 'alcoholamount', 'alcoholcost'),
  payment: has('payment', 'paymenttype', 'paymentmethod', 'paidby', 'fundingsource', 'zahlungsart', 'zahlungsmittel', 'typedepaiement', 'modedepaiement', 'moyendepaiement'),
  breakdown: has('lines', 'items', 'breakdown', 'lineitems', 'itemised', 'itemized'),
  date: has('date', 'timestamp', 'transactiondate', 'expensedate', 'txndate', 'posteddate', 'purchasedate', 'spenddate', 'datum', 'belegdatum'),
};
export type Field = keyof typeof K;
export const FIELDS = Object.keys(K) as Field[];
const CONTAINER = has('items', 'expenses', 'lines', 'claims');
/** The columns that say what an expense is: a row with none of them filled is a footer, not an expense. */
export const IDENTIFYING = new Set<Field | undefined>(['date', 'merchant', 'description', 'category']);

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

/** Reference numbers written in a claim (agreement, ticket, confirmation): runs of 6+ digits that are not dates. */
export function refsIn(text: string): string[] {
  return [...new Set((text.match(/(?<![\d.,/-])\d{6,}(?![\d.,/-]\d)/g) ?? []).filter((d) => !/^(?:19|20)\d{6}$/.test(d)))];
}

export function jsonItem(entry: unknown, index: number, where: string): Item {
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
  /^(?:no|n|none|false|0|missing|lost|pending|n\/a|na|-|unavailable|outstanding|to follow|nein|non|geen|nej|saknas|ej tillämpligt|nicht zutreffend|non applicable|niet van toepassing|fehlt|kein beleg|nachgereicht|not (?:attached|provided|required|received|available|submitted|uploaded))$|\b(?:no receipt|missing|lost|without|not (?:attached|received|provided))\b/i;

/** A receipt field: a boolean, 1/0, or text ("yes", a file name or URL: true; "", "no", "Missing", "Not attached": false). */
function jsonReceipt(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  // The answers of the exports' other languages ("No aplica", "Nie", "無", "なし(IC)"): column-words.ts.
  if (typeof v === 'string') return v.trim() !== '' && !RECEIPT_NO.test(v.trim()) && receiptAnswer(v) === undefined;
  return v === null ? false : undefined;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
