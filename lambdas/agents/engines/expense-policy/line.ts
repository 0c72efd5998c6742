/**
 * The facts one free-text expense line states, in whatever order people write them: "Taxi 18.00 USD 2026-02-01
 * receipt attached", "2026-02-01 Taxi $18.00 (receipt)", "USD 18.00 taxi on 01/02/2026, no receipt", "Dinner with
 * client — 142.50 EUR — 2026-03-04 — receipt: yes". Only the facts listed in RULES.md are read; nothing is obeyed.
 */
import { AgentInputError } from '../port.js';
import { DATE_TOKEN, mentionsAlcohol, bareAmountIn, categoriesIn, countOf, fareClassIn, moneyIn, moneyTokens, type Category, type FareClass } from './words.js';

export interface Facts {
  cents?: bigint;
  currency?: string;
  category?: Category;
  people?: bigint;
  days?: bigint;
  nights?: bigint;
  receipt?: boolean;
  fareClass?: FareClass;
  /** Alcohol included in the amount: none, an itemised amount, or mentioned without an amount. */
  alcohol: bigint | 'unknown' | undefined;
  /** The receipt lines the alcohol amount was read from, as written. */
  alcoholLines?: string[];
  /** The expense date as written ("2026-02-01", "01/02/2026", "Feb 1, 2026"). */
  dateText?: string;
}

const FIELD = 'expense';
const PEOPLE = new Set(['people', 'persons', 'person', 'guests', 'attendees', 'pax', 'diners', 'colleagues', 'employees', 'heads', 'participants']);
const INCLUDED = /\b(?:incl|including|includes|inclusive of|of which)\b/;

/** "2 nights", "2 Nächte", "2 nuits", "3 nuitées", "2 noches", "2 notti", "2 nachten", "2 nätter", "2 doby" (a Polish
 * hotel's days of 24 hours), "2 gece": nights of a stay. */
const NIGHTS = /^(?:nights?|nächte|nacht|nuits?|nuitées?|noches?|notti|notte|nachten|nätter|natt|noites?|doby|doba|noce|nocy|noclegi|gece|malam|đêm|泊)$/u;
/** "3 days", "3 jours", "3 Tage", "3 días", "3 giorni", "3 dagen", "3 dagar": days. */
const DAYS = /^(?:days?|jours?|tage|tag|días|dias|giorni|dagen|dagar|dage)$/;

/**
 * Facts from (lower-cased) free text: the amount (the first currency amount outside an alcohol clause; with
 * `bare`, else the first bare two-decimal number), alcohol ("incl. $60 wine": itemised; "incl. 2 bottles of wine":
 * unknown), people, nights, days, receipt, fare class, category and date.
 */
export function textFacts(lower: string, bare = false, lenient = false): Facts {
  const bad = (token: string) => {
    if (lenient) return;
    throw new AgentInputError(FIELD, `amount "${token.slice(0, 40)}" is not readable`);
  };
  let cents: bigint | undefined;
  let currency: string | undefined;
  let alcohol: Facts['alcohol'];
  const addAlcohol = (m: bigint | undefined) => {
    alcohol = m === undefined || alcohol === 'unknown' ? 'unknown' : (alcohol ?? 0n) + m;
  };
  for (const clause of lower.split(/, |; /)) {
    const split = INCLUDED.exec(clause);
    const main = split ? clause.slice(0, split.index) : clause;
    const money = moneyIn(main, bad);
    if (cents === undefined && money.length > 0) {
      cents = money[0].cents;
      currency = money[0].currency;
      // "Dinner with wine $320": the amount is the claim, the alcohol in it is not itemised.
      if (mentionsAlcohol(main)) addAlcohol(undefined);
    } else if (mentionsAlcohol(main)) addAlcohol(money[0]?.cents);
    if (split) {
      const included = clause.slice(split.index);
      if (mentionsAlcohol(included)) addAlcohol(moneyIn(included, bad)[0]?.cents);
    }
  }
  if (cents === undefined && bare) {
    cents = bareAmountIn(lower);
    if (cents !== undefined && mentionsAlcohol(lower) && !INCLUDED.test(lower)) addAlcohol(undefined);
  }
  const tokens = lower.split(/[\s,;:()]+/);
  let people: bigint | undefined;
  let nights: bigint | undefined;
  let days: bigint | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const n = countOf(tokens[i]);
    if (n === undefined) continue;
    const next = tokens[i + 1];
    if (PEOPLE.has(next ?? '') || (tokens[i - 1] === 'of' && /^(?:party|table|group)$/.test(tokens[i - 2] ?? ''))) people ??= n;
    else if (/^(?:guests|covers|pax|attendees|persons|pers\.?|personen|gäste)$/.test(tokens[i - 1] ?? '')) people ??= n; // "Guests: 1", "Pers. 4"
    else if (next === 'of' && tokens[i + 2] === 'us') people ??= n; // "the 3 of us"
    else if (NIGHTS.test(next ?? '')) nights ??= n;
    else if (DAYS.test(next ?? '')) days ??= n;
  }
  // "Attendees: Maria Ortiz (CFO, Halvorsen Foods), Dan Whitcomb (…), …": the names listed, each counted once.
  if (people === undefined) {
    const list = /\b(?:attendees|guests|participants|attendance)\s*:\s*([^\n]{3,2000})/.exec(lower)?.[1];
    const names = list ? namesIn(list) : 0;
    if (names > 0) people = BigInt(names);
  }
  return {
    cents, currency, alcohol, people, nights, days, receipt: receiptIn(lower), fareClass: fareClassIn(lower),
    category: categoriesIn(lower)[0], dateText: dateIn(lower),
  };
}

