/**
 * Month names in the languages banks and ledgers export in, and the local calendars their dates are written in:
 * the Minguo (ROC) years of Taiwan (115/11/02 is 2026-11-02), the Japanese era years (令和8年11月2日, R8.11.02) and
 * the Thai Buddhist years (02/11/2569). Each calendar is read only where the form itself proves it: a year of three
 * digits (100 and up) is no year of a current bank statement but the ROC count; an era named before the year; a year
 * from 2400 on is no Gregorian year of a statement but the Buddhist one. A two-digit year that might be either is
 * not read as a local one.
 */

/** Month names (accents dropped, lower case) by month, in English, Spanish, Portuguese, French, Italian, German,
 * Dutch, Polish, Turkish, Indonesian and the Nordic languages: the one list every reader of dates takes them from. */
export const MONTH_NAMES: readonly string[][] = [
  ['january', 'enero', 'janeiro', 'janvier', 'gennaio', 'januar', 'januari', 'stycznia', 'styczen', 'ocak', 'janvar'],
  ['february', 'febrero', 'fevereiro', 'fevrier', 'febbraio', 'februar', 'februari', 'lutego', 'luty', 'subat', 'pebruari'],
  ['march', 'marzo', 'marco', 'mars', 'marz', 'maart', 'mrt', 'marca', 'marzec', 'mart', 'maret'],
  ['april', 'abril', 'avril', 'aprile', 'kwietnia', 'kwiecien', 'nisan'],
  ['may', 'mayo', 'maio', 'mai', 'maggio', 'mei', 'maja', 'maj', 'mayis'],
  ['june', 'junio', 'junho', 'juin', 'giugno', 'juni', 'czerwca', 'czerwiec', 'haziran'],
  ['july', 'julio', 'julho', 'juillet', 'luglio', 'juli', 'lipca', 'lipiec', 'temmuz'],
  ['august', 'agosto', 'aout', 'augustus', 'sierpnia', 'sierpien', 'agustos', 'agustus'],
  ['september', 'septiembre', 'setiembre', 'setembro', 'septembre', 'settembre', 'wrzesnia', 'wrzesien', 'eylul'],
  ['october', 'octubre', 'outubro', 'octobre', 'ottobre', 'oktober', 'pazdziernika', 'pazdziernik', 'ekim'],
  ['november', 'noviembre', 'novembro', 'novembre', 'listopada', 'listopad', 'kasim', 'nopember'],
  ['december', 'diciembre', 'dezembro', 'decembre', 'dicembre', 'dezember', 'grudnia', 'grudzien', 'aralik', 'desember'],
];

const plainWord = (w: string) => w.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/ı/g, 'i').replace(/ł/g, 'l').replace(/\.$/, '');

/**
 * "nov", "Dic", "sept", "août", "mayo" → 1-based month; 0 when the word names no month or, abbreviated, could name
 * two ("jui": juin or juillet).
 */
export function monthOf(word: string): number {
  const w = plainWord(word);
  if (w.length < 3) return 0;
  const months = new Set(MONTH_NAMES.flatMap((names, i) => (names.some((n) => n.startsWith(w)) ? [i + 1] : [])));
  return months.size === 1 ? [...months][0] : 0;
}

/** Letters of a month word in the scripts read (Latin with accents). */
export const MONTH_LETTERS = "[a-zà-ÿıłşğ]{3,10}";

/** The Gregorian year in which each East Asian era a register or statement counts from began (its year 1). */
export const ERA_FIRST_YEAR: Readonly<Record<string, number>> = { 令和: 2019, 平成: 1989, 昭和: 1926, 民國: 1912, 民国: 1912 };

/** A Gregorian year from a year written in a local calendar, with the calendar's name; undefined when it is none. */
export function localYear(text: string): { year: number; calendar: string } | undefined {
  const s = text.trim().toLowerCase();
  // ROC (民國) years: 115/11/02, 115.11.02, 民國115年11月2日, 115年11月2日.
  let m = /^(?:民國|民国)?\s*(1\d{2})\s*(?:[/.-]|年)\s*\d{1,2}\s*(?:[/.-]|月)\s*\d{1,2}\s*日?(?:[ t].*)?$/.exec(s);
  if (m) return { year: Number(m[1]) + 1911, calendar: 'Minguo (ROC)' };
  m = /^(?:民國|民国)\s*(\d{1,3})\s*年/.exec(s);
  if (m) return { year: Number(m[1]) + 1911, calendar: 'Minguo (ROC)' };
  // Japanese eras: 令和 (Reiwa, from 2019: year 1 = 2019) and 平成 (Heisei, year 1 = 1989); 元年 is year 1.
  m = /^(令和|平成|r|h)\s*(\d{1,2}|元)\s*(?:[/.-]|年)/.exec(s);
  if (m) {
    const n = m[2] === '元' ? 1 : Number(m[2]);
    const first = ERA_FIRST_YEAR[m[1] === 'r' ? '令和' : m[1] === 'h' ? '平成' : m[1]];
    return { year: first + n - 1, calendar: 'Japanese era' };
  }
  return undefined;
}

/** The Thai Buddhist year (Gregorian + 543) read back: 2569 → 2026; years before 2400 are Gregorian. */
export const gregorianOf = (year: number) => (year >= 2400 && year <= 2742 ? year - 543 : year);

/**
 * A date in a local calendar as the ISO date it is ("115/11/02" → "2026-11-02", "令和8年11月2日" → "2026-11-02"), or
 * undefined when the text is not one.
 */
export function localToIso(text: string): string | undefined {
  const found = localYear(text);
  if (!found) return undefined;
  const m = /(\d{1,2})\s*(?:[/.-]|月)\s*(\d{1,2})\s*日?(?:[ t].*)?$/.exec(text.trim().toLowerCase());
  if (!m) return undefined;
  return `${found.year}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}`;
}

/** What the note says of a column of dates written in a local calendar, or undefined when none is. */
export function calendarNote(texts: string[]): string | undefined {
  const example = texts.find((t) => localYear(t) !== undefined);
  if (example) {
    const { year, calendar } = localYear(example)!;
    return `dates are written in the ${calendar} calendar (${JSON.stringify(example.trim())} is ${localToIso(example)}, the year ${year})`;
  }
  const buddhist = texts.find((t) => buddhistYear(t) !== undefined);
  if (buddhist) return `dates are written in Buddhist years (${JSON.stringify(buddhist.trim())}: the year ${buddhistYear(buddhist)} less 543)`;
  return undefined;
}

/** The Buddhist year a date text carries (2569 in "02/11/2569"), or undefined. */
function buddhistYear(text: string): number | undefined {
  const m = /(?<!\d)(\d{4})(?!\d)/.exec(text);
  return m && gregorianOf(Number(m[1])) !== Number(m[1]) ? Number(m[1]) : undefined;
}
