/**
 * The non-jurisdiction red flags of vendor-risk/rules@1, one detector per rule of RULES.md. Each returns the flag
 * details it found (empty when the rule is clean); the engine turns them into flag strings and documents to collect.
 */
import { B, E, type DaySpan, clauseAfter, clauseBefore, dayNumber, firstDate, isoDay, matches } from './text.js';

// ---- tax id / W-9 ------------------------------------------------------------------------------------------------

const TAX_LABEL =
  "(?:EIN|FEIN|TIN|ITIN|tax\\s*(?:payer\\s*)?(?:id(?:entification)?(?:\\s+number)?|no\\.?|number|reg(?:istration)?(?:\\s+number)?)|VAT(?:\\s*(?:reg(?:istration)?|id|no\\.?|number))*|USt-?IdNr\\.?|GST(?:IN)?|ABN|UTR|SIRE[NT]|NIF|partita\\s+iva|P\\.?\\s?IVA)";
const TAX_NUMBER = new RegExp(`${B}${TAX_LABEL}(?:\\s*(?:no\\.?|number|#|:|-|is))*\\s*[A-Z]{0,3}[\\s-]?\\d[\\d -]{4,}\\d`, 'giu');
const BARE_EIN = /(?<![\d-])\d{2}-\d{7}(?![\d-])/u;
const BARE_VAT = /(?<![\p{L}\p{N}])(?:ATU\d{8}|BE0\d{9}|DE\d{9}|FR[0-9A-Z]{2}\d{9}|GB\d{9}(?:\d{3})?|NL\d{9}B\d{2}|IT\d{11}|ES[0-9A-Z]\d{7}[0-9A-Z]|IE\d{7}[A-Z]{1,2})(?![\p{L}\p{N}])/u;

export function hasTaxNumber(text: string): boolean {
  TAX_NUMBER.lastIndex = 0;
  return TAX_NUMBER.test(text) || BARE_EIN.test(text) || BARE_VAT.test(text);
}

