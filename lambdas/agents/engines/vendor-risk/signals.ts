/**
 * The non-jurisdiction red flags of vendor-risk/rules@1, one detector per rule of RULES.md. Each returns the flag
 * details it found (empty when the rule is clean); the engine turns them into flag strings and documents to collect.
 */
import { B, E, type DaySpan, clauseAfter, clauseBefore, dayNumber, firstDate, isoDay, matches } from './text.js';

// ---- tax id / W-9 ------------------------------------------------------------------------------------------------

const BARE_EIN = /(?<![\d-])\d{2}-\d{7}(?![\d-])/u;
const BARE_VAT = /(?<![\p{L}\p{N}])(?:ATU\d{8}|BE0\d{9}|DE\d{9}|FR[0-9A-Z]{2}\d{9}|GB\d{9}(?:\d{3})?|NL\d{9}B\d{2}|IT\d{11}|ES[0-9A-Z]\d{7}[0-9A-Z]|IE\d{7}[A-Z]{1,2})(?![\p{L}\p{N}])/u;

export function hasTaxNumber(text: string): boolean {
  return !!readTaxNumbers(text).number || BARE_EIN.test(text) || BARE_VAT.test(text);
}

const W_FORM = new RegExp(`${B}(?:form\\s+)?W-?\\s?(?:9|8\\s?-?BEN(?:-?E)?|8\\s?-?ECI)${E}`, 'giu');
const FORM_MISSING_BEFORE =
  /(?<![\p{L}])(?:no|not|without|missing|awaiting|pending|unsigned|unable\s+to\s+provide|cannot\s+provide|can't\s+provide|refuse[sd]?\s+to\s+provide|(?:will|'ll)\s+(?:send|provide|submit|complete|forward|return|follow\s+up\s+with)|to\s+follow(?:\s+with)?)\s+(?:(?:a|the|our|any|signed|completed|copy\s+of)\s+)*$/iu;
/** Words that say a form or number is not there yet, as a value ("W-9: to follow", "EIN: applied for"). */
const NOT_YET_WORDS =
  "(?:not|no|none|n\\/a|pending|applied\\s+for|to\\s+(?:follow|come)|will\\s+(?:have\\s+to\\s+)?follow|(?:will|'ll)\\s+(?:send|provide|complete|supply|submit|forward|give)|outstanding|missing|later|requested|tbd|tba|awaiting|unavailable|expired|unsigned|coming|being\\s+prepared|in\\s+progress|after\\s+(?:approval|(?:the\\s+)?first\\s+order))(?![\\p{L}])";
const FORM_MISSING_AFTER = new RegExp(`^\\s*(?:form\\s*)?[:-]?\\s*(?:is\\s+|was\\s+|has\\s+|will\\s+be\\s+|to\\s+be\\s+|provided\\s+|sent\\s+)?${NOT_YET_WORDS}`, 'iu');
const FORM_PRESENT_AFTER =
  /^\s*(?:form\s*)?(?:\([^)]{0,30}\)\s*)?[:-]?\s*(?:is\s+|was\s+|has\s+been\s+|have\s+been\s+)?(?:on\s+file|attached|enclosed|received|provided|submitted|signed|included|collected|yes|y|ok|completed|uploaded|in\s+hand|verified|filed|(?:came|come|is|was)\s+back|returned|\u2713|\u2714|x)(?![\p{L}])/iu;
const FORM_PRESENT_BEFORE = /(?<![\p{L}])(?:attached|enclosed|signed|completed|received|have|has|provided|submitted|uploaded)\s+(?:(?:a|the|our|is|are|its|your|copy\s+of)\s+)*$/iu;

/** Tax-number labels of the forms vendors send (US, EU, UK, Canada, Latin America, Türkiye, CIS…). */
const TIN =
  `(?:EIN|FEIN|TIN|ITIN|SSN|FTIN|employer\\s+identification\\s+number|social\\s+security\\s+number|taxpayer\\s+identification\\s+number|foreign\\s+tax\\s+identifying\\s+number|tax\\s*(?:payer\\s*)?(?:id(?:entification)?|no\\.?|number|reg(?:istration)?(?:\\s+(?:number|no\\.?))?)|VAT(?:\\s*(?:reg(?:istration)?|id|no\\.?|number))*|USt-?IdNr\\.?|Steuernummer|GST(?:IN)?|ABN|UTR|SIRE[NT]|NIF|NIPC?|CIF|RFC|RUT|RUC|CUIT|CNPJ|INN|UNP|VKN|TRN|business\\s+number|partita\\s+iva|codice\\s+fiscale)${E}`;
