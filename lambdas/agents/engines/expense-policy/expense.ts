/**
 * Reads the expense claim: JSON (one expense, an array, or { items | expenses: [...] }), a CSV export with a header
 * row (Expensify, SAP Concur, Ramp and the like: columns recognised by name), or text, one expense per line that
 * carries an amount (line.ts). Free text is mined only for the facts listed in RULES.md; it is never obeyed.
 */
import { AgentInputError } from '../port.js';
import { dayNumberOf, isoDate } from '../text/dates.js';
import { jsonItems, refsIn } from './records.js';
import { csvHeader, csvItems } from './csv-records.js';
import { alcoholLines, localDollar, readDocument, type Entry, type Receipt } from './document.js';
import { nightsOf } from './receipt.js';
import { textFacts, type Facts } from './line.js';
import { receiptProof, statedProof, type Proof } from './proof.js';
import { mealOf, type Meal } from './meal.js';
import { roomChargedMeals } from './room-charged.js';
import { vouchedExcept } from './cover-note.js';
import { vouchedByList } from './attachments.js';
import { dayItems, hotelBreakfasts } from './allowance-days.js';
import type { Allowance, Trip } from './mileage.js';
import type { Src } from './evidence.js';
import { FINE, categoriesIn } from './words.js';
import { headersDayFirst } from './column-words.js';
import { absences } from './trip-times.js';
import { DROPOFF, PICKUP, tierOf } from './tier.js';

/** One expense: the facts a line states (line.ts), with the amount required, its place and label, and its date read. */
export interface Item extends Omit<Facts, 'cents'> {
  index: number;
  label: string;
  cents: bigint;
  /** The date as YYYY-MM-DD, numeric dates read in one order for the whole claim (see `dateOrder`). */
  date?: string;
  /** The line the claim rests on, quoted in violations. */
  evidence?: string;
  /** The text the item was read from (an entry with its detail lines, a receipt with its cover note). */
  text?: string;
  /** The heading the item is listed under ("Economy Plus Seat Upgrade" above its amount line), read with it. */
  heading?: string;
  /** Where in the expense the item was read: its line(s), cited as a violation's evidence. */
  at: Src[];
  /** A pasted receipt or folio: its charge lines, tip and subtotal, and its arithmetic when it does not add up. */
  parts?: Receipt["lines"];
  tip?: { cents: bigint; base: bigint };
  unreconciled?: string;
  /** A receipt whose total differs from the amount claimed: what it supports, and its total line. */
  supported?: { cents: bigint; text: string; line: number; by?: string };
  /** The foreign amount the claim was charged in, and how it became the claim's currency. */
  foreign?: { cents: bigint; currency: string; own: boolean; text: string };
  /** Reference numbers (agreement, ticket, confirmation) and the merchant: what identifies the same claim twice. */
  refs?: string[];
  merchant?: string;
  /** A pre-approval recorded on the item: found approved (with its limit), or named but not found. */
  preapproval?: { id: string; approved: boolean; limit?: bigint; text: string };
  mileage?: { trip: Trip; allowance?: Allowance };
  /** What the employee set aside of the charge ("Requested" below it): personal lines up to it are not claimed. */
  setAside?: bigint;
  /** The payment field when it says the company settled the charge itself: nothing is owed to the employee. */
  companyPaid?: string;
  /** Its receipt shows it paid with the company card the report names: a charge the company already paid. */
  companyCard?: { text: string; line: number; card: string; cardLine: number };
  /** What kind of document supports it (an itemised receipt, only a card-terminal slip, a card statement line). */
  proof?: Proof;
  /** A meal: which one, by its words or its receipt's time (meal.ts). */
  meal?: Meal;
  /** The own lines of the receipt read with it (its header, charges, total), for facts only the receipt prints. */
  receiptText?: string;
  /** A per-diem day's hours away (minutes), from the trip's start and end its head states (trip-times.ts). */
  absence?: { minutes: number; back?: number; how: string; at: Src[] };
  /** A ride's service tier its receipt prints ("Category: Premium"): what the whole ride was (tier.ts). */
  tier?: { text: string; tier: string; line?: number };
  /** Its pasted receipt's amount cannot be read ("¥2,?60", "amount illegible"): the figure or words, and their line. */
  illegible?: { text: string; line: number };
}

export interface Claim {
  items: Item[];
  /** Set when a numeric date could be read either way and was read month first: the first such date. */
  ambiguousDate?: string;
}

const FIELD = 'expense';

