/**
 * Numbers as a document writes them, decided once per document: "1.321,30" and "0,0185" (decimal comma, dot
 * thousands) or "1,321.30" (decimal point, comma thousands). The convention comes from the document's own
 * unambiguous numbers; "5.000" alone is read by it. Values are bigint millionths (see decimal.ts).
 */
import { SCALE } from './decimal.js';

export type Decimal = ',' | '.';

const CURRENCY = /^(?:US\$|C\$|CA\$|A\$|\$|€|£|¥|USD|EUR|GBP|CAD|AUD|CHF|JPY)/i;
const CURRENCY_END = /(?:US\$|\$|€|£|¥|USD|EUR|GBP|CAD|AUD|CHF|JPY)$/i;

/** Votes for each convention from the number-looking tokens of a text. */
export function detectDecimal(text: string): Decimal {
  let comma = 0;
  let dot = 0;
  for (const m of text.matchAll(/\d[\d.,]*\d|\d/g)) {
    const t = m[0];
    if (/^\d{1,3}(?:\.\d{3})+,\d+$/.test(t) || /^\d+,\d{1,2}$/.test(t) || /^0,\d+$/.test(t) || /^\d+,\d{4,6}$/.test(t)) comma++;
    else if (/^\d{1,3}(?:,\d{3})+\.\d+$/.test(t) || /^\d+\.\d{1,2}$/.test(t) || /^0\.\d+$/.test(t)) dot++;
  }
  return comma > dot ? ',' : '.';
}

/** "€ 1.321,30", "$1,200.50", "0,0185", "(4.00)", "12,90" → millionths, by the document's convention. */
export function readNumber(raw: string, decimal: Decimal): bigint | undefined {
  let s = raw.trim();
  if (s.length === 0 || s.length > 40) return undefined;
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  if (s.startsWith('-')) {
    negative = !negative;
    s = s.slice(1).trim();
  } else if (s.endsWith('-')) {
    negative = !negative;
    s = s.slice(0, -1).trim();
  }
  s = s.replace(CURRENCY, '').replace(CURRENCY_END, '').trim();
  if (s.startsWith('-')) {
    negative = !negative;
    s = s.slice(1).trim();
  }
  const thousands = decimal === ',' ? '.' : ',';
  let body = s;
  if (new RegExp(`^\\d{1,3}(?:\\${thousands}\\d{3})+(?:\\${decimal}\\d+)?$`).test(body)) body = body.split(thousands).join('');
  if (decimal === ',') body = body.replace(',', '.');
  const m = /^(\d{1,15})(?:\.(\d{1,6}))?$/.exec(body);
  if (!m) return undefined;
  const value = BigInt(m[1]) * SCALE + BigInt((m[2] ?? '').padEnd(6, '0'));
  return negative ? -value : value;
}
