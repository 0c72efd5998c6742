/**
 * A pasted expense document read as a practitioner reads it (lines.ts gives each line's money and kind):
 * 1. receipts: a run of item lines closed by a subtotal and/or tax/tip lines and a total (a restaurant receipt, a
 *    hotel folio or invoice) is ONE expense; its total is the claim, its lines the itemisation, confirmed by arithmetic
 *    (items = subtotal; subtotal + tax + tip = total). A receipt that does not add up is kept with the contradiction;
 *    payment, change and balance lines after the total are not charges;
 * 2. entries: a report or an e-mail lists many expenses, each starting on a dated or numbered line (or a line with an
 *    amount), with the lines indented under it as its detail (purpose, receipt, cabin, itemisations, attendees);
 *    amounts on the detail lines are its breakdown, never more expenses; totals are summaries;
 * 3. an entry showing a foreign amount beside an amount in another currency is the card's charge (or the employee's
 *    own conversion when the line says it converted);
 * 4. an entry or receipt that repeats another's amount (a card slip's "Amount: $56.42", "Please reimburse USD
 *    1,386.41", a receipt typed out under the statement line that lists it) is that expense, not another.
 */
import { CLAIM_TOTAL, readLines, taxSummary, type Amt, type Line } from './lines.js';
import { findReceipts, type Receipt } from './receipt.js';
import { breakdownRow } from './layout.js';
import { amountUnder, cellAt, reportColumns, wordsAt } from './columns.js';
import { namesIn } from './line.js';
import { listings, recaps, type Listing } from './listing.js';
import { currencyColumns } from './currency-columns.js';
import { belowClaimTotal } from './statement-support.js';
import { dayBreakdowns, dayRow, dayTables, type DayTable } from './day-table.js';
import { allowanceBlocks } from './allowance-block.js';
import { tableDetails } from './detail-section.js';

export { alcoholLines, type Part, type Receipt } from './receipt.js';

export interface Entry {
  /** The claim: the first amount of the entry (or its receipt's total). */
  amount: Amt;
  /** The amount in another currency beside it: the card's charge, or the employee's own conversion. */
  converted?: { amt: Amt; own: boolean; text: string };
  text: string;
  first: Line;
  people?: bigint;
  /** A receipt column of a printed report ("Y", "No", "n/a"). */
  receiptCell?: string;
  /** Its receipt's payment line showing the company card the report names in its head (statement-support.ts). */
  companyCard?: { text: string; line: number; card: string; cardLine: number };
  /** The Category cell of a printed report's row ("Taxi", "Hotel"). */
  categoryCell?: string;
  receipt?: Receipt;
  /** Its receipt's total is not the amount claimed. */
  differs?: boolean;
  /** Dated or numbered: a line of a list, never a reference to another expense. */
  listed: boolean;
  /** The line right above the entry when it has no amount and is indented less: the heading it is listed under. */
  above?: Line;
  /** A line below the claim's listing repeating this entry's amount (its ticket, a journey history): its support. */
  backed?: string;
  /** The card statement line attached below the claim's total posting this expense (statement-support.ts). */
  posted?: { amt: Amt; text: string; line: number };
  /** Its receipt's details typed out below the claim's total, by its row's id or number (statement-support.ts). */
  detail?: string;
  /** The note lines its receipt was typed on (inline-receipt.ts): their own reading as a receipt is this one. */
  typedAt?: number[];
  /** "Requested: $660.96" on its detail: what the employee asks for when less than the charge (the rest set aside). */
  requested?: Amt;
  /** A day of a table of meal allowances (day-table.ts): the meals its row says were provided. */
  day?: { provided: string[] };
  /** The day table typed out for it (one allowance line for the trip, its days below): its days (day-table.ts). */
  days?: { amount: Amt; text: string; line: Line; provided: string[] }[];
}