export function readExpense(text: string, currency = 'USD'): Claim {
  const t = text.normalize('NFKC').trim();
  if (t.length === 0) throw new AgentInputError(FIELD, 'is empty');
  const items = /^[[{]/.test(t) ? jsonItems(t) : csvHeader(t) ? csvItems(t) : documentItems(t, currency);
  if (items.length === 0) throw new AgentInputError(FIELD, 'no expense with an amount found (e.g. "$42.50")');
  // The readers count lines from the trimmed text; the buyer's count includes the blank lines trimmed off its top.
  const skipped = (/^\s*/.exec(text.normalize('NFKC'))![0].match(/\r\n|\r|\n/g) ?? []).length;
  for (const item of items) for (const a of item.at) if (a.line !== undefined) a.line += skipped;
  // Which meal a meal is, by its words or the time on its receipt, for a limit set per meal.
  for (const item of items) if (item.category === 'meals') item.meal ??= mealOf(item, item.receiptText);
  const claim = datesOf(items, headersDayFirst(t) ? 'dmy' : 'mdy');
  // The trip's departure and return stated once in its head give each allowance day its hours away.
  absences(claim.items, t, claim.ambiguousDate === undefined);
  return claim;
}

/** A pasted document (document.ts): its entries, each with the receipt typed under it, and the receipts of their own. */
function documentItems(text: string, currency: string): Item[] {
  const { entries, receipts } = readDocument(text, currency);
  const items: Item[] = [];
  // A restaurant's check posted to a hotel folio is a meal of its own, listed after the stay it was charged to.
  const push = (item: Item) => items.push(item, ...roomChargedMeals(item, items.length + 2));
  for (const e of entries) {
    const item = entryItem(e, items.length + 1, currency);
    // One allowance line for the trip with its day table below: claimed day by day (allowance-days.ts).
    if (e.days) items.push(...dayItems(e, item, items.length + 1));
    else push(item);
  }
  for (const r of receipts) push(receiptItem(r, items.length + 1));
  hotelBreakfasts(items);
  // A cover note vouching for every receipt ("Receipts attached for all three", "all receipts attached") answers for
  // each expense that says nothing of its own; a note with an exception or a receipt still to come answers for none.
  const vouched = text.split(/\r?\n|(?<=[.!?])\s+/).some((s) => {
    const l = s.toLowerCase();
    if (/\b(?:no|not|missing|except|but|apart from|to follow|lost|will send|later)\b/.test(l)) return false;
    const stated = /\breceipts?\b[^.]{0,30}\b(?:attached|enclosed|included|below|scanned|uploaded)\b|\b(?:attached|enclosed)\b[^.]{0,15}\breceipts?\b/.test(l);
    // "Receipts: 8/8 matched", "6 of 6 images attached": the count of receipts is the count of expenses.
    const counted = /\breceipts?\s*:?\s*(\d{1,3})\s*(?:\/|of)\s*(\d{1,3})\b/.exec(l);
    if (counted && counted[1] === counted[2] && Number(counted[1]) >= entries.length + receipts.length) return true;
    return stated && (/\breceipts\b/.test(l) || entries.length + receipts.length === 1);
  });
  if (vouched) for (const item of items) item.receipt ??= true;
  else if (!vouchedExcept(text, items)) vouchedByList(text, items);
  // A page about one expense (a Pleo or Navan detail page with its receipt) states its head count anywhere on it
  // ("Note … Attendees (3): …", "Covers 3" on the receipt).
  if (items.length === 1 && items[0].people === undefined) {
    const lower = text.toLowerCase();
    items[0].people = textFacts(lower.length > 20_000 ? lower.slice(0, 20_000) : lower, false, true).people;
  }
  const dollar = localDollar(text, currency);
  if (items.length === 0) {
    // No layout recognised: each line that carries an amount is one expense, as before.
    for (const [k, line] of text.split(/\r?\n/).entries()) {
      const lower = line.replace(/\s+/g, ' ').trim().toLowerCase();
      if (lower.length === 0) continue;
      const facts = textFacts(lower, true);
      if (facts.cents === undefined) continue;
      items.push({ index: items.length + 1, label: line.trim().slice(0, 60), ...facts, cents: facts.cents, evidence: line.trim(), at: [{ field: 'expense', line: k + 1, quote: line.trim() }] });
    }
  }
  if (dollar) for (const item of items) if (item.currency === 'USD') item.currency = dollar;
  return items;
}

function entryItem(e: Entry, index: number, policyCurrency: string): Item {
  const lower = e.text.toLowerCase();
  const facts = textFacts(lower.length > 20_000 ? lower.slice(0, 20_000) : lower, true, e.text.includes('\n'));
  let cents = e.amount.cents;
  let currency = e.amount.currency ?? facts.currency;
  let foreign: Item['foreign'];
  if (e.converted && currency !== undefined && e.converted.amt.currency === policyCurrency && currency !== policyCurrency) {
    foreign = { cents, currency, own: e.converted.own, text: e.converted.text.trim() };
    if (!e.converted.own) {
      cents = e.converted.amt.cents;
      currency = policyCurrency;
    }
  }
  const cell = e.receiptCell?.toLowerCase();
  const receiptCell = cell === undefined || cell === 'n/a' ? undefined : /^y/.test(cell);
  const base: Item = {
    index,
    label: e.first.text.slice(0, 60),
    ...facts,
    cents,
    currency,
    foreign,
    // An entry with its receipt typed under it: the head count may be on the detail lines or the bill ("Guests 6").
    // Its receipt's own lines, not the note around it (which may count another expense's guests).
    people: e.people ?? facts.people ?? (e.receipt ? textFacts((e.receipt.own?.join('\n') ?? e.receipt.context).slice(0, 20_000).toLowerCase(), false, true).people : undefined),
    receipt: receiptCell ?? facts.receipt ?? (e.receipt || e.backed ? true : undefined),
    evidence: e.first.text,
    at: [{ field: 'expense', line: e.first.n, quote: e.first.raw.trim() }],
    heading: e.above?.text,
    text: e.text,
    refs: refsIn(e.detail ? `${e.text}\n${e.detail}` : e.text),
    merchant: e.first.label.slice(0, 40),
  };
  // The entry's own line names what it is ("Personal Car Mileage"); its purpose below ("crane rail survey") does not.
  // A printed report's Category cell ("Taxi" on a row whose description names the hotel it drove to) says it first.
  // A line naming a journey's ends ("airport -> hotel", "customer → dinner") says where, not what was bought: the
  // receipt under it says what it is (a ride).
  const route = e.receipt !== undefined && ROUTE.test(e.first.text) ? ownCategory(e.receipt) : undefined;
  const own = categoriesIn(e.categoryCell?.toLowerCase() ?? '')[0] ?? route ?? categoriesIn(e.first.text.toLowerCase())[0];
  if (own !== undefined) base.category = own;
  if (FINE.test(lower)) base.category = 'fines';
  // A day of a table of meal allowances is that day's allowance, whatever meals its cells name.
  if (e.day) base.category = 'per diem';
  if (e.receipt) mergeReceipt(base, e.receipt);
  // Claimed below its receipt by at least the receipt's alcohol (the employee took the drinks out, their tax and tip
  // with them): the alcohol is set aside, not claimed.
  if (e.receipt && typeof base.alcohol === 'bigint' && !e.requested) {
    const charged = e.receipt.lines.reduce((a, p) => a + p.cents, 0n);
    const full = charged > e.receipt.total.cents ? charged : e.receipt.total.cents;
    if (full - base.cents >= base.alcohol) {
      base.setAside = full - base.cents;
      base.alcohol = undefined;
      base.alcoholLines = undefined;
    }
  }
  // Its receipt's details typed below the claim's total: a stay's nights from its arrival and departure.
  else if (e.detail && base.category === 'lodging') base.nights ??= nightsOf(e.detail, []);
  // "Requested: $660.96" below a $694.95 charge: the employee set the rest aside (personal lines itemised out).
  if (e.requested) {
    base.setAside = base.cents - e.requested.cents;
    base.cents = e.requested.cents;
  }
  // What supports it: the receipt typed under it, unless the employee says only the card slip was kept.
  base.proof = statedProof(e.text, e.receipt !== undefined) ?? (e.receipt ? receiptProof(e.receipt) : undefined);
  base.companyCard = e.companyCard;
  if (e.differs && e.receipt) base.supported = { cents: e.receipt.total.cents, text: e.receipt.totalLine, line: e.receipt.totalAt };
  // The card statement attached below shows a lower posting than the amount claimed: the posting is what was paid.
  else if (e.posted && e.posted.amt.cents < base.cents && (e.posted.amt.currency ?? base.currency) === base.currency) {
    base.supported = { cents: e.posted.amt.cents, text: e.posted.text, line: e.posted.line, by: 'the card statement posted' };
  }
  return base;
}

function receiptItem(r: Receipt, index: number): Item {
  const lower = r.context.toLowerCase();
  const facts = textFacts(lower.length > 20_000 ? lower.slice(0, 20_000) : lower, false, true);
  facts.category = ownCategory(r) ?? facts.category;
  const item: Item = {
    index,
    label: r.totalLine.slice(0, 60),
    ...facts,
    cents: r.total.cents,
    currency: r.total.currency ?? facts.currency,
    receipt: true,
    evidence: r.totalLine,
    text: r.context,
    at: [{ field: 'expense', line: r.totalAt, quote: r.totalLine }],
    refs: [],
  };
  mergeReceipt(item, r);
  item.proof = receiptProof(r);
  return item;
}

/** A receipt's itemisation on the expense it supports: alcohol lines, tip, nights, and its arithmetic. */
function mergeReceipt(item: Item, r: Receipt): void {
  item.parts = r.lines;
  item.receipt = item.receipt ?? true;
  item.receiptText = (r.own ?? []).join('\n').slice(0, 20_000);
  const alcohol = alcoholLines(r);
  item.alcohol = alcohol.length > 0 ? alcohol.reduce((a, p) => a + p.cents, 0n) : undefined;
  if (item.alcohol !== undefined) item.alcoholLines = alcohol.map((p) => `${p.text.replace(/\s+\S+$/, '')} ${fmtAmount(p.cents)}`);
  if (r.tip !== undefined) item.tip = { cents: r.tip, base: r.subtotal ?? r.lines.filter((p) => p.kind === 'item').reduce((a, p) => a + p.cents, 0n) };
  item.unreconciled = r.unreconciled;
  item.nights = item.nights ?? r.nights;
  const tier = tierOf(r.own);
  if (tier) item.tier = { ...tier, line: lineOf(r, tier.text) };
  // What the receipt is comes from its merchant and its own lines where they name it (an Uber receipt under a note
  // that mentions the hotel is a ride), else from the note around it.
  item.category = item.category ?? ownCategory(r) ?? categoriesIn(r.context.toLowerCase())[0];
  if (item.category === 'lodging' || (item.category === undefined && r.nights !== undefined)) item.category = 'lodging';
}

/** The category a receipt's own lines name (charges, then its merchant's header), the line nearest its charges first. */
function ownCategory(r: Receipt): Item['category'] {
  // A ride-hailing app's receipt names where it picked up and dropped off, whatever its brand ("Pickup:", "Drop-off:").
  if ((r.own ?? []).some((l) => PICKUP.test(l)) && (r.own ?? []).some((l) => DROPOFF.test(l))) return 'ground';
  for (const line of r.own ?? []) {
    const found = categoriesIn(line.slice(0, 2000).toLowerCase())[0];
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The 1-based line of a receipt's own line, counted back from its total. */
function lineOf(r: Receipt, text: string): number | undefined {
  const context = r.context.split('\n');
  const at = context.lastIndexOf(text);
  return at < 0 ? undefined : r.totalAt - (context.length - 1 - context.lastIndexOf(r.totalLine)) - (context.lastIndexOf(r.totalLine) - at);
}

/** Two places joined by an arrow: the ends of a journey. */
const ROUTE = /\p{L}\S*\s*(?:->|→|=>|⇒)\s*\S*\p{L}/u;
function fmtAmount(cents: bigint): string {
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/**
 * ISO dates for the items. Numeric dates with the year last follow one order for the whole claim: day first if one
 * of them shows it (25/02/2026) or the claim's column headers are in a language writing the day first ("Fecha",
 * "Data", "Datum"), month first otherwise (text/dates.ts); when none shows it, the first date that reads
 * both ways is reported so the note can state the reading. An unreadable date is left out: no rule depends on it.
 */
function datesOf(items: Item[], order: 'dmy' | 'mdy'): Claim {
  const texts = items.map((i) => (i.dateText ?? '').trim());
  const days = dayNumberOf(texts, order);
  const numeric = texts.map((t) => /^(\d{1,2})[/-](\d{1,2})[/-](?:\d{4}|\d{2})$/.exec(t));
  const shown = order === 'dmy' || numeric.some((m) => m && (Number(m[1]) > 12 || Number(m[2]) > 12));
  let ambiguousDate: string | undefined;
  items.forEach((item, k) => {
    const d = days[k];
    if (typeof d !== 'number') return;
    item.date = isoDate(d);
    const m = numeric[k];
    if (!shown && m && m[1] !== m[2]) ambiguousDate ??= `${texts[k]} as ${item.date}`;
  });
  return { items, ambiguousDate };
}