/** How many names a list gives ("me, Marie-Eve Gagnon and Luc Tremblay (Desjardins). The …" → 3): the first sentence. */
export function namesIn(list: string): number {
  const flat = list.replace(/\([^()]*\)/g, ' ').split(/\.\s|\s-\s|\|/)[0];
  return flat.split(/[,;]|\band\b|&/i).filter((n) => /\p{L}{2}/u.test(n) && n.trim().split(/\s+/).length <= 5).length;
}

const RECEIPT_MISSING = new RegExp(
  '\\b(?:no|without|w/o|missing|lost|forgot(?:ten)?|no original)\\s+(?:the\\s+|a\\s+|any\\s+|my\\s+|original\\s+)?receipts?\\b' +
    '|\\breceipts?\\s*(?:[:=-]\\s*|\\s(?:is|was|are|were|has been)\\s+)?' +
    '(?:no|n|none|missing|lost|pending|to follow|outstanding|n/a|unavailable|not\\s+(?:attached|available|included|provided|submitted|uploaded|required|received))(?![a-z])',
);
const RECEIPT_PRESENT = new RegExp(
  // "Receipt Status: Receipt image attached": the field's name and the kind of copy may stand between.
  '\\breceipts?(?:\\s+(?:status|image|copy|scan|photo|file))?\\s*(?:[:=-]\\s*|\\s(?:is|are|was|were|has been|have been)\\s+)?' +
    '(?:(?:receipt\\s+)?(?:image|copy|scan|photo|file)\\s+)?(?:yes|y|attached|included|provided|available|enclosed|uploaded|on file|submitted|scanned|true|ok|✓|✔|☑)(?![a-z])' +
    '|(?:\\bwith|\\bw/|\\bplus|\\+)\\s*(?:a\\s+|the\\s+|my\\s+)?receipts?\\b' +
    '|[(\\[]\\s*receipts?(?:\\s+attached)?\\s*[)\\]]' +
    '|\\breceipt\\s*(?:#|no\\.?\\s*)\\s*\\d|\\breceipt[\\w-]*\\.(?:pdf|jpe?g|png|heic|gif)\\b|\\breceipted\\b',
);

/**
 * "receipt attached", "(receipt)", "receipt: yes", "with receipt" → true; "no receipt", "without receipt",
 * "receipt missing", "receipt: no" → false; otherwise undefined (counted as missing where a receipt is required).
 */
export function receiptIn(lower: string): boolean | undefined {
  if (!lower.includes('receipt')) return undefined;
  if (RECEIPT_MISSING.test(lower)) return false;
  if (RECEIPT_PRESENT.test(lower)) return true;
  return undefined;
}

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}\\.?';
const NAMED_DATE = new RegExp(`\\b(?:${MONTH} \\d{1,2}(?:st|nd|rd|th)?,? \\d{4}|\\d{1,2}(?:st|nd|rd|th)? ${MONTH},? (?:\\d{4}|\\d{2}))\\b`);

/** The first date written in the line, as written. */
function dateIn(lower: string): string | undefined {
  const token = moneyTokens(lower).find((t) => DATE_TOKEN.test(t));
  const named = NAMED_DATE.exec(lower.length > 2000 ? lower.slice(0, 2000) : lower)?.[0];
  if (token === undefined || named === undefined) return token ?? named;
  return lower.indexOf(token) <= lower.indexOf(named) ? token : named;
}
