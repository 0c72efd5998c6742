/**
 * Reads the expense claim: JSON (one expense, an array, or { items | expenses: [...] }) or text, one expense per
 * line that carries an amount. Free text is mined only for the facts listed in RULES.md; it is never obeyed.
 */
import { AgentInputError } from '../port.js';
import { parseCents } from '../text/amount.js';
import { ALCOHOL, categoriesIn, countOf, currencyOf, fareClassIn, moneyIn, type Category, type FareClass } from './words.js';

export interface Item {
  index: number;
  label: string;
  category?: Category;
  cents: bigint;
  currency?: string;
  people?: bigint;
  days?: bigint;
  nights?: bigint;
  receipt?: boolean;
  fareClass?: FareClass;
  /** Alcohol included in the amount: none, an itemised amount, or mentioned without an amount. */
  alcohol: bigint | 'unknown' | undefined;
}

const FIELD = 'expense';
const key = (k: string) => k.toLowerCase().replace(/[^a-z0-9]/g, '');
const has = (...names: string[]) => new Set(names);
const K = {
  category: has('category', 'type', 'expensetype', 'kind'),
  amount: has('amount', 'total', 'cost', 'price', 'value', 'totalamount'),
  currency: has('currency', 'currencycode', 'ccy'),
  people: has('attendees', 'people', 'persons', 'headcount', 'guests', 'pax', 'participants', 'diners'),
  nights: has('nights', 'numberofnights'),
  days: has('days', 'numberofdays'),
  receipt: has('receipt', 'hasreceipt', 'receiptattached', 'receiptprovided', 'receipts', 'receipturl'),
  description: has('description', 'desc', 'memo', 'note', 'notes', 'details', 'purpose', 'title'),
  fareClass: has('class', 'fareclass', 'cabin', 'cabinclass', 'travelclass', 'seatclass', 'bookingclass'),
  merchant: has('merchant', 'vendor', 'payee', 'restaurant', 'hotel'),
  alcohol: has('alcohol', 'alcoholamount', 'alcoholcost'),
  breakdown: has('lines', 'items', 'breakdown', 'lineitems', 'itemised', 'itemized'),
};
const CONTAINER = has('items', 'expenses', 'lines', 'claims');