const TIN_LABEL = new RegExp(`${B}${TIN}`, 'giu');
const TAXID_LATER = new RegExp(`${B}(?:(?:no|without|missing)|(?:will|to)\\s+(?:provide|send|supply|share)(?:\\s+(?:the|our|a|its))?)\\s+${TIN}`, 'iu');
/** What may stand between a label and its value: punctuation and the label's own words ("NIF (tax id):", "Tax ID / EIN:"). */
const FILLER = /^(?:[\s:#=/().\[-]|(?<![\p{L}])(?:no|nr|number|num|id|ein|tin|tax|vat|is|if\s+any|if\s+required|see\s+instructions)(?![\p{L}]))*/iu;
/** A tax number as written: optional letters, then digits with spaces, dashes, slashes or dots between (≥ 6 digits). */
const NUMBER_VALUE = /^[A-Z]{0,4}[\s-]?\d[\dA-Z \-/.]*/iu;
/**
 * A number masked on the copy ("XXX-XX-4417", "***-**-4417", "•••••6620"): the document had one and redacted it, as
 * a copy passed around should; it is a number on file, not a missing one.
 */
const MASKED = /^(?:[X*•#]{3}-?[X*•#]{2}-?\d{4}|[X*•#]{2}-?[X*•#]{3}\d{4}|[X*•#]{4,}\s?\d{3,4})(?![\dA-Z])/iu;
/** A value that says the number is not there yet. */
const NOT_YET = new RegExp(`^(?:we\\s+|i\\s+|it\\s+|they\\s+)?(?:is\\s+|are\\s+|will\\s+be\\s+)?${NOT_YET_WORDS}`, 'iu');

const digits = (s: string) => (s.match(/\d/g) ?? []).length;

export interface TaxReading {
  /** The line that shows a tax number. */
  number?: string;
  /** The line that says the number is not there yet. */
  notYet?: string;
}

/** Labelled tax numbers, on the label's line or (a pasted PDF form) on the next non-blank line under it. */
export function readTaxNumbers(text: string): TaxReading {
  const out: TaxReading = {};
  for (const m of matches(TIN_LABEL, text)) {
    const label = m[0];
    // Short capitalised labels (INN, RUT, CIF…) are words too ("Holiday Inn"): they count only in capitals.
    if (/^[A-Za-z]{2,4}$/.test(label) && label !== label.toUpperCase()) continue;
    const lineEnd = text.indexOf('\n', m.index);
    const rest = text.slice(m.index + label.length, lineEnd < 0 ? text.length : lineEnd);
    const value = rest.slice(FILLER.exec(rest)?.[0].length ?? 0);
    const here = NUMBER_VALUE.exec(value);
    if ((here && digits(here[0]) >= 6) || MASKED.test(value)) {
      out.number ??= lineOf(text, m.index);
      continue;
    }
    if (NOT_YET.test(value)) {
      out.notYet ??= lineOf(text, m.index);
      continue;
    }
    if (value.trim() !== '' || lineEnd < 0) continue;
    const below = nextLine(text, lineEnd);
    if (!below) continue;
    const whole = /^\s*[A-Z]{0,4}[\s-]?\d[\d \-/.]*\s*$/iu.test(below.text);
    if (whole && digits(below.text) >= 6) out.number ??= `${lineOf(text, m.index)} / ${below.text.trim()}`;
    else if (NOT_YET.test(below.text.trim())) out.notYet ??= `${lineOf(text, m.index)} / ${below.text.trim()}`;
  }
  return out;
}

function nextLine(text: string, from: number): { text: string } | undefined {
  let at = from;
  for (let k = 0; k < 3 && at >= 0 && at < text.length; k++) {
    const nl = text.indexOf('\n', at + 1);
    const line = text.slice(at + 1, nl < 0 ? text.length : nl);
    if (line.trim() !== '') return { text: line };
    at = nl;
  }
  return undefined;
}

/**
 * The evidence a flag quotes: the trimmed line holding `index`, or, when the line is long (a one-line profile), the
 * sentence holding it; clipped either way.
 */
export function lineOf(text: string, index: number, max = 160): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const nl = text.indexOf('\n', index);
  let line = text.slice(start, nl < 0 ? text.length : nl);
  if (line.length > max) {
    const at = index - start;
    const ends = [...line.matchAll(/(?<=\p{Ll}{2}|\d)[.!?;](?=\s+\p{Lu})/gu)].map((m) => m.index! + 1);
    const from = Math.max(0, ...ends.filter((e) => e <= at));
    const to = Math.min(line.length, ...ends.filter((e) => e > at));
    line = line.slice(from, to);
  }
  line = line.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Signs that the document is about a vendor already in the payables file (an invoice, a notice about open
 * invoices or the vendor record): its tax id is in the master file, so a document that merely does not repeat it
 * shows no gap. A statement that the number is not there still counts.
 */
const EXISTING_VENDOR =
  /(?<![\p{L}])(?:(?:vendor|supplier)\s+(?:file|record|master)|have\s+on\s+file\s+for\s+us|(?:open|outstanding|unpaid)(?:\s+and\s+future)?\s+invoices|next\s+payment\s+run|valued\s+customer|customer\s*(?:#|no\.?\s|number|account)|(?:attached|enclosed)\s+(?:is|are|please\s+find)\s+(?:our\s+)?invoice|invoices?\s+dated|(?:EIN|tax\s+id)[^.\n]{0,40}unchanged)/iu;

/** The tax-documentation gap (with the line it rests on), or undefined when a tax number or a W-9 / W-8 on file is shown. */
export function findTaxGap(text: string): string | undefined {
  let present = false;
  let stated: string | undefined;
  for (const m of matches(W_FORM, text)) {
    const form = m[0].replace(/^form\s+/i, '').replace(/\s/g, '').toUpperCase();
    const before = clauseBefore(text, m.index).slice(-60);
    const after = clauseAfter(text, m.index + m[0].length, 60);
    if (FORM_MISSING_BEFORE.test(before) || FORM_MISSING_AFTER.test(after)) stated ??= `${form} stated as not provided ("${lineOf(text, m.index)}")`;
    else if (FORM_PRESENT_AFTER.test(after) || FORM_PRESENT_BEFORE.test(before)) present = true;
  }
  // A promise to send the form later outweighs another sentence that mentions the form: it is not on file today.
  if (stated) return stated;
  const read = readTaxNumbers(text);
  if (present || read.number || hasTaxNumber(text)) return undefined;
  if (read.notYet) return `tax id stated as not provided yet ("${read.notYet}")`;
  const later = TAXID_LATER.exec(text);
  if (later) return `tax id stated as not provided yet ("${lineOf(text, later.index)}")`;
  if (EXISTING_VENDOR.test(text)) return undefined;
  return 'no EIN/TIN/VAT number and no W-9 or W-8BEN on file';
}

// ---- young company -----------------------------------------------------------------------------------------------

/** The reference date when the profile states none ("as of 2026-11-01"): the publication date of rules@1. */
export const REFERENCE_DATE = '2026-11-01';
const AS_OF = /(?<![\p{L}])(?:as\s+(?:of|at)|review\s+date|reviewed(?:\s+on)?|date\s+of\s+review|assessment\s+date)\s*[:-]?\s*/giu;

/** A date the document itself carries (an e-mail's Date header, a form's submission time), as the review date. */
export interface DocumentDate {
  day: number;
  text: string;
}

/**
 * The review date: a stated "as of" / review date; else the document's own date (the e-mail's Date header, the
 * form's submission time, a "Submitted:" / "received" / "Date:" label); else the rules' constant. A numeric date
 * that could be read day-first or month-first takes its earlier reading (the company then looks younger).
 */
export function referenceDay(text: string, documentDate?: DocumentDate): { day: number; stated: boolean; text: string } {
  const d = labelledDay(AS_OF, text) ?? documentDate ?? labelledDay(DOC_DATE, text);
  if (d) return { day: d.day, stated: true, text: d.text };
  const [y, mo, da] = REFERENCE_DATE.split('-').map(Number);
  return { day: dayNumber(y, mo, da), stated: false, text: REFERENCE_DATE };
}

/** The first date to the day after one of the labels; numeric dates that read either way take the earlier day. */
function labelledDay(re: RegExp, text: string): DocumentDate | undefined {
  for (const m of matches(re, text)) {
    const d = firstDate(text.slice(m.index + m[0].length, m.index + m[0].length + 24));
    if (d && dayPrecise(d)) return { day: d.earliest, text: d.text };
  }
  return undefined;
}

/** A date to the day, or a numeric one that could be read either way (not a month or a year alone). */
const dayPrecise = (d: DaySpan) => d.earliest === d.latest || /\d{1,2}[./-]\d{1,2}[./-]\d{4}/.test(d.text);

/** Labels of the date a vendor document was made or received ("Submitted: 02/10/2026", "received 01/21/2026"). */
const DOC_DATE =
  /(?<![\p{L}])(?:submitted|received|opened|completed|returned|fecha(?:\s*\/\s*date)?|date)(?:\s+on)?\s*[:-]?\s*(?=\d|[A-Z][a-z]{2})/gu;

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
export function findYoungCompany(text: string, documentDate?: DocumentDate): string | undefined {
  const ref = referenceDay(text, documentDate);
  const refText = isoDay(ref.day);
  const oneYearBefore = ref.day - 365;
  let oldest: DaySpan | undefined;
  let oldestAt = 0;
  for (const m of matches(FOUNDED, text)) {
    const d = firstDate(clauseAfter(text, m.index + m[0].length, 60));
    if (d && (!oldest || d.latest < oldest.latest)) [oldest, oldestAt] = [d, m.index];
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
  if (oldest) return `founded ${oldest.text}, not shown to be 12 months old on ${refText} ("${lineOf(text, oldestAt)}")`;
  if (relMonths !== undefined) return `in business about ${Math.max(0, Math.round(relMonths))} month(s)`;
  if (NEWLY.test(text)) return 'described as newly formed';
  return undefined;
}

// ---- PO box only -------------------------------------------------------------------------------------------------

const PO_BOX = new RegExp(
  `${B}(?:p\\.?\\s?o\\.?\\s?box|post\\s+office\\s+box|postfach|post\\s+box|pob(?=\\s*\\d)|bo[iî]te\\s+postale|b\\.?p\\.?(?=\\s*\\d)|apartado(?:\\s+(?:postal|de\\s+correos))?|casilla(?:\\s+postal)?|caixa\\s+postal|postbus|postboks` +
    // A private mailbox at a mail-receiving agency ("548 Market St PMB 72914") is a rented box too.
    `|pmb|private\\s+mail\\s*box|virtual\\s+(?:mail\\s*box|mailing\\s+address|office\\s+address)|mail\\s*drop)(?:\\s*(?:no\\.?|number|#)?\\s*\\d[\\d-]*)?`,
  'giu',
);
/** Where the address a box belongs to ends: a line, a cell, a semicolon, or a sentence that starts a new label ("NV. Office:"). */
const SEGMENT_END = /\n|\t|\||;|\.\s+(?=[\p{L} ]{1,30}:)/gu;

function segmentAround(text: string, start: number, end: number): [number, number] {
  let from = 0;
  const before = text.slice(Math.max(0, start - 300), start);
  SEGMENT_END.lastIndex = 0;
  for (let m = SEGMENT_END.exec(before); m; m = SEGMENT_END.exec(before)) from = Math.max(0, start - 300) + m.index + m[0].length;
  SEGMENT_END.lastIndex = 0;
  const after = SEGMENT_END.exec(text.slice(end, end + 300));
  return [from, after ? end + after.index : Math.min(text.length, end + 300)];
}

const STREET_TYPES =
  'street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|court|ct|place|pl|plaza|square|sq|highway|hwy|parkway|pkwy|terrace|circle|cir|trail|pike|row|crescent|close|mews|walk|quay|wharf|broadway';
const STREETS = [
  new RegExp(`(?<![\\p{N}])\\d+[a-z]?(?:[-/]\\d+)?,?\\s+(?:[\\p{L}\\p{N}.'-]+\\s+){0,4}(?:${STREET_TYPES})${E}`, 'iu'),
  /(?<![\p{N}])\d+[a-z]?,?\s+(?:rue|avenue|av\.|boulevard|bd|via|viale|calle|avenida|rua|chemin|place|allee|piazza|corso|carrer)(?![\p{L}])/iu,
  /(?<![\p{L}-])[\p{L}-]*(?:strasse|straße|str\.|weg|gasse|platz|allee|ring|damm|ufer|chaussee|markt|straat|laan|gracht|plein|kade|vej|gade|gatan|vagen|katu|tie)\s*\d+/iu,
  /(?<![\p{L}])(?:rue|via|viale|calle|avenida|rua|carrer|ul\.|ulica|corso|piazza)\s+[\p{L}' -]{2,40}?,?\s*\d+/iu,
];

/**
 * An address that is someone else's premises: "c/o Registered Agents Inc.", "care of our accountant", a registered or
 * statutory agent (who receives legal papers for thousands of companies at one desk). Its street is the agent's.
 */
const CARE_OF = new RegExp(`(?<![\\p{L}\\p{N}])(?:c\\s?\\/\\s?o|\\u2105|(?:in\\s+)?care\\s+of|(?:registered|statutory|resident)\\s+agent|agent\\s+for\\s+service(?:\\s+of\\s+process)?)${E}`, 'giu');
const AGENT_BUSINESS =
  /(?<![\p{L}])(?:agents?|registered|corporat\w*|incorporat\w*|services?|formations?|filings?|law|legal|attorneys?|solicitors?|llp|cpa|accountants?|mail\w*|virtual|inc|llc|ltd|gmbh|company|corp)(?![\p{L}])/iu;
/** Lines that carry on an address block ("Address Line 2  30 N Gould St", "City  Sheridan", a bare street line). */
const ADDRESS_PART = /^\s*(?:(?:address(?:\s+line)?\s*\d?|street|suite|city(?:\s*\/\s*town)?|town|state(?:\s*\/\s*province)?|province|county|region|postal\s+code|post\s*code|zip(?:\s+code)?|country)(?![\p{L}])|[^:\t|]{1,80}$)/iu;

/** A care-of address runs from its mark over the address lines under it, to a blank line or the next field. */
function careOfSegment(text: string, at: number): [number, number] {
  const from = text.lastIndexOf('\n', at - 1) + 1;
  let to = text.indexOf('\n', at);
  for (let k = 0; k < 5 && to >= 0; k++) {
    const nl = text.indexOf('\n', to + 1);
    const line = text.slice(to + 1, nl < 0 ? text.length : nl);
    if (line.trim() === '' || !ADDRESS_PART.test(line)) break;
    to = nl;
  }
  return [from, to < 0 ? text.length : to];
}

/**
 * A box, or a care-of / agent's address, with no street address of the vendor's own anywhere else. The street of
 * the address a box sits in is the mail agency's ("548 Market St PMB 72914"), and a care-of address is the agent's,
 * so each such address is set aside whole before looking for a street.
 */
export function findPoBoxOnly(text: string): string | undefined {
  const found: { text: string; at: number; segment: [number, number]; careOf: boolean }[] = [];
  for (const m of matches(PO_BOX, text)) found.push({ text: m[0].trim(), at: m.index, segment: segmentAround(text, m.index, m.index + m[0].length), careOf: false });
  for (const m of matches(CARE_OF, text)) {
    // "c/o Jane Smith" may be a person at the vendor's own premises; care of a business (an agent, a law firm, a
    // mail service) is that business's address.
    if (/^c|^\u2105|care/i.test(m[0]) && !AGENT_BUSINESS.test(clauseAfter(text, m.index + m[0].length, 80))) continue;
    found.push({ text: lineOf(text, m.index, 60), at: m.index, segment: careOfSegment(text, m.index), careOf: true });
  }
  if (found.length === 0) return undefined;
  let rest = '';
  let last = 0;
  for (const [from, to] of found.map((f) => f.segment).sort((a, b) => a[0] - b[0])) {
    if (from >= last) rest += text.slice(last, from) + ' ';
    last = Math.max(last, to);
  }
  rest += text.slice(last);
  if (STREETS.some((re) => re.test(rest))) return undefined;
  const box = found.find((f) => !f.careOf);
  const agent = found.find((f) => f.careOf);
  const what = [box && `${box.text}`, agent && `a care-of / agent's address ("${agent.text}")`].filter(Boolean).join(' and ');
  const first = box ?? agent!;
  return `${what} with no street address${agent ? " of the vendor's own" : ''} ("${lineOf(text, first.at)}")`;
}
