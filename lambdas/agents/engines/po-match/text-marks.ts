/**
 * Marks in a printed text that are not its words. Right-to-left prints (Hebrew, Arabic) carry invisible direction
 * marks (LRM, RLM, embeddings, isolates) around numbers and labels: they take no cell on the page, so they are dropped
 * before columns are measured or labels looked up.
 * Currency symbols printed before every amount that the shared money reader does not strip: the South African rand's
 * `R` ("R 16 440,00", "R1,250.00"). The symbol is blanked where it marks an amount written with its cents (so columns
 * keep their printed positions and every line keeps its number), and names the document's currency. A lone `R` before
 * a bare count or a code ("R 12", "R-410A") marks nothing.
 */

/** "R 6,85", "R 16 440,00", "R1,250.00": the rand sign before an amount with two decimals. */
const RAND = /(?<![\p{L}\p{N}_./-])R\s?(?=\d{1,3}(?:[ \u00a0,.]\d{3})*[.,]\d{2}(?![\d.,]))/gu;

export interface Unmarked {
  text: string;
  /** The currency the marks name, when the document marks at least two amounts so. */
  currency?: string;
}

const DIRECTION_MARKS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function unmarkAmounts(sent: string): Unmarked {
  const text = sent.replace(DIRECTION_MARKS, '');
  const marks = text.match(RAND)?.length ?? 0;
  // One "R 5,00" may be anything (a grade, a row label); a document pricing in rand marks its amounts throughout.
  if (marks < 2) return { text };
  return { text: text.replace(RAND, (m) => ' '.repeat(m.length)), currency: 'ZAR' };
}
