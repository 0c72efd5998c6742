/**
 * Dates as written in exports, read into day numbers (days since 1970-01-01, UTC; no clock, no time zone).
 *
 * Accepted: 2026-01-05 and 2026/01/05 (a time after a space or T is ignored), 01/05/2026 and 01-05-2026 (month first
 * unless told or shown otherwise), 05.01.2026 (always day first), two-digit years (26 → 2026), "Jan 5, 2026",
 * "January 5 2026", "05 Jan 2026", "5-Jan-26", "03/Nov/2026", with month names in the languages of calendars.ts; the
 * local calendars calendars.ts reads (ROC 115/11/02, 令和8年11月2日, Buddhist 02/11/2569). Years 1900–2199; the day must
 * exist in its month.
 */

import { gregorianOf, localToIso, monthOf, MONTH_LETTERS } from './calendars.js';

export type DateOrder = 'mdy' | 'dmy';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october',
  'november', 'december'];

const ISO = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[t ].*)?$/;
/** Year, month and day as Japanese, Chinese and Korean write them: 2026年10月1日, 2026년 10월 1일. */
const CJK = /^(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]?(?:\s.*)?$/;
const YEAR_LAST = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?:[t ].*)?$/;
const MONTH_FIRST = new RegExp(`^(${MONTH_LETTERS})\\.?[ -](\\d{1,2})(?:st|nd|rd|th)?,? ?(\\d{4})$`);
/** 05 Jan 2026, 5-Jan-26, 03/Nov/2026 (Aspel, Citibanamex), 3 de noviembre de 2026, 2. listopada 2026. */
const DAY_FIRST = new RegExp(`^(\\d{1,2})(?:st|nd|rd|th|\\.)?(?: de)?[ /-](${MONTH_LETTERS})\\.?,?(?: de)?[ /-](\\d{4}|\\d{2})$`);

/**
 * Reads a column of dates. Numeric year-last dates follow one order for the whole column: day first if any cell
 * has a first number above 12, month first if any has a second number above 12, else `order`. Returns per cell a
 * day number, undefined (unreadable), or an error message (the column mixes both orders).
 */
export function dayNumberOf(texts: string[], order: DateOrder): (number | string | undefined)[] {
  let dayFirstRow = 0;
  let monthFirstRow = 0;
  texts.forEach((t, k) => {
    const m = YEAR_LAST.exec(clean(t));
    if (!m || m[2] === '.') return;
    if (Number(m[1]) > 12 && !dayFirstRow) dayFirstRow = k + 1;
    if (Number(m[3]) > 12 && !monthFirstRow) monthFirstRow = k + 1;
  });
  if (dayFirstRow && monthFirstRow) {
    const message = `dates mix day-first (row ${dayFirstRow}) and month-first (row ${monthFirstRow}) forms`;
    return texts.map(() => message);
  }
  const columnOrder: DateOrder = dayFirstRow ? 'dmy' : monthFirstRow ? 'mdy' : order;
  return texts.map((t) => readDate(t, columnOrder));
}

export function readDate(text: string, order: DateOrder): number | undefined {
  // A local calendar's year (ROC 115/11/02, 令和8年11月2日) is read as the Gregorian date it is.
  const s = clean(localToIso(text) ?? text);
  if (s.length === 0 || s.length > 40) return undefined;
  let m = ISO.exec(s) ?? CJK.exec(s);
  if (m) return dayNumber(Number(m[1]), Number(m[2]), Number(m[3]));
  m = YEAR_LAST.exec(s);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[3])];
    const dayFirst = m[2] === '.' || order === 'dmy';
    return dayNumber(year(m[4]), dayFirst ? b : a, dayFirst ? a : b);
  }
  m = MONTH_FIRST.exec(s);
  if (m) return dayNumber(Number(m[3]), month(m[1]), Number(m[2]));
  m = DAY_FIRST.exec(s);
  if (m) return dayNumber(year(m[3]), month(m[2]), Number(m[1]));
  return undefined;
}