const W_FORM = new RegExp(`${B}(?:form\\s+)?W-?\\s?(?:9|8\\s?-?BEN(?:-?E)?|8\\s?-?ECI)${E}`, 'giu');
const FORM_MISSING_BEFORE =
  /(?<![\p{L}])(?:no|not|without|missing|awaiting|pending|unsigned|unable\s+to\s+provide|cannot\s+provide|can't\s+provide|refuse[sd]?\s+to\s+provide|will\s+(?:send|provide|submit|follow\s+up\s+with))\s+(?:(?:a|the|our|any|signed|completed|copy\s+of)\s+)*$/iu;
const FORM_MISSING_AFTER =
  /^\s*(?:form\s*)?[:-]?\s*(?:is\s+|was\s+|has\s+|will\s+be\s+|to\s+be\s+)?(?:not|no|none|pending|to\s+follow|to\s+come|outstanding|missing|later|requested|tbd|tba|provided\s+later|sent\s+later|unavailable|expired|unsigned|coming|being\s+prepared|in\s+progress)(?![\p{L}])/iu;
const FORM_PRESENT_AFTER =
  /^\s*(?:form\s*)?[:-]?\s*(?:is\s+|was\s+|has\s+been\s+|have\s+been\s+)?(?:on\s+file|attached|enclosed|received|provided|submitted|signed|included|collected|yes|y|ok|completed|uploaded|in\s+hand|verified|filed|\u2713|\u2714|x)(?![\p{L}])/iu;
const FORM_PRESENT_BEFORE = /(?<![\p{L}])(?:attached|enclosed|signed|completed|received|have|has|provided|submitted|uploaded)\s+(?:(?:a|the|our|is|are|its|your|copy\s+of)\s+)*$/iu;
const TAXID_LATER = new RegExp(
  `${B}(?:(?:no|without|missing)\\s+(?:${TAX_LABEL})|(?:will|to)\\s+(?:provide|send|supply|share)\\s+(?:(?:the|our|a|its)\\s+)?(?:${TAX_LABEL})|(?:${TAX_LABEL})\\s*[:-]?\\s*(?:is\\s+|will\\s+be\\s+)?(?:pending|to\\s+follow|later|not\\s+(?:available|provided|yet)|unavailable|tbd|tba|none|applied\\s+for))${E}`,
  'iu',
);

/** The tax-documentation gap, or undefined when a tax number or a W-9 / W-8 on file is shown. */
export function findTaxGap(text: string): string | undefined {
  let present = false;
  let stated: string | undefined;
  for (const m of matches(W_FORM, text)) {
    const form = m[0].replace(/^form\s+/i, '').replace(/\s/g, '').toUpperCase();
    const before = clauseBefore(text, m.index).slice(-60);
    const after = clauseAfter(text, m.index + m[0].length, 60);
    if (FORM_MISSING_BEFORE.test(before) || FORM_MISSING_AFTER.test(after)) stated ??= `${form} stated as not provided`;
    else if (FORM_PRESENT_AFTER.test(after) || FORM_PRESENT_BEFORE.test(before)) present = true;
  }
  if (present) return undefined;
  if (stated) return stated;
  if (TAXID_LATER.test(text)) return 'tax id stated as not provided yet';
  if (!hasTaxNumber(text)) return 'no EIN/TIN/VAT number and no W-9 or W-8BEN on file';
  return undefined;
}

// ---- young company -----------------------------------------------------------------------------------------------

/** The reference date when the profile states none ("as of 2026-11-01"): the publication date of rules@1. */
export const REFERENCE_DATE = '2026-11-01';
const AS_OF = /(?<![\p{L}])(?:as\s+(?:of|at)|review\s+date|reviewed\s+on|date\s+of\s+review|assessment\s+date)\s*[:-]?\s*/giu;

export function referenceDay(text: string): { day: number; stated: boolean } {
  for (const m of matches(AS_OF, text)) {
    const d = firstDate(text.slice(m.index + m[0].length, m.index + m[0].length + 24), true);
    if (d) return { day: d.earliest, stated: true };
  }
  const [y, mo, da] = REFERENCE_DATE.split('-').map(Number);
  return { day: dayNumber(y, mo, da), stated: false };
}

const FOUNDED = new RegExp(
  `${B}(?:incorporated|incorporation|founded|established|est\\.?|estd\\.?|formed|formation|registered\\s+(?:on|in|since)|in\\s+business\\s+since|operating\\s+since|trading\\s+since)${E}`,
  'giu',
);
const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, few: 3, couple: 2, several: 6 };
const COUNT = '(\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:a\\s+)?few|(?:a\\s+)?couple(?:\\s+of)?|several)';
const UNIT = '(day|week|month|year)s?';
const RELATIVE = new RegExp(
  `${B}(?:(?:incorporated|founded|established|formed|started|launched|registered|set\\s+up|opened)\\s+(?:just\\s+|only\\s+|about\\s+|around\\s+)?${COUNT}\\s+${UNIT}\\s+ago` +
    `|(?:in\\s+business|operating|trading|been\\s+around|existed)\\s+(?:for\\s+)?(?:just\\s+|only\\s+|about\\s+|around\\s+)?${COUNT}\\s+${UNIT}` +
    `|${COUNT}[- ]${UNIT.replace('s?', '')}[- ]old\\s+(?:company|business|firm|entity|start-?up|llc|ltd))${E}`,
  'giu',
);
const NEWLY = new RegExp(`${B}(?:newly|recently|just)\\s+(?:incorporated|formed|founded|established|registered|set\\s+up)${E}`, 'iu');

function months(count: string, unit: string): number {
  const c = /^\d/.test(count) ? Number(count) : NUMBER_WORDS[count.replace(/^a\s+|\s+of$/gi, '').toLowerCase()] ?? 3;
  const u = unit.toLowerCase();
  return u === 'year' ? c * 12 : u === 'month' ? c : u === 'week' ? c / 4.35 : c / 30.4;
}

