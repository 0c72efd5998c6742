/**
 * A tax number registered to someone else (RULES.md rule 9, "other"): the vendor gives a VAT, GST or tax number, and
 * the tax authority's own check, pasted beside it, names a different business as its holder ("Check a UK VAT
 * number … Registered business name: OTHER LTD", a VIES "Trader name", a registrant's name), or says the name and
 * number do not match ("name/TIN combination does not match IRS records"). The number is not missing, it is the
 * wrong one: the vendor would charge tax under another business's registration, or is not who it says it is. The
 * holder is compared with every name the document gives the vendor (names.ts), punctuation, case and legal-form
 * words aside; nothing is compared when the document names no vendor.
 */
import { nameTokens } from './names.js';
import { lineOf, type Finding } from './text.js';

/** The holder's name as the tax authority's check prints it. */
const HOLDER =
  /^[ \t>*-]*(?:registered\s+business\s+name|trader(?:'s)?\s+name|name\s+of\s+(?:the\s+)?trader|registrant(?:'s)?\s+(?:legal\s+)?name|name\s+on\s+(?:the\s+)?(?:vat|gst|tax)\s+(?:record|register|registration))\s*[:|]\s*(.+)$/gimu;
/** A tax-number check: the holder's line must stand in one, within a few lines after its heading. */
const TAX_CHECK = /(?<![\p{L}])(?:vat|gst|hst|tin|abn|vies|tva|ust|iva|tax\s+(?:number|id|registration))(?![\p{L}])/iu;
/** The authority's own word that name and number disagree. */
const NO_MATCH =
  /(?<![\p{L}])(?:(?:name\s*\/\s*tin|tin\s*\/\s*name|tin\s+and\s+name|name\s+and\s+tin)\s+(?:combination\s+)?(?:does\s+not|do\s+not|doesn't|don't)\s+match|(?:vat|gst|tax)\s+(?:registration\s+)?(?:number|id)\s+(?:is\s+)?registered\s+to\s+(?:a\s+)?(?:different|another)\s+(?:business|company|entity|trader))(?![\p{L}])/iu;

export function findTaxNumberOfOther(prose: string, vendorNames: string[]): (Finding & { what: string }) | undefined {
  const no = NO_MATCH.exec(prose);
  if (no) return at(prose, no.index, no[0].length);
  const vendors = vendorNames.map(nameTokens).filter((t) => t.length > 0);
  if (vendors.length === 0) return undefined;
  for (const m of prose.matchAll(HOLDER)) {
    const before = prose.slice(0, m.index).split('\n').slice(-8).join('\n');
    if (!TAX_CHECK.test(before) && !TAX_CHECK.test(m[0])) continue;
    const holder = m[1].replace(/\s{3,}.*$/, '').trim();
    const words = nameTokens(holder);
    if (words.length === 0 || /\d/.test(holder)) continue;
    const same = vendors.some((v) => words.every((w) => v.includes(w)) || v.every((w) => words.includes(w)));
    if (!same) return at(prose, m.index!, m[0].length);
  }
  return undefined;
}

function at(prose: string, index: number, length: number): Finding & { what: string } {
  const context = prose.slice(Math.max(0, index - 600), index + length);
  const what = /(?<![\p{L}])vat(?![\p{L}])/iu.test(context) ? 'VAT number registered to a different business' : 'tax number registered to a different business';
  return { what, detail: `"${lineOf(prose, index)}"`, at: index, end: index + length };
}