/** Day number → "YYYY-MM-DD". */
export function isoDate(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

const clean = (t: string) => t.trim().toLowerCase().replace(/\s+/g, ' ');
const year = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

/** "jan", "sept", "december", "dic", "août" → 1-based month; 0 when not a month. */
const month = monthOf;

function dayNumber(year: number, m: number, d: number): number | undefined {
  // A Thai statement's Buddhist year (2569) is the Gregorian year plus 543.
  const y = gregorianOf(year);
  if (y < 1900 || y > 2199 || m < 1 || m > 12 || d < 1) return undefined;
  const days = Date.UTC(y, m - 1, d) / 86_400_000;
  // Date.UTC rolls 31 Feb into March; the day exists only if it round-trips.
  return new Date(days * 86_400_000).getUTCDate() === d ? days : undefined;
}

/** "20260330" (the compact form of bank files) → "2026-03-30"; anything else unchanged. */
export const expandCompactDate = (text: string) => text.trim().replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3');

export interface DateOrderEvidence {
  /** What the dates themselves settle: a first number above 12 (day first) or a second one (month first). */
  order?: DateOrder;
  /** A date such as 09/03/2026 that reads differently in the two orders (and nothing settled which). */
  ambiguous?: string;
  /** Both orders proven: the rows that prove each. */
  conflict?: string;
  /** Some dates are written in a form that is unambiguous by itself (ISO, a month name, dotted day first). */
  formal?: boolean;
}

/** What a set of numeric year-last dates (slash or dash; dotted dates are always day first) says about their order. */
export function dateOrderEvidence(texts: Iterable<string>): DateOrderEvidence {
  let dayFirst: string | undefined;
  let monthFirst: string | undefined;
  let ambiguous: string | undefined;
  let formal = false;
  for (const t of texts) {
    const m = YEAR_LAST.exec(clean(t));
    if (!m || m[2] === '.') {
      formal ||= t.trim() !== '' && readDate(expandCompactDate(t), 'mdy') !== undefined;
      continue;
    }
    const [a, b] = [Number(m[1]), Number(m[3])];
    if (a > 12) dayFirst ??= t.trim();
    else if (b > 12) monthFirst ??= t.trim();
    else if (a !== b) ambiguous ??= t.trim();
  }
  if (dayFirst && monthFirst) return { conflict: `dates mix day-first (${dayFirst}) and month-first (${monthFirst}) forms` };
  const form = formal ? { formal } : {};
  if (dayFirst) return { order: 'dmy', ...form };
  if (monthFirst) return { order: 'mdy', ...form };
  return ambiguous ? { ambiguous, ...form } : form;
}

const MONTH_WORD = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
/** A date printed without its year: "03/02", "02.04." (German statements), "3 Feb", "Feb 3". */
export const YEARLESS = new RegExp(`^(?:\\d{1,2}[/-]\\d{1,2}|\\d{1,2}\\.\\d{1,2}\\.?|\\d{1,2}[ -]${MONTH_WORD}|${MONTH_WORD} \\d{1,2})$`, 'i');
const YEAR = '((?:19|20)\\d{2})';
const FULL_DATE = new RegExp(`(?:\\b(?:\\d{1,2}[/.-]\\d{1,2}[/.-]${YEAR}|${YEAR}[-/.]\\d{1,2}[-/.]\\d{1,2}|\\d{1,2} ${MONTH_WORD} ${YEAR}|${MONTH_WORD} \\d{1,2},? ${YEAR})\\b|${YEAR}\\s*[年년]\\s*\\d{1,2}\\s*[月월])`, 'gi');
const COMPACT_DATE = /(?<![\d.,])((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?![\d.,])/g;
const SHORT_MONTHS = MONTHS.map((m) => m.slice(0, 3));

/**
 * The year of a document's dates printed without one ("03/02", "01 Oct"), from the full dates it prints elsewhere
 * (its period, its heading): when every full date is of one year, that year; over a turn of the year (two running
 * years), July–December take the first and January–June the second when the date's possible months agree; else
 * undefined (the year cannot be told).
 */
export function yearsOf(text: string): (date: string) => number | undefined {
  let found = [...text.matchAll(FULL_DATE)].map((m) => Number(m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]));
  // A document printing its period only in the compact form of bank and ledger files (DATEV's 20261001;20261031).
  if (found.length === 0) found = [...text.matchAll(COMPACT_DATE)].map((m) => Number(m[1]));
  const years = [...new Set(found)].sort();
  return (date) => {
    if (years.length === 1) return years[0];
    if (years.length !== 2 || years[1] !== years[0] + 1) return undefined;
    const named = /[a-z]{3}/i.exec(date);
    const months = named ? [SHORT_MONTHS.indexOf(named[0].toLowerCase()) + 1] : date.split(/[/.-]/).map(Number).filter((n) => n >= 1 && n <= 12);
    if (months.length > 0 && months.every((m) => m >= 7)) return years[0];
    if (months.length > 0 && months.every((m) => m <= 6)) return years[1];
    return undefined;
  };
}

/** A yearless date written out with its year: "03/02" → "03/02/2026", "01 Oct" → "01 Oct 2026", "Oct 1" → "Oct 1, 2026". */
export const withYear = (date: string, year: number) => {
  if (/^[a-z]/i.test(date)) return `${date}, ${year}`;
  const d = date.replace(/\.$/, '');
  return `${d}${/[/.-]/.test(d) ? d.match(/[/.-]/)![0] : ' '}${year}`;
};

/** Day numbers of the dates a text prints in a form that is unambiguous by itself (ISO, compact, dotted day first). */
export function formalDays(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/(?<![\d.,])((?:19|20)\d{2})-?(0[1-9]|1[0-2])-?(0[1-9]|[12]\d|3[01])(?![\d.,])/g)) out.push(dayNumber(+m[1], +m[2], +m[3]) ?? NaN);
  for (const m of text.matchAll(/\b(\d{1,2})\.(\d{1,2})\.((?:19|20)\d{2})\b/g)) out.push(dayNumber(+m[3], +m[2], +m[1]) ?? NaN);
  return out.filter((d) => !Number.isNaN(d));
}
