/**
 * Receipts in a pasted document: a run of item lines closed by a subtotal and/or tax/tip lines and a total (a
 * restaurant receipt, a hotel folio or invoice) is ONE expense; its total is the claim, its lines the itemisation,
 * confirmed by arithmetic (items = subtotal; subtotal + tax + tip = total). A receipt that does not add up is kept with
 * the contradiction; payment, change and balance lines after the total are not charges.
 */
import { CLAIM_TOTAL, type Line, type Amt } from './lines.js';
import { breakdownBelow, grandTotal, markTrailing, settled, tipFollows, type Section } from './layout.js';
import { ALCOHOL } from './words.js';
import { listedAbove, type Listing } from './listing.js';

export interface Part {
  text: string;
  cents: bigint;
  /** The heading line it is printed under ("Economy Plus® Seat Upgrade" above "UA960 … Seat 24C 169.00 USD"). */
  heading?: string;
  /** The other merchant's check behind a line of this bill (a restaurant's bill posted to the hotel folio): the
   * folio's line it itemises, and the check's own lines (its header, charges, total). */
  behind?: { line: string; own: string[]; totalLine: string; totalAt: number };
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
  /** The receipt's own lines, nearest its charges first: the charges, the total and what follows it (payment, VAT
   * table), then its merchant's header block above the charges, upwards; what the receipt itself says it is, without
   * the cover note around it. */
  own?: string[];
  nights?: bigint;
  totalLine: string;
  /** The 1-based line of the total. */
  totalAt: number;
}


const BULLET = /^[-*•·]\s+/;
const QUANTITY = /^\d{1,3}\s*(?:×|x|\*)\s*(?:[$€£¥]\s?)?\d[\d.,]*\s*(?:[€£¥]|[A-Z]{3})?$/i;