/** An itemised line marked as the employee's own, not claimed. */
const PERSONAL_MARK = /\bpersonal\b.*\b(?:non-?reimbursable|not reimbursable|do not reimburse)\b|\b(?:non-?reimbursable|do not reimburse)\b/i;
const CONVERTED_OWN = /\b(?:convert(?:ed|ing)?|today'?s rate|exchange rate|google|xe\.com|oanda|at (?:a |the )?rate)\b/;
const HEADER = /^(?:from|to|cc|bcc|subject|date|sent|message-id|mime-version|content-[a-z-]+|return-path|reply-to|in-reply-to|references|x-[a-z-]+):/i;

export function readDocument(text: string, policyCurrency?: string): { entries: Entry[]; receipts: Receipt[] } {
  const lines = readLines(text);
  currencyColumns(lines);
  // "$201.14" in a Canadian claim is a Canadian dollar: a bare "$" is the policy's own dollar when the claim never
  // writes US dollars ("USD", "US$"), so it matches the receipt printed "201.14 CAD".
  const dollar = localDollar(text, policyCurrency);
  if (dollar) for (const l of lines) for (const a of l.amts) if (a.currency === 'USD') a.currency = dollar;
  const used = new Set<number>();
  const lists = listings(lines);
  const receipts = findReceipts(lines, used, lists);
  // A recap of the form's sections under them repeats their totals: no expense of its own.
  for (const i of recaps(lines, lists)) used.add(i);
  const entries = findEntries(lines, used);
  // Each line of a listing closed by its sum is one expense, even two of the same amount.
  const listed = new Map<number, Listing>();
  for (const x of lists) for (const i of x.lines) listed.set(i, x);
  for (const e of entries) if (listed.has(e.first.n - 1)) e.listed = true;
  // A receipt whose total an entry shows is that entry's receipt; the others are expenses of their own.
  const standalone: Receipt[] = [];
  for (const r of receipts) {
    // A line that is only an amount ("$78.40" printed large at a receipt's head) is the receipt's own, not an expense.
    const e = entries.find((x) => !x.receipt && /\p{L}{2}/u.test(x.text) && [x.amount, x.converted?.amt].some((a) => a && same(a, r.total)));
    if (e) e.receipt = r;
    else standalone.push(r);
  }
  // A receipt whose total is a charge line of another one (the restaurant's bill carried into a Bewirtungsbeleg as
  // "lt. beigefügter Rechnung 214,50 €", a restaurant charge posted to the room) is the document behind that line,
  // not another expense: its lines (the dishes, the wine) are that line's itemisation.
  for (let k = standalone.length - 1; k >= 0; k--) {
    const r = standalone[k];
    const o = receipts.find((x) => x !== r && x.lines.some((p) => p.kind === 'item' && p.cents === r.total.cents));
    if (!o || r.unreconciled) continue;
    const at = o.lines.findIndex((p) => p.kind === 'item' && p.cents === r.total.cents);
    const behind = { line: o.lines[at].text, own: r.own ?? [], totalLine: r.totalLine, totalAt: r.totalAt };
    o.lines.splice(at, 1, ...r.lines.map((p) => ({ ...p, behind })));
    standalone.splice(k, 1);
  }
  const kept = entries.filter((e, k) => {
    if (e.listed || e.receipt) return true;
    // A field in a receipt's own header ("Rate Plan: CORP - 209.00" above the folio's "Room Charge 209.00") repeats a
    // charge the receipt lists: it is the receipt's, not another expense.
    const repeats = (a: Amt) =>
      standalone.some((r) => same(r.total, a)) || receipts.some((r) => r.context.includes(e.first.text) && r.lines.some((p) => p.cents === a.cents)) ||
      entries.some((o, j) => j !== k && (j < k || o.listed || o.receipt) && [o.amount, o.converted?.amt].some((x) => x && same(x, a)));
    if (!repeats(e.amount)) return true;
    // A line below a listing's total repeating one of its lines (the ticket of a train ride listed) is its support.
    const backed = entries.find((o) => !o.receipt && !o.backed && o.amount.cents === e.amount.cents && (listed.get(o.first.n - 1)?.total ?? Infinity) < e.first.n - 1);
    if (backed) backed.backed = e.first.text;
    return false;
  });
  // A merchant's message forwarded under the employee's note (an airline's e-ticket, a ride receipt) holding a receipt
  // is that receipt: the other amounts it prints (a baggage price list, a fare rule, a reward) are the merchant's text,
  // not expenses; an expense the employee lists (a dated or numbered line) stays one.
  const forwarded = forwardedAt(lines);
  if (forwarded !== undefined && receipts.some((r) => r.totalAt > forwarded)) {
    for (let k = kept.length - 1; k >= 0; k--) if (!kept[k].listed && !kept[k].receipt && kept[k].first.n > forwarded) kept.splice(k, 1);
  }
  supportBelowClaimTotal(lines, kept);
  tableDetails(lines, kept);
  dayBreakdowns(lines, kept);
  kept.splice(0, kept.length, ...allowanceBlocks(lines, kept));
  belowClaimTotal(lines, kept);
  for (let k = standalone.length - 1; k >= 0; k--) if (kept.some((e) => e.typedAt?.includes(standalone[k].totalAt))) standalone.splice(k, 1);
  // A message asking for one amount with one receipt below it ("can I get reimbursed $84.50 … receipt below") is one
  // expense: the request is the claim and the receipt its support, though their amounts differ (the reviewer pays
  // the lower and flags the difference).
  const open = kept.filter((e) => !e.receipt);
  if (open.length === 1 && kept.length === 1 && standalone.length === 1 && /\breceipts?\b/i.test(open[0].text)) {
    open[0].receipt = standalone.pop();
    open[0].differs = true;
  }
  return { entries: kept, receipts: standalone };
}

/**
 * A listing closed by the claim's total ("Total to reimburse £240.70" = the sum of the dated entries above it) is the
 * whole claim: a dated line below it repeating one of those entries' date and amount (a contactless journey history,
 * a statement line) is that entry's support, not another expense.
 */
function supportBelowClaimTotal(lines: Line[], kept: Entry[]): void {
  const day = (e: Entry) => /^(\d{1,2})[/.-](\d{1,2})\b/.exec(e.first.text)?.slice(1, 3).join('/');
  for (const t of lines) {
    if (t.kind !== 'total' || !CLAIM_TOTAL.test(t.label) || t.amts.length === 0) continue;
    const listing = kept.filter((e) => e.listed && e.first.n < t.n);
    if (listing.length < 2 || listing.reduce((a, e) => a + e.amount.cents, 0n) !== t.amts[0].cents) continue;
    const open = [...listing];
    for (let k = 0; k < kept.length; k++) {
      const e = kept[k];
      if (e.first.n <= t.n || !e.listed || e.receipt || day(e) === undefined) continue;
      const match = open.findIndex((o) => o.amount.cents === e.amount.cents && day(o) === day(e));
      if (match < 0) continue;
      open.splice(match, 1);
      kept.splice(k--, 1);
    }
    return;
  }
}

const FORWARD = /^(?:-{2,}\s*(?:forwarded message|original message)\s*-{2,}|begin forwarded message:?)$/i;

/** The 1-based line where a forwarded message starts: a forward marker, or a From:/Sent:/Subject: block after the body. */
function forwardedAt(lines: Line[]): number | undefined {
  let body = false;
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k];
    if (FORWARD.test(l.text)) return l.n;
    const next = lines.slice(k + 1, k + 6).map((x) => x.text);
    if (body && /^from:\s/i.test(l.text) && next.some((t) => /^(?:sent|date):/i.test(t)) && next.some((t) => /^subject:/i.test(t))) return l.n;
    if (l.kind !== 'blank' && !HEADER.test(l.text) && !/^\s/.test(l.raw)) body = true;
  }
  return undefined;
}

