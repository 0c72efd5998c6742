/** Comparison keys: what counts as "the same" PO number, vendor, SKU and description (see RULES.md). */

/** "PO-1042", "po 1042", "PO#1042" and "1042" are the same order. */
export function normalisePo(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '')
    .replace(/^PO(?=\d)/, '');
}

export function normaliseSku(text: string): string {
  return text.toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');
}

export function normaliseDescription(text: string | undefined): string {
  return (text ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ');
}

const LEGAL = new Set(['inc', 'incorporated', 'llc', 'ltd', 'limited', 'co', 'company', 'corp', 'corporation', 'plc',
  'gmbh', 'ag', 'sa', 'sarl', 'bv', 'nv', 'pty', 'lp', 'llp', 'pllc', 'srl', 'spa', 'kg', 'sl', 'slu', 'sas', 'cv', 'rl', 'sapi',
  'pvt', 'private', 'kk', '株式会社', '有限会社',
  // Polish (sp. z o.o., S.A., s.k.), Portuguese and Brazilian (Lda., Ltda., EIRELI, ME), Italian (S.n.c., S.r.l.s.),
  // French (EURL, SASU), Czech and Slovak (s.r.o., a.s.), Dutch and Belgian (BV, VOF, BVBA), German (OHG, UG),
  // Turkish (A.Ş., Ltd. Şti.).
  'sp', 'oo', 'zoo', 'spzoo', 'ska', 'sk', 'lda', 'ltda', 'eireli', 'epp', 'snc', 'srls', 'eurl', 'sasu', 'sro', 'as',
  'vof', 'bvba', 'ohg', 'ug', 'aş', 'şti', 'sti']);
/** A civil partnership's form ("s.c.") is followed by its partners' names: the firm's name ends there. */
const PARTNERSHIP = new Set(['sc']);

/** "Acme Supply Co." = "ACME SUPPLY COMPANY" = "The Acme Supply, Inc.": case, punctuation, "&"/"and", a leading
 * "The" and trailing legal-form words are ignored; any other word difference is a different vendor. */
export function normaliseVendor(text: string): string {
  // "V000391 - Brazos Stainless" / "Lindqvist Data Consulting LLC (S-004187)": the buyer's vendor number is no part of the name.
  // "000482 CARTIERE FRIULANE …": a number before the name, with no separator, is the vendor's number too.
  const name = text.replace(/\([^)]*\d[^)]*\)/g, ' ').replace(/^\s*[A-Z]{0,3}-?\d{3,}(?:\s*[-–:]\s+|\s+(?=\p{L}))/u, '');
  const words = name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[.'’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words[0] === 'the' && words.length > 1) words.shift();
  const partners = words.findIndex((w, i) => i >= 2 && PARTNERSHIP.has(w));
  if (partners > 0) words.length = partners;
  // Mexican and Spanish forms join their parts with "de" ("S.A. de C.V.", "S. de R.L. de C.V."): once a legal form
  // is dropped, a "de" or a single letter before it belongs to it too.
  let stripped = false;
  while (words.length > 1) {
    const last = words[words.length - 1];
    const part = stripped && words.length > 2 && (last === 'de' || last.length === 1);
    if (!LEGAL.has(last) && !part) break;
    words.pop();
    stripped = true;
  }
  return words.join(' ');
}
