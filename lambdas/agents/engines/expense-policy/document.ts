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
import { readLines, type Amt, type Line } from './lines.js';
import { ALCOHOL } from './words.js';

export interface Part {
  text: string;
  cents: bigint;
}

export interface Receipt {
  total: Amt;
  /** Charge lines (items, taxes, fees), as written, with the amount each carries. */
  lines: (Part & { kind: 'item' | 'tax' | 'tip'; date?: string; n: number })[];
  subtotal?: bigint;
  tip?: bigint;
  /** "its items total $86.50 but it prints a $96.50 subtotal and a $103.64 total". */
  unreconciled?: string;
  /** Lines from the document's start (or the previous receipt) to the total: the receipt and its cover note. */
  context: string;
  nights?: bigint;
  totalLine: string;
  /** The 1-based line of the total. */
  totalAt: number;
}

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
  receipt?: Receipt;
  /** Dated or numbered: a line of a list, never a reference to another expense. */
  listed: boolean;
  /** The line right above the entry when it has no amount and is indented less: the heading it is listed under. */
  above?: Line;
}

const CONVERTED_OWN = /\b(?:convert(?:ed|ing)?|today'?s rate|exchange rate|google|xe\.com|oanda|at (?:a |the )?rate)\b/;
const HEADER = /^(?:from|to|cc|bcc|subject|date|sent|message-id|mime-version|content-[a-z-]+|return-path|reply-to|in-reply-to|references|x-[a-z-]+):/i;

export function readDocument(text: string): { entries: Entry[]; receipts: Receipt[] } {
  const lines = readLines(text);
  const used = new Set<number>();
  const receipts = findReceipts(lines, used);
  const entries = findEntries(lines, used);
  // A receipt whose total an entry shows is that entry's receipt; the others are expenses of their own.
  const standalone: Receipt[] = [];
  for (const r of receipts) {
    const e = entries.find((x) => !x.receipt && [x.amount, x.converted?.amt].some((a) => a && same(a, r.total)));
    if (e) e.receipt = r;
    else standalone.push(r);
  }
  const kept = entries.filter((e, k) => {
    if (e.listed || e.receipt) return true;
    const repeats = (a: Amt) =>
      standalone.some((r) => same(r.total, a)) ||
      entries.some((o, j) => j !== k && (j < k || o.listed || o.receipt) && [o.amount, o.converted?.amt].some((x) => x && same(x, a)));
    return !repeats(e.amount);
  });
  return { entries: kept, receipts: standalone };
}

function same(a: Amt, b: Amt): boolean {
  return a.cents === b.cents && (a.currency === b.currency || a.currency === undefined || b.currency === undefined);
}

/** Every receipt in the document (see the module comment); its lines are marked used. */
function findReceipts(lines: Line[], used: Set<number>): Receipt[] {
  const out: Receipt[] = [];
  let contextStart = 0;
  for (let k = 0; k < lines.length; k++) {
    const anchor = lines[k];
    if ((anchor.kind !== 'subtotal' && anchor.kind !== 'total') || used.has(k)) continue;
    // "Report Total", "Claim total": a report's sum over its expenses, never the close of one receipt.
    if (/\b(?:report|claim|expense report|reimbursement)\b/.test(anchor.label)) continue;
    // Back over the item lines: separators right above the summary, then items, notes and modifiers to a blank line.
    let start = k;
    let j = k - 1;
    while (j >= 0 && (lines[j].kind === 'sep' || lines[j].kind === 'blank')) j--;
    for (; j >= 0; j--) {
      const l = lines[j];
      if (l.kind === 'blank' || l.kind === 'sep' || used.has(j) || l.kind === 'total' || l.kind === 'subtotal' || l.kind === 'balance') break;
      start = j;
    }
    // Forward over the summary lines: subtotal, tax, tip, fee and total lines to the last total.
    let end = k;
    for (let f = k + 1; f < lines.length; f++) {
      const l = lines[f];
      if (l.kind === 'sep') continue;
      if (l.kind === 'tax' || l.kind === 'tip' || l.kind === 'total' || l.kind === 'subtotal') end = f;
      // A card slip printed between the bill's total and the tip written on it ("VISA ****2280", "Auth: 041927",
      // then "Tip 65.16", "TOTAL CHARGED 445.26"): the tip and the charged total close the same receipt.
      else if (tipFollows(lines, f)) continue;
      else break;
    }
    const region = lines.slice(start, end + 1);
    const charges = region.filter((l) => (l.kind === 'item' || l.kind === 'tax') && !l.text.startsWith('('));
    const hasSummary = region.some((l) => l.kind === 'subtotal' || l.kind === 'tip') || charges.some((l) => l.kind === 'tax');
    if (charges.length === 0) continue;
    const r = reconcile(region, lines.slice(contextStart, end + 1));
    if (!r) continue;
    if (!hasSummary) continue;
    for (let u = start; u <= end; u++) used.add(u);
    // The payment, change and balance lines and the tax breakdown under the total belong to it too.
    for (let u = end + 1; u < lines.length && lines[u].kind !== 'blank'; u++) {
      if (['payment', 'balance', 'tax', 'sep', 'plain'].includes(lines[u].kind) || lines[u].text.startsWith('(')) used.add(u);
      else break;
    }
    out.push(r);
    contextStart = end + 1;
  }
  return out;
}

/** Within the next few card-slip lines (payment, plain, blank) a tip line comes. */
function tipFollows(lines: Line[], from: number): boolean {
  for (let f = from; f < lines.length && f < from + 5; f++) {
    const l = lines[f];
    if (l.kind === 'tip') return true;
    if (!['payment', 'plain', 'blank', 'sep'].includes(l.kind) || (l.kind === 'plain' && l.amts.length > 0)) return false;
  }
  return false;
}

/** A receipt's arithmetic: items = subtotal, subtotal + tax + tip (+ fees) = each total printed in turn. */
function reconcile(region: Line[], context: Line[]): Receipt | undefined {
  const last = (l: Line) => l.amts[l.amts.length - 1];
  const parts: Receipt['lines'] = [];
  let running = 0n;
  let subtotal: bigint | undefined;
  let tip: bigint | undefined;
  let total: Amt | undefined;
  let totalLine = '';
  let totalAt = 0;
  let itemsSum = 0n;
  const problems: string[] = [];
  let afterSummary = false;
  for (const l of region) {
    if (l.kind === 'plain' || l.kind === 'blank' || l.kind === 'sep' || l.kind === 'payment' || l.kind === 'balance' || l.text.startsWith('(')) continue;
    const a = l.kind === 'total' || l.kind === 'subtotal' ? l.amts[0] : last(l);
    if (l.kind === 'subtotal') {
      subtotal = a.cents;
      if (a.cents !== running) problems.push(`its items total ${fmt(running)} but it prints a ${fmt(a.cents)} subtotal`);
      running = a.cents;
      afterSummary = true;
    } else if (l.kind === 'total') {
      if (a.cents !== running) problems.push(`${problems.length ? '' : `its lines add up to ${fmt(running)} but it prints `}a ${fmt(a.cents)} total`);
      running = a.cents;
      total = a;
      totalLine = l.text;
      totalAt = l.n;
      afterSummary = true;
    } else {
      running += a.cents;
      if (!afterSummary && l.kind === 'item') itemsSum += a.cents;
      if (l.kind === 'tip') tip = (tip ?? 0n) + a.cents;
      parts.push({ text: l.text, cents: a.cents, kind: l.kind === 'tip' ? 'tip' : l.kind === 'tax' ? 'tax' : 'item', date: /^\S+/.exec(l.text)?.[0], n: l.n });
    }
  }
  if (total === undefined) return undefined;
  void itemsSum;
  const contextText = context.map((l) => l.text).join('\n');
  return {
    total: { ...total, currency: total.currency ?? region.find((l) => l.amts[0]?.currency)?.amts[0].currency },
    lines: parts,
    subtotal,
    tip,
    unreconciled: problems.length > 0 ? problems.join(' and ') : undefined,
    context: contextText,
    nights: nightsOf(contextText, parts),
    totalLine,
    totalAt,
  };
}

/** Nights of a stay: "3 nights", or arrival to departure, or the distinct dates of the room lines. */
function nightsOf(text: string, parts: Part[]): bigint | undefined {
  const stated = /\b(\d{1,2})\s*(?:nights?|nächte|泊)\b/i.exec(text);
  if (stated) return BigInt(stated[1]);
  const day = (label: RegExp) => {
    const m = new RegExp(`(?:${label.source})[^0-9\\n]{0,30}(\\d{1,4})[/.-](\\d{1,2})[/.-](\\d{2,4})`, 'i').exec(text);
    if (!m) return undefined;
    const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const dotted = m[0].includes('.');
    const [y, mo, d] = a > 31 ? [a, b, c] : dotted ? [c < 100 ? 2000 + c : c, b, a] : [c < 100 ? 2000 + c : c, a, b];
    return Date.UTC(y, mo - 1, d) / 86_400_000;
  };
  const inDay = day(/arrival|check-?in|anreise/);
  const outDay = day(/departure|check-?out|abreise/);
  if (inDay !== undefined && outDay !== undefined && outDay > inDay && outDay - inDay < 60) return BigInt(outDay - inDay);
  const roomDates = new Set(parts.filter((p) => /\b(?:room|guest room|übernachtung|accommodation|宿泊料)\b/i.test(p.text) && !/tax/i.test(p.text)).map((p) => /^\S+/.exec(p.text)?.[0]));
  return roomDates.size > 1 ? BigInt(roomDates.size) : undefined;
}

function fmt(cents: bigint): string {
  const abs = cents < 0n ? -cents : cents;
  return `${cents < 0n ? '-' : ''}$${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** The entries of a report, a listing or a note (see the module comment). */
function findEntries(lines: Line[], used: Set<number>): Entry[] {
  const entries: Entry[] = [];
  const columns = receiptColumn(lines);
  const startIndent = Math.min(...lines.filter((l, k) => !used.has(k) && (l.dated || l.marked) && l.kind !== 'blank').map((l) => l.indent), 1e9);
  let open: { e: Entry; indent: number; detail: string[] } | undefined;
  let attendees: { e: Entry; indent: number; count: number } | undefined;
  const close = () => {
    if (open) open.e.text = [open.e.text, ...open.detail].join('\n');
    open = undefined;
  };
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k];
    if (used.has(k) || HEADER.test(l.text)) continue;
    if (attendees) {
      if (l.kind !== 'blank' && l.indent > attendees.indent) {
        attendees.count++;
        continue;
      }
      if (attendees.e.people === undefined) attendees.e.people = BigInt(attendees.count);
      attendees = undefined;
    }
    const head = /^(?:attendees|guests|participants)\b\s*(?:\((\d{1,3})\))?\s*:?\s*(.*)$/i.exec(l.text);
    const last = open?.e ?? entries[entries.length - 1];
    if (head && last) {
      if (head[1]) last.people = BigInt(head[1]);
      attendees = { e: last, indent: l.indent, count: head[2].trim() && !/^\d+$/.test(head[2].trim()) ? 1 : 0 };
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
    if (['total', 'subtotal', 'balance', 'payment', 'tax', 'tip'].includes(l.kind)) continue;
    if (l.amts.length >= 3 && sums(l.amts)) continue; // net + tax = gross: a breakdown row
    if (!starts && l.amts.length === 0) continue;
    const prev = lines[k - 1];
    const above = prev && prev.kind === 'plain' && prev.indent < l.indent && !used.has(k - 1) ? prev : undefined;
    const e: Entry = { amount: l.amts[0] ?? { cents: -1n, at: 0 }, text: l.text, first: l, listed: starts, receiptCell: cellAt(l, columns), above };
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
  const all = readLines(e.text).flatMap((l) => (l.text.startsWith('(') ? [] : l.amts));
  const other = all.find((a) => a.currency && e.amount.currency && a.currency !== e.amount.currency);
  if (!other) return e;
  return { ...e, converted: { amt: other, own: CONVERTED_OWN.test(lower), text: e.text.split('\n').find((t) => t.includes(other.currency ?? '#')) ?? e.text } };
}

function sums(amts: Amt[]): boolean {
  const c = amts.map((a) => a.cents);
  return c.some((x, i) => c.some((y, j) => j !== i && c.some((z, h) => h !== i && h !== j && x + y === z)));
}

/** The character span of a printed report's Receipt column, from its header row. */
function receiptColumn(lines: Line[]): { at: number; end: number } | undefined {
  for (const l of lines) {
    if (l.kind !== 'plain' || !/\bamount\b/i.test(l.raw) || !/\s{2,}/.test(l.raw)) continue;
    const m = /\breceipts?\b/i.exec(l.raw);
    if (m) return { at: m.index, end: m.index + m[0].length };
  }
  return undefined;
}

function cellAt(l: Line, col: { at: number; end: number } | undefined): string | undefined {
  if (!col) return undefined;
  const re = /\S+/g;
  for (let m = re.exec(l.raw); m !== null; m = re.exec(l.raw)) {
    const [a, b] = [m.index, m.index + m[0].length];
    if (a < col.end + 1 && b > col.at - 1 && /^(?:y|n|yes|no|n\/a|none|missing)$/i.test(m[0])) return m[0];
  }
  return undefined;
}

/** Receipt lines that name alcohol, with their amounts. */
export function alcoholLines(r: Receipt): Part[] {
  return r.lines.filter((p) => p.kind === 'item' && ALCOHOL.test(p.text.toLowerCase()));
}
