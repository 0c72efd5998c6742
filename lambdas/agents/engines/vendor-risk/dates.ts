/**
 * The dates a vendor profile states, as the span of days each can mean, in the forms the registers and portals of
 * the vendors' countries print them: ISO and numeric day/month/year, English month names, the month names of the
 * forms' other languages ("14 de julho de 2026", "14 lipca 2026", "12 Mart 1997", "3. März 2021"), the East Asian
 * year-month-day with its unit characters ("2009년 03월 16일", "2009年3月16日") and the dotted year-first form
 * ("2009.04.02", "2009. 3. 16."). The text is already in the normal form of text.ts (accents stripped, Hangul
 * decomposed), so the unit characters are matched in that form too.
 */
import { ERA_FIRST_YEAR, MONTH_NAMES } from '../text/calendars.js';

const B = '(?<![\\p{L}\\p{N}_])';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';

/** A stated date as the span of days it can mean: a year alone is 1 Jan..31 Dec, a month its first..last day. */
export interface DaySpan {
  earliest: number;
  latest: number;
  /** As written in the profile, for the flag text. */
  text: string;
}

/** Days since 1970-01-01 of a calendar date (UTC arithmetic, no clock involved). */
export function dayNumber(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / 86_400_000);
}

function lastDay(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validYear(y: number): boolean {
  return y >= 1800 && y <= 2199;
}

function span(text: string, year: number, month?: number, day?: number): DaySpan | undefined {
  if (!validYear(year)) return undefined;
  if (month !== undefined && (month < 1 || month > 12)) return undefined;
  if (day !== undefined && month !== undefined && (day < 1 || day > lastDay(year, month))) return undefined;
  if (month === undefined) return { earliest: dayNumber(year, 1, 1), latest: dayNumber(year, 12, 31), text };
  if (day === undefined) return { earliest: dayNumber(year, month, 1), latest: dayNumber(year, month, lastDay(year, month)), text };
  const d = dayNumber(year, month, day);
  return { earliest: d, latest: d, text };
}

const monthOf = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;

/**
 * Month names of the forms' other languages: the shared list (../text/calendars.ts; its English names are read by
 * the forms above first). The profile's normal form keeps Turkish ı (text.ts folds accents only), so an i of a name
 * matches either letter ("mayıs", "kasım", "aralık").
 */
const FOREIGN_MONTH_OF = new Map(MONTH_NAMES.flatMap((names, i) => names.map((n) => [n, i + 1] as const)));
const FOREIGN = `(${[...FOREIGN_MONTH_OF.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/i/g, '[iı]')).join('|')})`;
const E = '(?![\\p{L}])';
const foreignMonth = (name: string) => FOREIGN_MONTH_OF.get(name.toLowerCase().replace(/ı/g, 'i')) ?? 0;
/** The East Asian unit characters as the normal form writes them (Hangul syllables decomposed, as NFD does). */
const [YEAR_UNIT, MONTH_UNIT, DAY_UNIT] = [['年', '년'], ['月', '월'], ['日', '일']].map((u) => `(?:${u.map((c) => c.normalize('NFD')).join('|')})`);

/**
 * Date forms, most precise first; the first one found (by position) in the text wins. Numeric d/m/y that could be
 * either day-first or month-first spans both readings.
 */
const DATE_FORMS: { re: RegExp; read: (m: RegExpExecArray) => DaySpan | undefined }[] = [
  { re: new RegExp(`(?<!\\d)(\\d{4})([-/])(\\d{1,2})(?:\\2(\\d{1,2}))?(?!\\d)`, 'iu'), read: (m) => span(m[0], +m[1], +m[3], m[4] ? +m[4] : undefined) },
  {
    re: /(?<![\d-])(\d{1,2})([./-])(\d{1,2})\2(\d{4})(?!\d)/u,
    read: (m) => {
      const a = span(m[0], +m[4], +m[3], +m[1]);
      const b = span(m[0], +m[4], +m[1], +m[3]);
      if (!a || !b) return a ?? b;
      return { earliest: Math.min(a.earliest, b.earliest), latest: Math.max(a.latest, b.latest), text: m[0] };
    },
  },
  { re: new RegExp(`(?<!\\d)(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})(?!\\d)`, 'iu'), read: (m) => span(m[0], +m[3], monthOf(m[2]), +m[1]) },
  { re: new RegExp(`${B}${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})(?!\\d)`, 'iu'), read: (m) => span(m[0], +m[3], monthOf(m[1]), +m[2]) },
  { re: new RegExp(`${B}${MONTH},?\\s+(\\d{4})(?!\\d)`, 'iu'), read: (m) => span(m[0], +m[2], monthOf(m[1])) },
  { re: /(?<![\d/.])(\d{1,2})\/(\d{4})(?![\d/])/u, read: (m) => span(m[0], +m[2], +m[1]) },
  {
    re: new RegExp(`(?<!\\d)(\\d{1,2})\\.?\\s+(?:de\\s+)?${FOREIGN}${E}\\.?,?\\s+(?:de\\s+|del\\s+)?(\\d{4})(?!\\d)`, 'iu'),
    read: (m) => span(m[0], +m[3], foreignMonth(m[2]), +m[1]),
  },
  {
    // A Japanese era year (令和6年4月1日 is 2024, 平成, 昭和; 元年 its first) or a Taiwanese Minguo year (民國115年 is 2026).
    re: new RegExp(`(令和|平成|昭和|民國|民国)\\s*(\\d{1,3}|元)\\s*${YEAR_UNIT}(?:\\s*(\\d{1,2})\\s*${MONTH_UNIT}(?:\\s*(\\d{1,2})\\s*${DAY_UNIT})?)?`, 'u'),
    read: (m) => span(m[0], ERA_FIRST_YEAR[m[1]] + (m[2] === '元' ? 1 : +m[2]) - 1, m[3] ? +m[3] : undefined, m[4] ? +m[4] : undefined),
  },
  {
    re: new RegExp(`(?<!\\d)(\\d{4})\\s*${YEAR_UNIT}\\s*(\\d{1,2})\\s*${MONTH_UNIT}(?:\\s*(\\d{1,2})\\s*${DAY_UNIT})?`, 'u'),
    read: (m) => span(m[0], +m[1], +m[2], m[3] ? +m[3] : undefined),
  },
  { re: /(?<![\d.])(\d{4})\.\s?(\d{1,2})\.\s?(\d{1,2})(?!\d|\.\d)/u, read: (m) => span(m[0], +m[1], +m[2], +m[3]) },
  { re: new RegExp(`${B}${FOREIGN}${E}\\.?,?\\s+(?:de\\s+|del\\s+)?(\\d{4})(?!\\d)`, 'iu'), read: (m) => span(m[0], +m[2], foreignMonth(m[1])) },
  { re: new RegExp(`(?<!\\d)(\\d{4})\\s*${YEAR_UNIT}`, 'u'), read: (m) => span(m[0], +m[1]) },
  { re: /(?<![\d.,/#-])(1[89]\d{2}|2[01]\d{2})(?![\d,]|\.\d)/u, read: (m) => span(m[0], +m[1]) },
];

/** The first date stated in `text`, by position. */
export function firstDate(text: string, exactOnly = false): DaySpan | undefined {
  let best: { index: number; span: DaySpan } | undefined;
  for (const form of DATE_FORMS) {
    const m = form.re.exec(text);
    if (!m || (best && m.index >= best.index)) continue;
    const s = form.read(m);
    if (s && (!exactOnly || s.earliest === s.latest)) best = { index: m.index, span: s };
  }
  return best?.span;
}

export function isoDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}
