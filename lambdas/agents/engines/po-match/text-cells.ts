/**
 * The cells of a printed table row: thousands grouped by a space joined into one number, the numbers and words of a
 * cell told apart, and a price cell read with its price unit and unit of measure.
 */
import { SCALE } from './decimal.js';
import { readNumber, type Decimal } from './number.js';
import { priceBasis, unitCode } from './units.js';
import type { Tok } from './text-columns.js';

/**
 * "1 245,00", "12 500" (French and other prints group thousands with a space, a no-break space being a space once the
 * text is normalised): a number of one to three digits followed after one space by a group of three is one number.
 */
export function joinGroups(toks: Tok[]): Tok[] {
  const out: Tok[] = [];
  for (const t of toks) {
    const prev = out[out.length - 1];
    if (prev && t.start - prev.end === 1 && /^(?:[$€£¥]?\d{1,3}|(?:[$€£¥]?\d{1,3} )(?:\d{3} )*\d{3})$/.test(prev.text) && /^\d{3}(?:[.,]\d+)?(?:€|£)?$/.test(t.text)) {
      out[out.length - 1] = { text: `${prev.text} ${t.text}`, start: prev.start, end: t.end };
    } else out.push(t);
  }
  return out;
}

export const joinText = (toks: Tok[] | undefined) => (toks ?? []).map((t) => t.text).join(' ');

export function numbersIn(toks: Tok[] | undefined, decimal: Decimal): { values: bigint[]; words: string[] } {
  const values: bigint[] = [];
  const words: string[] = [];
  for (const t of toks ?? []) {
    const v = readNumber(t.text, decimal);
    if (v !== undefined) values.push(v);
    else if (!/^(?:US\$|\$|€|£)$/.test(t.text)) words.push(t.text);
  }
  return { values, words };
}

/** "4,85 / 1 ST", "€ 0,0185/st", "$38.90/cs", "48.750": price, price unit (base) and unit. */
export function readPrice(text: string, decimal: Decimal): { price: bigint; base?: bigint; uom?: string } | undefined {
  // "15.890 LB": a unit written after the price, without a slash, is what it is priced per.
  // A currency after the price ("14,20 €", French and Spanish prints) or before it ("¥1,450") is no part of it.
  // "6 950,00": thousands grouped with a space inside one printed token (joinGroups; marked by a no-break space, so
  // "50  300.00", a description's number beside a price, stays two numbers) are one price.
  const m = /^\s*(?:US\$|\$|€|£|¥|EUR|USD|GBP)?\s*(\d{1,3}(?:\u00a0\d{3})+(?:[.,]\d+)?|[\d.,]+)\s*(?:\/\s*([\d.,]+)?\s*([A-Za-z]{1,8})?|\s([A-Za-z]{2,3}))?\s*(?:EUR|USD|GBP|€|£|¥)?\s*$/.exec(text);
  if (!m) return undefined;
  const price = readNumber(m[1].replace(/\u00a0/g, ' '), decimal);
  if (price === undefined) return undefined;
  if (m[4] !== undefined && unitCode(m[4]) === undefined && !/^(?:EUR|USD|GBP)$/i.test(m[4])) return undefined;
  let base = m[2] !== undefined ? readNumber(m[2], decimal) : undefined;
  // "8.40/C", "84.00/M": a price-basis letter after the slash (per 100, per 1000), not a unit of measure.
  const basis = m[2] === undefined && m[3] !== undefined && unitCode(m[3]) === undefined ? priceBasis(m[3]) : undefined;
  if (basis !== undefined && basis > 1) base = BigInt(basis) * SCALE;
  return { price, base: base !== undefined && base > 0n && base !== SCALE ? base : undefined, uom: unitCode(m[3] ?? m[4]) };
}