/**
 * Why the vendor cannot be shown to be at least 12 months old, or undefined. Of several founding dates the oldest
 * counts (a company founded in 1998 and re-registered last year is not young).
 */
export function findYoungCompany(text: string): string | undefined {
  const ref = referenceDay(text);
  const refText = isoDay(ref.day);
  const oneYearBefore = ref.day - 365;
  let oldest: DaySpan | undefined;
  for (const m of matches(FOUNDED, text)) {
    const d = firstDate(clauseAfter(text, m.index + m[0].length, 60));
    if (d && (!oldest || d.latest < oldest.latest)) oldest = d;
  }
  let relMonths: number | undefined;
  for (const m of matches(RELATIVE, text)) {
    const count = m[1] ?? m[3] ?? m[5];
    const unit = m[2] ?? m[4] ?? m[6];
    const mo = months(count, unit);
    relMonths = Math.max(relMonths ?? 0, mo);
  }
  if (relMonths !== undefined && relMonths >= 12) return undefined;
  if (oldest && oldest.latest <= oneYearBefore) return undefined;
  if (oldest) return `founded ${oldest.text}, not shown to be 12 months old on ${refText}`;
  if (relMonths !== undefined) return `in business about ${Math.max(0, Math.round(relMonths))} month(s)`;
  if (NEWLY.test(text)) return 'described as newly formed';
  return undefined;
}

// ---- PO box only -------------------------------------------------------------------------------------------------

const PO_BOX = new RegExp(
  `${B}(?:p\\.?\\s?o\\.?\\s?box|post\\s+office\\s+box|postfach|post\\s+box|pob(?=\\s*\\d)|bo[iî]te\\s+postale|b\\.?p\\.?(?=\\s*\\d)|apartado(?:\\s+(?:postal|de\\s+correos))?|casilla(?:\\s+postal)?|caixa\\s+postal|postbus|postboks)(?:\\s*(?:no\\.?|number|#)?\\s*\\d[\\d-]*)?`,
  'giu',
);
const STREET_TYPES =
  'street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|court|ct|place|pl|plaza|square|sq|highway|hwy|parkway|pkwy|terrace|circle|cir|trail|pike|row|crescent|close|mews|walk|quay|wharf|broadway';
const STREETS = [
  new RegExp(`(?<![\\p{N}])\\d+[a-z]?(?:[-/]\\d+)?,?\\s+(?:[\\p{L}\\p{N}.'-]+\\s+){0,4}(?:${STREET_TYPES})${E}`, 'iu'),
  /(?<![\p{N}])\d+[a-z]?,?\s+(?:rue|avenue|av\.|boulevard|bd|via|viale|calle|avenida|rua|chemin|place|allee|piazza|corso|carrer)(?![\p{L}])/iu,
  /(?<![\p{L}-])[\p{L}-]*(?:strasse|straße|str\.|weg|gasse|platz|allee|ring|damm|ufer|chaussee|markt|straat|laan|gracht|plein|kade|vej|gade|gatan|vagen|katu|tie)\s*\d+/iu,
  /(?<![\p{L}])(?:rue|via|viale|calle|avenida|rua|carrer|ul\.|ulica|corso|piazza)\s+[\p{L}' -]{2,40}?,?\s*\d+/iu,
];

export function findPoBoxOnly(text: string): string | undefined {
  let box: string | undefined;
  let rest = '';
  let last = 0;
  for (const m of matches(PO_BOX, text)) {
    box ??= m[0].trim();
    rest += text.slice(last, m.index) + ' ';
    last = m.index + m[0].length;
  }
  if (!box) return undefined;
  rest += text.slice(last);
  return STREETS.some((re) => re.test(rest)) ? undefined : `${box} with no street address`;
}