/** Every receipt in the document (see the module comment); its lines are marked used. */
export function findReceipts(lines: Line[], used: Set<number>, lists: Listing[] = []): Receipt[] {
  const out: { r: Receipt; sections: Section[]; from: number }[] = [];
  const sections: Section[] = [];
  let contextStart = 0;
  const accept = (r: Receipt, parts: Section[], from: number, end: number) => {
    for (let u = from; u <= end; u++) used.add(u);
    markTrailing(lines, end, used);
    let last = end;
    while (last + 1 < lines.length && used.has(last + 1)) last++;
    const header = lines.slice(headerStart(lines, from, contextStart), from).reverse();
    r.own = [...lines.slice(from, last + 1), ...header].map((l) => l.text);
    out.push({ r, sections: parts, from: contextStart });
    contextStart = end + 1;
  };
  for (let k = 0; k < lines.length; k++) {
    const anchor = lines[k];
    // A folio that prints no total: its charges settled by one payment down to a zero balance.
    const folio = anchor.kind === 'payment' && !used.has(k) ? settledFolio(lines, k, used, contextStart) : undefined;
    if (folio) {
      accept(folio.r, [], folio.start, k);
      continue;
    }
    if ((anchor.kind !== 'subtotal' && anchor.kind !== 'total') || used.has(k)) continue;
    // "Report Total", "Claim total": a report's sum over its expenses, never the close of one receipt.
    if (CLAIM_TOTAL.test(anchor.label)) continue;
    // Back over the item lines: separators right above the summary, then items, notes and modifiers to a blank line.
    let start = k;
    let j = k - 1;
    while (j >= 0 && (lines[j].kind === 'sep' || lines[j].kind === 'blank')) j--;
    for (; j >= 0; j--) {
      const l = lines[j];
      if (l.kind === 'blank' || l.kind === 'sep' || used.has(j) || l.kind === 'total' || l.kind === 'subtotal' || l.kind === 'balance') break;
      start = j;
      // A bullet of a list of receipts ("- Hotel Porta Reno, Bologna - Fattura n. 1184/26") with the invoice's lines
      // indented under it heads that invoice: the bullets above it are other receipts.
      if (BULLET.test(l.text) && l.amts.length === 0 && j + 1 < k && lines[j + 1].indent > l.indent && j > 0 && BULLET.test(lines[j - 1].text)) break;
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
    // A report entry with its receipt typed under it ("1  Mar 19  Carbone & Vine  $758.71", the detail lines, then
    // the itemised bill): the entry line repeats the bill's total, so it is the expense the receipt supports, not
    // one of the receipt's items.
    const closing = lines[end].kind === 'total' ? lines[end].amts[0]?.cents : undefined;
    const first = lines.slice(start, k).findIndex((l) => l.kind === 'item');
    if (closing !== undefined && first >= 0 && lines[start + first].amts.at(-1)?.cents === closing &&
      lines.slice(start + first + 1, k).some((l) => l.kind === 'item')) start += first + 1;
    const region = lines.slice(start, end + 1);
    const charges = region.filter((l) => (l.kind === 'item' || l.kind === 'tax') && !l.text.startsWith('('));
    const hasSummary = region.some((l) => l.kind === 'subtotal' || l.kind === 'tip') || charges.some((l) => l.kind === 'tax');
    if (charges.length === 0) {
      if (anchor.kind !== 'total') continue;
      // A bill printed in sections ("eTicket Total 899.08", "Additional Products Total 169.00") closed by a grand total
      // that is their sum ("Total Purchase 1,068.08"): one purchase, each section total a subtotal of it.
      const grand = grandTotal(lines, k, sections, used);
      if (grand) {
        const dropped = out.filter((o) => o.sections.some((x) => grand.includes(x)));
        const from = Math.min(contextStart, ...dropped.map((d) => d.from));
        const merged = reconcile([...grand.flatMap((x) => x.region), anchor], lines.slice(from, k + 1), new Set(grand.map((x) => x.region[x.region.length - 1])));
        if (merged && !merged.unreconciled && (grand.some((x) => x.summary) || settled(lines, k, merged.total.cents))) {
          for (const d of dropped) out.splice(out.indexOf(d), 1);
          contextStart = from;
          accept(merged, grand, grand[0].start, k);
          continue;
        }
      }
      // A receipt that prints its total first and its breakdown under it (an Uber or Lyft e-mail: "Total $52.97",
      // then "Trip fare", "Subtotal", fees, "Tips"): the lines below that add up to it, with a subtotal, tax or tip
      // among them, are its itemisation.
      const below = breakdownBelow(lines, k, used);
      if (below) {
        const r = reconcile([...below.map((b) => lines[b]), anchor], lines.slice(contextStart, below[below.length - 1] + 1));
        if (r && !r.unreconciled) accept(r, [], k, below[below.length - 1]);
      }
      continue;
    }
    const r = reconcile(region, lines.slice(contextStart, end + 1));
    if (!r) continue;
    if (!r.unreconciled) sections.push({ start, end, region, total: r.total.cents, summary: hasSummary });
    // Without a subtotal, tax or tip line, a run of lines closed by a total may be a listing of several expenses
    // (an e-mail's "Total $357.07"): it is one bill when a payment under it settles that total in one charge (an
    // invoice paid by card, "American Express ****1009 -1.190,03 €").
    // So is one whose total is a line of the claim's listing above it (the airline's receipt for the ticket listed).
    // So is one whose total is a charge line of a receipt above (a restaurant's check posted to the hotel folio).
    const posted = out.some((o) => o.r.lines.some((p) => p.kind === 'item' && p.cents === r.total.cents));
    const supports = r.unreconciled === undefined && (settled(lines, end, r.total.cents) || listedAbove(lists, lines, r.total.cents, start) || posted);
    if (!hasSummary && !supports) continue;
    accept(r, sections.filter((x) => x.start === start && x.end === end), start, end);
  }
  return out.map((o) => o.r);
}

/**
 * A hotel folio printing no total line: its charges (two or more, back to a blank line) settled by one payment of
 * their sum, a zero balance right under it ("Visa ****3318 -590.50", "Balance 0.00"). The payment is its total.
 */
function settledFolio(lines: Line[], k: number, used: Set<number>, floor: number): { r: Receipt; start: number } | undefined {
  // The payment printed as a credit: negative, or under the folio's Credits column.
  const paid = lines[k].amts.length === 1 ? (lines[k].amts[0].cents < 0n ? -lines[k].amts[0].cents : lines[k].amts[0].cents) : undefined;
  if (paid === undefined || paid === 0n) return undefined;
  const after = lines.slice(k + 1, k + 4).find((l) => l.kind !== 'blank' && l.kind !== 'sep');
  if (!after || after.kind !== 'balance' || after.amts.length !== 1 || after.amts[0].cents !== 0n) return undefined;
  let start = k;
  for (let j = k - 1; j >= floor; j--) {
    const l = lines[j];
    if (l.kind === 'blank' || l.kind === 'sep' || used.has(j) || ['total', 'subtotal', 'balance', 'payment'].includes(l.kind)) break;
    start = j;
  }
  const charges = lines.slice(start, k).filter((l) => l.kind === 'item' || l.kind === 'tax');
  if (charges.length < 2) return undefined;
  const total: Line = { ...lines[k], kind: 'total', amts: [{ ...lines[k].amts[0], cents: paid }] };
  const r = reconcile([...lines.slice(start, k), total], lines.slice(floor, k + 1));
  return r && !r.unreconciled ? { r, start } : undefined;
}

/**
 * Where a receipt's own lines start: above its charges, its merchant's header block (name, address, date, the
 * label a pasted receipt is given), up to the second blank line above, a listing's line with money, or the end of the
 * previous receipt; eight lines at most.
 */
function headerStart(lines: Line[], from: number, floor: number): number {
  let start = from;
  let blanks = 0;
  for (let j = from - 1; j >= floor && j >= from - 8; j--) {
    const l = lines[j];
    if (l.kind === 'blank') {
      if (++blanks === 2) break;
      continue;
    }
    if (l.amts.length > 0) break;
    start = j;
  }
  return start;
}

/** A receipt's arithmetic: items = subtotal, subtotal + tax + tip (+ fees) = each total printed in turn. */
function reconcile(region: Line[], context: Line[], sectionTotals: Set<Line> = new Set()): Receipt | undefined {
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
  let lastSummaryAt = 0;
  let sectionBase = 0n;
  let above: Line | undefined;
  for (const l of region) {
    // "Economy Plus® Seat Upgrade" above its indented charge line: the heading says what the charge is.
    const heading = above && above.kind === 'plain' && above.indent < l.indent ? above.text : undefined;
    above = l;
    if (l.kind === 'plain' || l.kind === 'blank' || l.kind === 'sep' || l.kind === 'payment' || l.kind === 'balance' || l.text.startsWith('(')) continue;
    // "2 × $27.00" under "Coffee Traveler $54.00": the item's quantity and unit price, not another charge.
    if (QUANTITY.test(l.text)) continue;
    const a = l.kind === 'total' || l.kind === 'subtotal' ? l.amts[0] : last(l);
    if (l.kind === 'subtotal') {
      lastSummaryAt = l.n;
      subtotal = a.cents;
      // In a bill printed in sections a subtotal is its section's; otherwise the lines' from the start.
      const base = sectionTotals.size > 0 ? sectionBase : 0n;
      if (a.cents !== running - base) problems.push(`its items total ${fmt(running - base)} but it prints a ${fmt(a.cents)} subtotal`);
      running = base + a.cents;
      afterSummary = true;
    } else if (sectionTotals.has(l)) {
      // A section of a bill printed in sections: its total is its own lines' sum; the bill's running total goes on.
      if (a.cents !== running - sectionBase) problems.push(`its section's lines add up to ${fmt(running - sectionBase)} but it prints a ${fmt(a.cents)} section total`);
      sectionBase = running;
      lastSummaryAt = l.n;
      afterSummary = true;
    } else if (l.kind === 'total') {
      // A VAT receipt prints the tax inside its prices ("PTU B 8,00 % 6,59" under items that already total 89,00): the
      // total is the items alone, and the tax lines since the last summary are a breakdown, not charges.
      const since = parts.filter((p) => p.kind === 'tax' && p.n > lastSummaryAt);
      const inclusive = since.reduce((x, p) => x + p.cents, 0n);
      if (a.cents !== running && since.length > 0 && running - inclusive === a.cents) {
        for (const p of since) parts.splice(parts.indexOf(p), 1);
        running -= inclusive;
      }
      lastSummaryAt = l.n;
      if (a.cents !== running) problems.push(`${problems.length ? '' : `its lines add up to ${fmt(running)} but it prints `}a ${fmt(a.cents)} total`);
      running = a.cents;
      total = a;
      totalLine = l.text;
      totalAt = l.n;
      sectionBase = running;
      afterSummary = true;
    } else {
      running += a.cents;
      if (!afterSummary && l.kind === 'item') itemsSum += a.cents;
      if (l.kind === 'tip') tip = (tip ?? 0n) + a.cents;
      parts.push({ text: l.text, cents: a.cents, kind: l.kind === 'tip' ? 'tip' : l.kind === 'tax' ? 'tax' : 'item', date: /^\S+/.exec(l.text)?.[0], n: l.n, ...(heading ? { heading } : {}) });
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

/** The nights of a stay in the languages claims come in ("2 nuits", "2 noches", "2 notti", "2 doby", "2 Nächte"). */
const NIGHT_WORDS = 'nights?|nächte|nacht|nuits?|nuitées?|noches?|notti|notte|noites?|nachten|nätter|nætter|netter|doby|noclegi|noce|gece|malam|đêm';
/** A room line of a folio or invoice ("Übernachtung", "Room", "Nocleg", "Pernottamento", "宿泊料"). */
const ROOM = /(?<![\p{L}])(?:room|guest room|übernachtung|accommodation|nocleg|pernottamento|hébergement|nuitée|alojamiento|hospedagem|kamer|宿泊料)(?![\p{L}])/iu;

/** Nights of a stay: "3 nights", or arrival to departure, or the distinct dates of the room lines. */
export function nightsOf(text: string, parts: Part[]): bigint | undefined {
  const stated = new RegExp(`(?<![\\d.,])(\\d{1,2})\\s*(?:${NIGHT_WORDS})(?![\\p{L}])|(\\d{1,2})\\s*泊|(\\d{1,2})\\s*박`, 'iu').exec(text);
  if (stated) return BigInt(stated[1] ?? stated[2] ?? stated[3]);
  // "Übernachtung 2 x 119,00 €", "Room 3 x 139.00": a room line priced per night, times its nights.
  const times = parts.find((p) => ROOM.test(p.text) && /(?<![\d.,])\d{1,2}\s*[x×]\s*\d/.test(p.text));
  if (times) return BigInt(/(?<![\d.,])(\d{1,2})\s*[x×]\s*\d/.exec(times.text)![1]);
  const day = (label: RegExp) => {
    const m = new RegExp(`(?:${label.source})[^0-9\\n]{0,30}(\\d{1,4})[/.-](\\d{1,2})[/.-](\\d{2,4})`, 'i').exec(text);
    if (!m) return undefined;
    const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const dotted = m[0].includes('.');
    const [y, mo, d] = a > 31 ? [a, b, c] : dotted ? [c < 100 ? 2000 + c : c, b, a] : [c < 100 ? 2000 + c : c, a, b];
    return Date.UTC(y, mo - 1, d) / 86_400_000;
  };
  const inDay = day(/arrival|\barr\b\.?|check-?in|anreise/);
  const outDay = day(/departure|\bdep\b\.?|check-?out|abreise/);
  if (inDay !== undefined && outDay !== undefined && outDay > inDay && outDay - inDay < 60) return BigInt(outDay - inDay);
  const roomDates = new Set(parts.filter((p) => ROOM.test(p.text) && !/tax/i.test(p.text)).map((p) => /^\S+/.exec(p.text)?.[0]));
  return roomDates.size > 1 ? BigInt(roomDates.size) : undefined;
}

function fmt(cents: bigint): string {
  const abs = cents < 0n ? -cents : cents;
  return `${cents < 0n ? '-' : ''}$${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** Receipt lines that name alcohol, with their amounts. */
export function alcoholLines(r: Receipt): Part[] {
  return r.lines.filter((p) => p.kind === 'item' && ALCOHOL.test(p.text.toLowerCase()));
}

