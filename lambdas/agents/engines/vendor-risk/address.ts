/**
 * Rule 5 of RULES.md, PO box only address: a box or someone else's address (a mail agency's, a registered agent's)
 * with no street address of the vendor's own.
 */
import { B, E, clauseAfter, lineOf, matches, type Finding } from './text.js';

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
export function findPoBoxOnly(text: string): Finding | undefined {
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
  return { detail: `${what} with no street address${agent ? " of the vendor's own" : ''} ("${lineOf(text, first.at)}")`, at: first.at };
}
