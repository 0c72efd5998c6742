/**
 * Numbers as a document writes them, decided once per document: "1.321,30" and "0,0185" (decimal comma, dot
 * thousands) or "1,321.30" (decimal point, comma thousands). The convention comes from the document's own
 * unambiguous numbers; "5.000" alone is read by it. Values are bigint millionths (see decimal.ts).
 */
import { parseMoney } from '../text/amount.js';

export type Decimal = ',' | '.';

/** Currency marks POs print that the shared reader does not strip (it reads statements in the five it knows). */
const MORE_CURRENCY = /^([-(]?\s*)(?:C\$|CA\$|A\$|CHF|JPY)\s*|\s*(?:CHF|JPY)(\)?)$/i;

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

/**
 * "€ 1.321,30", "$1,200.50", "0,0185", "(4.00)", "12,90" → millionths, by the document's convention: the shared money
 * reader (text/amount.ts) to six places. Under a decimal comma a number without a comma that is no grouping of
 * thousands ("1.5") still reads with its point.
 */
export function readNumber(raw: string, decimal: Decimal): bigint | undefined {
  const s = raw.replace(MORE_CURRENCY, '$1$2');
  // Sixteen digits and more before the decimals are a code printed in the row (an EAN, an account), not an amount.
  if ((s.split(decimal)[0].match(/\d/g) ?? []).length > 15) return undefined;
  return parseMoney(s, decimal, 6) ?? (decimal === ',' && !s.includes(',') ? parseMoney(s, '.', 6) : undefined);
}
