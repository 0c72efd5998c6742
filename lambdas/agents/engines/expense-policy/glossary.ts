/**
 * What the glossaries of the policy's languages share (german.ts, dutch.ts, italian.ts, french.ts, spanish.ts,
 * portuguese.ts, polish.ts, japanese.ts): a phrase matched as whole words of any script, and numbers written the
 * local way rewritten the English way: 1.250,00 € and 1 234,56 zł (a decimal comma), 15,000円 and $1,900.00 MXN (a
 * thousands comma), each number read by its own shape first.
 */

/** A whole-word, case-insensitive phrase; `suffix` may look ahead ("tot" only before an amount). */
export const phrase = (alternatives: string, suffix = '') => new RegExp(`(?<![\\p{L}])(?:${alternatives})${suffix}(?![\\p{L}])`, 'giu');

/** A phrase of a script written without spaces (Japanese, Chinese): matched anywhere, case-insensitive. */
export const inScript = (alternatives: string) => new RegExp(`(?:${alternatives})`, 'giu');

/** Looks ahead for an amount: "tot EUR 25", "fino a 130 €", "até R$ 75", "hasta $1,900.00". */
export const BEFORE_AMOUNT = '(?=\\s?(?:[$€£¥]|r\\$|eur\\b|euro\\b|brl\\b|mxn\\b|pln\\b|zł\\s)?\\s?\\d)';

/**
 * Numbers the local way rewritten the English way. `comma` says what a lone comma is where the number's shape does
 * not: a decimal comma on the continent (70,00 → 70.00; 0,636 €/km), thousands in Japan (15,000円 → 15000). A number
 * with both marks tells by itself (1.250,00 and 1,900.00: the last mark is the decimal one); groups of three digits
 * split by spaces ("1 234,56 zł", "1 030,30") are one number when a decimal comma closes them.
 */
export function englishNumbers(s: string, comma: 'decimal' | 'thousands' = 'decimal'): string {
  return s
    // 1 234,56 → 1234,56 (a space, no-break or thin space between groups of three, a decimal comma after).
    .replace(/(?<![\d.,])(\d{1,3})((?:[ \u00a0\u202f]\d{3})+)(?=,\d{2}(?!\d))/g, (_, a: string, b: string) => a + b.replace(/[ \u00a0\u202f]/g, ''))
    // 1,900.00 → 1900.00: thousands by commas, a decimal point.
    .replace(/(?<![\d.,])(\d{1,3})((?:,\d{3})+)(\.\d{1,2})(?![\d.,])/g, (_, a: string, b: string, c: string) => a + b.replace(/,/g, '') + c)
    // 1.250,00 → 1250,00; 10.000 → 10000: thousands by full stops (never before a further comma group).
    .replace(/(?<![\d.,])(\d{1,3})((?:\.\d{3})+)(?![\d.]|,\d{3})/g, (_, a: string, b: string) => a + b.replace(/\./g, ''))
    // 15,000 / 1,234,567 in a thousands-comma language: the commas go.
    .replace(comma === 'thousands' ? /(?<![\d.,])(\d{1,3})((?:,\d{3})+)(?![\d.,])/g : /(?!)/g, (_, a: string, b: string) => a + b.replace(/,/g, ''))
    // 70,00 → 70.00: a decimal comma.
    .replace(comma === 'decimal' ? /(?<![\d,])(\d+),(\d{1,4})(?![\d,])/g : /(?!)/g, '$1.$2');
}

/** The sentence with each phrase of the glossary replaced in turn (earlier, longer phrases first). */
export function translate(s: string, glossary: [RegExp, string][], comma: 'decimal' | 'thousands' = 'decimal'): string {
  let out = englishNumbers(s, comma);
  for (const [re, en] of glossary) out = out.replace(re, en);
  return out;
}
