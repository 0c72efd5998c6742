/**
 * Interest (or a dividend) the bank credits net of the tax it withholds, its text stating the gross it was worked
 * from ("세전312,000 법인세43,680", "GROSS 1,250.00 WHT 187.50", "Bruttozins 400,00 KESt 100,00", "税引前 10,000"),
 * against a book entry that posted the gross to the bank account: one receipt whose withholding was never split off,
 * so one `amount_mismatch` (bank − books = minus the tax withheld), not a credit missing on each side.
 */
import { TIMING_DAYS, type Line, type Pair } from './match.js';

/** A word saying the figure after it is before tax (gross), in the languages banks write their memos in. */
const GROSS = String.raw`(?:gross|brutto|bruto|brut|lordo|brüt|bruttozins|before\s+tax|pre-?tax|sebelum\s+pajak|vergi\s+öncesi|trước\s+thuế|세전|세전이자|税引前|税引き前|稅前|税前|ก่อนหักภาษี|ก่อนภาษี|قبل\s+الضريبة|الإجمالي|الاجمالي)`;
// The figure: digits grouped by . , ' or a space, an optional decimal part of one or two digits.
const FIGURE = String.raw`(\d{1,3}(?:[.,' ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?!\d)`;
const STATED = new RegExp(String.raw`${GROSS}\s*(?:amount|interest|이자|利息|금액)?\s*[:=]?\s*(?:[A-Z]{3}\s?|[$€£¥₩₹]\s?)?${FIGURE}`, 'giu');

/** A figure's cents whatever its marks: a last . or , followed by one or two digits is the decimal mark. */
function centsOf(figure: string): bigint {
  const m = /^(.*?)[.,](\d{1,2})$/.exec(figure);
  const [whole, frac] = m && !/[.,' ]\d{3}$/.test(figure) ? [m[1], m[2].padEnd(2, '0')] : [figure, '00'];
  return BigInt(whole.replace(/[.,' ]/g, '') || '0') * 100n + BigInt(frac);
}

/** The one gross amount a line's text states, larger than the line itself; undefined when none or several. */
export function statedGross(l: Line): bigint | undefined {
  const found = new Set([...`${l.description} ${l.reference ?? ''}`.matchAll(STATED)].map((m) => centsOf(m[1])));
  if (found.size !== 1) return undefined;
  const gross = [...found][0];
  const size = l.amountCents < 0n ? -l.amountCents : l.amountCents;
  return gross > size ? gross : undefined;
}

/**
 * An open bank credit stating a gross amount and an open book entry of that gross amount, money in, within
 * TIMING_DAYS, each the only such open line of its side → one pair whose difference is the tax withheld.
 */
export function pairByStatedGross(bank: Line[], books: Line[]): Pair[] {
  const gross = new Map<Line, bigint>();
  for (const b of bank) {
    const g = b.paired || b.amountCents <= 0n ? undefined : statedGross(b);
    if (g !== undefined) gross.set(b, g);
  }
  const fits = (b: Line, k: Line) => !b.paired && !k.paired && gross.get(b) === k.amountCents && Math.abs(b.date - k.date) <= TIMING_DAYS;
  const pairs: Pair[] = [];
  for (const b of gross.keys()) {
    const mine = books.filter((k) => fits(b, k));
    if (mine.length !== 1 || [...gross.keys()].filter((o) => fits(o, mine[0])).length !== 1) continue;
    b.paired = mine[0].paired = true;
    pairs.push({ bank: b, book: mine[0], kind: 'mismatch', by: 'stated gross', days: b.date - mine[0].date });
  }
  return pairs;
}