export function readExpense(text: string): Item[] {
  const t = text.normalize('NFKC').trim();
  if (t.length === 0) throw new AgentInputError(FIELD, 'is empty');
  const items = /^[[{]/.test(t) ? jsonItems(t) : textItems(t);
  if (items.length === 0) throw new AgentInputError(FIELD, 'no expense with an amount found (e.g. "$42.50")');
  return items;
}

function jsonItems(text: string): Item[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AgentInputError(FIELD, 'looks like JSON but does not parse');
  }
  let list: unknown[];
  if (Array.isArray(parsed)) list = parsed;
  else if (isObject(parsed)) {
    const entries = Object.entries(parsed);
    const container = entries.find(([k, v]) => CONTAINER.has(key(k)) && Array.isArray(v));
    const hasAmount = entries.some(([k]) => K.amount.has(key(k)));
    list = container && !hasAmount ? (container[1] as unknown[]) : [parsed];
  } else throw new AgentInputError(FIELD, 'JSON must be an expense object or a list of them');
  return list.map((entry, i) => jsonItem(entry, i + 1));
}

function jsonItem(entry: unknown, index: number): Item {
  if (!isObject(entry)) throw new AgentInputError(FIELD, `item ${index} must be an object`);
  const f: Partial<Record<keyof typeof K, unknown>> = {};
  for (const [k, v] of Object.entries(entry)) {
    const kk = key(k);
    const name = (Object.keys(K) as (keyof typeof K)[]).find((n) => K[n].has(kk));
    if (name !== undefined && f[name] === undefined) f[name] = v;
  }
  const what = (m: string) => `item ${index} ${m}`;
  const cents = jsonMoney(f.amount, what('amount'));
  if (cents === undefined) throw new AgentInputError(FIELD, `${what('amount')} is missing`);
  const description = [f.description, f.merchant].filter((v) => typeof v === 'string').join(' ');
  const lower = description.toLowerCase();
  const facts = textFacts(lower);
  const category = typeof f.category === 'string' ? categoriesIn(f.category.toLowerCase())[0] : undefined;
  let alcohol: Item['alcohol'] = facts.alcohol;
  if (f.alcohol === true) alcohol = 'unknown';
  else if (f.alcohol === false) alcohol = undefined;
  else if (f.alcohol !== undefined && f.alcohol !== null) alcohol = jsonMoney(f.alcohol, what('alcohol'));
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
  return {
    index,
    label: description.slice(0, 60) || (typeof f.category === 'string' ? f.category : `item ${index}`),
    category: category ?? facts.category,
    cents,
    currency: typeof f.currency === 'string' ? f.currency.trim().toUpperCase() : facts.currency,
    people: jsonCount(f.people, what('attendees')) ?? facts.people,
    nights: jsonCount(f.nights, what('nights')) ?? facts.nights,
    days: jsonCount(f.days, what('days')) ?? facts.days,
    receipt: jsonReceipt(f.receipt) ?? facts.receipt,
    fareClass: (typeof f.fareClass === 'string' ? fareClassIn(f.fareClass.toLowerCase(), true) : undefined) ?? facts.fareClass,
    alcohol,
  };
}

function textItems(text: string): Item[] {
  const items: Item[] = [];
  for (const line of text.split(/\r?\n/)) {
    const lower = line.replace(/\s+/g, ' ').trim().toLowerCase();
    if (lower.length === 0) continue;
    const facts = textFacts(lower);
    if (facts.cents === undefined) continue;
    items.push({ index: items.length + 1, label: line.trim().slice(0, 60), ...facts, cents: facts.cents });
  }
  return items;
}

const PEOPLE = has('people', 'persons', 'person', 'guests', 'attendees', 'pax', 'diners', 'colleagues', 'employees', 'heads', 'participants');
const INCLUDED = /\b(?:incl|including|includes|inclusive of|of which)\b/;

/**
 * Facts from free text: the amount (first currency amount outside an alcohol clause), alcohol ("incl. $60 wine":
 * itemised; "incl. 2 bottles of wine": unknown), people, nights, days, receipt, fare class, category.
 */
function textFacts(lower: string): Omit<Item, 'index' | 'label' | 'cents'> & { cents?: bigint } {
  const bad = (token: string) => {
    throw new AgentInputError(FIELD, `amount "${token.slice(0, 40)}" is not readable`);
  };
  let cents: bigint | undefined;
  let currency: string | undefined;
  let alcohol: Item['alcohol'];
  const addAlcohol = (m: bigint | undefined) => {
    alcohol = m === undefined || alcohol === 'unknown' ? 'unknown' : (alcohol ?? 0n) + m;
  };
  for (const clause of lower.split(/, |; /)) {
    const split = INCLUDED.exec(clause);
    const main = split ? clause.slice(0, split.index) : clause;
    const money = moneyIn(main, bad);
    if (cents === undefined && money.length > 0) {
      cents = money[0].cents;
      currency = money[0].currency;
      // "Dinner with wine $320": the amount is the claim, the alcohol in it is not itemised.
      if (ALCOHOL.test(main)) addAlcohol(undefined);
    } else if (ALCOHOL.test(main)) addAlcohol(money[0]?.cents);
    if (split) {
      const included = clause.slice(split.index);
      if (ALCOHOL.test(included)) addAlcohol(moneyIn(included, bad)[0]?.cents);
    }
  }
  const tokens = lower.split(/[\s,;:()]+/);
  let people: bigint | undefined;
  let nights: bigint | undefined;
  let days: bigint | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const n = countOf(tokens[i]);
    if (n === undefined) continue;
    const next = tokens[i + 1];
    if (PEOPLE.has(next ?? '') || (tokens[i - 1] === 'of' && /^(?:party|table|group)$/.test(tokens[i - 2] ?? ''))) people ??= n;
    else if (next === 'night' || next === 'nights') nights ??= n;
    else if (next === 'day' || next === 'days') days ??= n;
  }
  return { cents, currency, alcohol, people, nights, days, receipt: receiptIn(lower), fareClass: fareClassIn(lower), category: categoriesIn(lower)[0] };
}

function receiptIn(lower: string): boolean | undefined {
  if (!lower.includes('receipt')) return undefined;
  if (/\b(?:no|without|missing|lost|forgot|no original) (?:the |a )?receipts?\b|\breceipts? (?:is |was )?(?:missing|lost|not (?:attached|available|included|provided))\b/.test(lower)) return false;
  if (/\breceipts? (?:is |are )?(?:attached|included|provided|available|enclosed|uploaded)\b|\bwith (?:a |the )?receipts?\b/.test(lower)) return true;
  return undefined;
}

function jsonMoney(v: unknown, what: string): bigint | undefined {
  if (v === null || v === undefined) return undefined;
  const cents = typeof v === 'number' ? (Number.isFinite(v) && !/e/i.test(String(v)) ? parseCents(String(v)) : undefined) : typeof v === 'string' ? parseCents(v) : undefined;
  if (cents === undefined) throw new AgentInputError(FIELD, `${what} ${typeof v === 'number' ? String(v) : JSON.stringify(v)?.slice(0, 40)} is not an amount (at most 2 decimals)`);
  if (cents < 0n) throw new AgentInputError(FIELD, `${what} is negative`);
  return cents;
}

function jsonCount(v: unknown, what: string): bigint | undefined {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) return BigInt(v.length);
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 10_000) return BigInt(v);
  if (typeof v === 'string' && /^\d{1,4}$/.test(v.trim())) return BigInt(v.trim());
  throw new AgentInputError(FIELD, `${what} ${JSON.stringify(v)?.slice(0, 40)} is not a count`);
}

function jsonReceipt(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return !/^\s*(?:no|none|false|missing|lost|)\s*$/i.test(v);
  return v === null ? false : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export { currencyOf };
