/**
 * How a receipt's lines sit around its total (receipt.ts reads the receipt): what under the total still belongs to it
 * (payment, balance, a VAT table), whether one payment settles it, a total printed before its breakdown, and the
 * sections of a bill closed by a grand total that is their sum.
 */
import type { Line } from './lines.js';

const NET = /^(?:net|netto|nett|net amount|brutto|gross|vat|mwst|ust)\b/;

/** A run of charge lines closed by its total: a receipt, or one section of a bill printed in sections. */
export interface Section {
  start: number;
  end: number;
  region: Line[];
  total: bigint;
  summary: boolean;
}

/** The payment, change and balance lines and the tax breakdown under a receipt's total belong to it too. */
export function markTrailing(lines: Line[], end: number, used: Set<number>): void {
  // So is a VAT analysis printed after a blank line ("VAT @ 20% incl. 36.13", "Net 180.67"): the breakdown of the
  // total, never another expense.
  for (let u = end + 1; u < lines.length; u++) {
    const l = lines[u];
    if (l.kind === 'blank') {
      const next = lines.slice(u + 1).find((x) => x.kind !== 'blank');
      if (next && (next.kind === 'tax' || NET.test(next.label))) continue;
      break;
    }
    if (['payment', 'balance', 'tax', 'sep', 'plain'].includes(l.kind) || l.text.startsWith('(') || NET.test(l.label) || breakdownRow(l)) used.add(u);
    else break;
  }
}

/** "7 % 1.034,58 € 72,42 € 1.107,00 €": net + tax = gross, a VAT table's row, never a charge. */
export function breakdownRow(l: Line): boolean {
  const c = l.amts.map((a) => a.cents);
  return c.length >= 3 && c.some((x, i) => c.some((y, j) => j !== i && c.some((z, h) => h !== i && h !== j && x + y === z)));
}

/** "Paid with Revolut •• 4471", "Charged to Visa ending in 1234", "Payment method: Mastercard ****1234". */
const CARD_PAID = /^(?:paid (?:with|by|using|via)|charged to|payment(?: method)?:|card:)\s.{0,40}(?:[•*x·]{2,}\s?\d{4}|ending(?: in)? \d{4})\b/i;

/**
 * Whether a payment under the total settles it in one charge: within the lines after it (a VAT table, notes, a
 * "Payment:" heading, the balance), a card or payment line carrying that amount, before any other charge or total.
 */
export function settled(lines: Line[], end: number, total: bigint): boolean {
  for (let f = end + 1; f < lines.length && f <= end + 15; f++) {
    const l = lines[f];
    // An app's receipt prints the card it charged right under its total, without the amount again ("Paid with Revolut
    // •• 4471", "Charged to Visa ending in 1234"): the one payment of that total.
    if (f <= end + 2 && l.kind === 'plain' && CARD_PAID.test(l.text)) return true;
    if (l.kind === 'payment') {
      if (l.amts.some((a) => a.cents === total || a.cents === -total)) return true;
      continue;
    }
    if (['blank', 'sep', 'plain', 'tax', 'balance'].includes(l.kind) || l.text.startsWith('(') || NET.test(l.label) || breakdownRow(l)) continue;
    return false;
  }
  return false;
}

/**
 * The sections a grand total closes: the last two or more reconciled sections before it whose totals add up to it,
 * with no charge line outside them between the first and the grand total.
 */
export function grandTotal(lines: Line[], k: number, sections: Section[], used: Set<number>): Section[] | undefined {
  const want = lines[k].amts[0]?.cents;
  if (want === undefined) return undefined;
  const before = sections.filter((x) => x.end < k);
  let sum = 0n;
  for (let n = 1; n <= before.length && n <= 6; n++) {
    const x = before[before.length - n];
    // Between this section and the next one (or the grand total): payment lines, notes, restated sums, nothing charged.
    const gapEnd = n === 1 ? k : before[before.length - n + 1].start;
    if (lines.slice(x.end + 1, gapEnd).some((l, i) => (l.kind === 'item' || l.kind === 'tip') && !used.has(x.end + 1 + i) && !breakdownRow(l))) return undefined;
    sum += x.total;
    if (n >= 2 && sum === want) return before.slice(before.length - n);
  }
  return undefined;
}

/**
 * The charge lines printed under a total that comes first: items, subtotal, tax and tip lines, blanks between; before
 * the first of them, a few lines without money (the date, a greeting) may stand.
 */
export function breakdownBelow(lines: Line[], k: number, used: Set<number>): number[] | undefined {
  const out: number[] = [];
  let words = 0;
  for (let f = k + 1; f < lines.length; f++) {
    const l = lines[f];
    if (l.kind === 'blank' || l.kind === 'sep') continue;
    if (out.length === 0 && l.kind === 'plain' && !used.has(f) && ++words <= 3) continue;
    if (used.has(f) || !['item', 'subtotal', 'tax', 'tip'].includes(l.kind) || l.text.startsWith('(')) break;
    out.push(f);
  }
  const kinds = out.map((b) => lines[b].kind);
  return kinds.includes('item') && kinds.some((x) => x !== 'item') ? out : undefined;
}

/** Within the next few card-slip lines (payment, plain, blank) a tip line comes. */
export function tipFollows(lines: Line[], from: number): boolean {
  for (let f = from; f < lines.length && f < from + 5; f++) {
    const l = lines[f];
    if (l.kind === 'tip') return true;
    if (!['payment', 'plain', 'blank', 'sep'].includes(l.kind) || (l.kind === 'plain' && l.amts.length > 0)) return false;
  }
  return false;
}