const DOLLARS = new Set(['CAD', 'AUD', 'NZD', 'SGD', 'HKD']);

/** The policy's dollar, when it is not the US dollar and the claim never writes US dollars. */
export function localDollar(text: string, policyCurrency: string | undefined): string | undefined {
  if (policyCurrency === undefined || !DOLLARS.has(policyCurrency)) return undefined;
  return /\bUSD\b|\bUS\s?\$|\bU\.S\.\s?\$|\bU\.?S\.? dollars?\b/i.test(text) ? undefined : policyCurrency;
}

function same(a: Amt, b: Amt): boolean {
  return a.cents === b.cents && (a.currency === b.currency || a.currency === undefined || b.currency === undefined);
}

/** The entries of a report, a listing or a note (see the module comment). */
function findEntries(lines: Line[], used: Set<number>): Entry[] {
  const entries: Entry[] = [];
  const columns = reportColumns(lines);
  const days = new Map<number, DayTable>();
  for (const t of dayTables(lines)) for (const r of t.rows) days.set(r, t);
  const startIndent = Math.min(...lines.filter((l, k) => !used.has(k) && (l.dated || l.marked) && l.kind !== 'blank').map((l) => l.indent), 1e9);
  let open: { e: Entry; indent: number; detail: string[] } | undefined;
  let attendees: { e: Entry; indent: number; count: number; wrapped?: boolean } | undefined;
  const close = () => {
    if (open) open.e.text = [open.e.text, ...open.detail].join('\n');
    open = undefined;
  };
  let itemizing: number | undefined;
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k];
    if (used.has(k) || HEADER.test(l.text)) continue;
    // Above a report's column header row, "Label: value" lines are the report's own fields ("Per Diem Location: …
    // Lodging Max: 151.00 M&IE: 74.00", "Authorization: TA-2026-0533"), never its expenses.
    if (columns && k < columns.header && !l.dated && /^[\p{L}][\p{L}\p{N}&/.#()'-]*(?: [\p{L}\p{N}&/.#()'-]+){0,3}:\s/u.test(l.text)) continue;
    // "Itemizations:" and the lines indented under it: the breakdown of the entry above, dated or not, never entries
    // (nor words of the entry's own: its "Parking" line does not make a hotel a parking expense).
    const holder = open?.e ?? entries[entries.length - 1];
    if (itemizing !== undefined && l.kind !== 'blank' && l.indent > itemizing && holder) {
      // An itemised line the employee marks personal ("Personal (non-reimbursable) – pay-per-view movie 17.99  No"):
      // set aside, not claimed; what is asked for is the charge less it.
      if (l.amts.length > 0 && PERSONAL_MARK.test(l.text) && holder.amount.cents >= 0n) {
        const asked = (holder.requested ?? holder.amount).cents - l.amts[l.amts.length - 1].cents;
        if (asked >= 0n) holder.requested = { ...holder.amount, cents: asked };
      }
      continue;
    }
    itemizing = undefined;
    if (/^itemi[sz](?:ations?|ed)\b[^0-9]{0,20}:?$/i.test(l.text) && l.amts.length === 0 && holder) {
      itemizing = l.indent;
      continue;
    }
    // "Requested: $660.96" under an entry's charge: the amount asked for, when it is less.
    if (holder && holder.amount.cents >= 0n && l.amts.length === 1 && /^(?:requested|amount requested|requested amount|claimed amount)\b/i.test(l.text)) {
      // What the employee writes it asks for says it, whatever lines it itemised as personal.
      holder.requested = l.amts[0].cents < holder.amount.cents ? l.amts[0] : undefined;
      holder.text += `\n${l.text}`;
      continue;
    }
    if (attendees) {
      if (l.kind !== 'blank' && l.indent > attendees.indent) {
        attendees.count++;
        continue;
      }
      // "Attendees: Dana Whitford (Prairie Sky)," wrapped onto the lines under it at the same indent: the list goes on.
      if (attendees.wrapped && l.kind === 'plain' && l.indent === attendees.indent && !/:/.test(l.text)) {
        attendees.count += namesIn(l.text);
        attendees.wrapped = /,$/.test(l.text);
        continue;
      }
      if (attendees.e.people === undefined) attendees.e.people = BigInt(attendees.count);
      attendees = undefined;
    }
    const head = /^(?:attendees|guests|participants)\b\s*(?:\((\d{1,3})\))?\s*:?\s*(.*)$/i.exec(l.text);
    const last = open?.e ?? entries[entries.length - 1];
    if (head && last) {
      if (head[1]) last.people = BigInt(head[1]);
      // Names written on the line itself ("Attendees: me, Marie-Eve Gagnon and Luc Tremblay") are counted there.
      attendees = { e: last, indent: l.indent, count: head[2].trim() && !/^\d+$/.test(head[2].trim()) ? Math.max(1, namesIn(head[2])) : 0, wrapped: /,$/.test(head[2].trim()) };
      if (/^\d{1,3}$/.test(head[2].trim())) last.people = BigInt(head[2].trim());
      continue;
    }
    if (l.kind === 'blank' || l.kind === 'sep') {
      close();
      continue;
    }
    const starts = (l.dated || l.marked) && l.indent <= startIndent + 2;
    if (open && !starts && (l.indent > open.indent || l.text.startsWith('('))) {
      open.detail.push(l.text);
      if (open.e.amount.cents < 0n && l.amts.length > 0 && l.kind === 'item') open.e.amount = l.amts[0];
      continue;
    }
    if (l.text.startsWith('(') && last) {
      last.text += `\n${l.text}`;
      continue;
    }
    close();
    // A day of an allowance table with a deduction cell ("-16,80 €" under "Kürzung") is still the day's claim.
    if (!days.has(k) && ['total', 'subtotal', 'balance', 'payment', 'tax', 'tip'].includes(l.kind)) continue;
    // A day of an allowance table is claimed at its day's total, its meals adding up to it (day-table.ts).
    const day = days.has(k) ? dayRow(days.get(k)!, l) : undefined;
    if (!day && (breakdownRow(l) || (!starts && taxSummary(l)))) continue; // net + tax = gross: a breakdown row; the taxes' sum
    if (!starts && l.amts.length === 0) continue;
    const prev = lines[k - 1];
    const above = prev && prev.kind === 'plain' && prev.indent < l.indent && !used.has(k - 1) ? prev : undefined;
    // A row of a printed report is claimed at the figure under its Amount column (not the rate printed left of it).
    const claimed = columns && k > columns.header ? amountUnder(l, l.amts, columns.amount) : undefined;
    const e: Entry = { amount: day?.amount ?? claimed ?? l.amts[0] ?? { cents: -1n, at: 0 }, text: day?.text ?? l.text, first: l, day: day && { provided: day.provided }, listed: starts, receiptCell: cellAt(l, columns?.receipt), categoryCell: columns && k > columns.header ? wordsAt(l, columns.category) : undefined, above };
    entries.push(e);
    open = { e, indent: l.indent, detail: [] };
  }
  close();
  if (attendees && attendees.e.people === undefined) attendees.e.people = BigInt(attendees.count);
  return entries.filter((e) => e.amount.cents >= 0n).map(withConversion);
}

/** The amount in another currency beside the claim: the card's charge, or the employee's own conversion. */
function withConversion(e: Entry): Entry {
  const lower = e.text.toLowerCase();
  // The entry's own line as read in the document (a currency column's figures carry its currency), then its detail.
  const all = [...e.first.amts, ...readLines(e.text).slice(1).flatMap((l) => (l.text.startsWith('(') ? [] : l.amts))];
  const other = all.find((a) => a.currency && e.amount.currency && a.currency !== e.amount.currency);
  if (!other) return e;
  return { ...e, converted: { amt: other, own: CONVERTED_OWN.test(lower), text: e.text.split('\n').find((t) => t.includes(other.currency ?? '#')) ?? e.text } };
}
