/**
 * What the glossaries of the policy's languages share (german.ts, dutch.ts, italian.ts): a phrase matched as whole
 * words of any script, and numbers written the continental way (1.250,00 €) rewritten the English way (1250.00).
 */

/** A whole-word, case-insensitive phrase; `suffix` may look ahead ("tot" only before an amount). */
export const phrase = (alternatives: string, suffix = '') => new RegExp(`(?<![\\p{L}])(?:${alternatives})${suffix}(?![\\p{L}])`, 'giu');

/** Looks ahead for an amount: "tot EUR 25", "fino a 130 €". */
export const BEFORE_AMOUNT = '(?=\\s?(?:[$€£]|eur\\b|euro\\b)?\\s?\\d)';

/** 10.000 km → 10000 km; 1.250,00 € → 1250.00 €; 70,00 → 70.00: thousands by full stops, a decimal comma. */
export function englishNumbers(s: string): string {
  return s
    .replace(/(?<![\d.,])(\d{1,3})((?:\.\d{3})+)(?![\d.]|,\d{3})/g, (_, a: string, b: string) => a + b.replace(/\./g, ''))
    .replace(/(?<![\d,])(\d+),(\d{1,4})(?![\d,])/g, '$1.$2');
}

/** The sentence with each phrase of the glossary replaced in turn (earlier, longer phrases first). */
export function translate(s: string, glossary: [RegExp, string][]): string {
  let out = englishNumbers(s);
  for (const [re, en] of glossary) out = out.replace(re, en);
  return out;
}
