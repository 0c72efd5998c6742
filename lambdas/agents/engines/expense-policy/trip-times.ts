/**
 * When the trip began and ended, as a report's head states it once ("Beginn: Mo, 11.11.2024, 09:00 Uhr", "Ende: Mi,
 * 13.11.2024, 18:30 Uhr"; "Viaje: salida lunes 21/10/2024 08:00 — llegada miércoles 23/10/2024 13:30"; "Wyjazd:
 * 06.11.2024 godz. 06:30", "Przyjazd: 08.11.2024 godz. 11:00"; "Reisebeginn: 06.10.2025 07:10"; "出発: 2026/10/21
 * 07:10", "帰着: 2026/10/22 19:40"), or a day's own line ("partida Aveiro 07:30", "chegada Aveiro 19:00", "Departed
 * 07:40, returned 18:55"). A reviewer works out each allowance day's hours away from them: the first day from the
 * departure to midnight, the last from midnight to the return, a day between them whole, a trip of one day from the
 * departure to the return. Each per-diem item of a dated day gets its absence (`Item.absence`), the times cited, for
 * the rates that depend on the hours; where its own line states times, those are the day's.
 */
import type { Item } from './expense.js';

/** The words a report labels the trip's start and its end by, in the languages of the tools. */
const START = /(?<![\p{L}])(?:reisebeginn|beginn|abfahrt|salida|partida|départ|depart(?:ure|ed)?|wyjazd|partenza|vertrek|avresa|lähtö|odjezd|kalkış|keberangkatan|khởi hành|start of travel|trip start|出発|出发|출발)(?![\p{L}])/iu;
const END = /(?<![\p{L}])(?:reiseende|ende|rückkehr|ankunft zu hause|llegada|regreso|chegada|regresso|retour|return(?:ed)?|przyjazd|powrót|rientro|terugkomst|hemkomst|paluu|návrat|dönüş|kepulangan|trở về|end of travel|trip end|帰着|帰社|返回|귀환|도착)(?![\p{L}])/iu;
const WHEN = /(\d{1,4})[./-](\d{1,2})[./-](\d{2,4})\D{0,20}?(\d{1,2})[:h.](\d{2})/;

export interface Moment {
  /** Day number (days since 1970-01-01) and minutes after midnight. */
  day: number;
  minutes: number;
  text: string;
  line: number;
}

/** The trip's start and end as its head states them (each with a date and a time), or undefined. */
export function tripTimes(text: string, dayFirst = true): { start?: Moment; end?: Moment } {
  const lines = text.split(/\r\n|\r|\n/).slice(0, 80);
  const out: { start?: Moment; end?: Moment } = {};
  lines.forEach((line, k) => {
    // A head's labelled field: the label, then its date and time ("Beginn:  Mo, 11.11.2024, 09:00 Uhr").
    for (const [which, re] of [['start', START], ['end', END]] as const) {
      if (out[which]) continue;
      const label = re.exec(line);
      if (!label) continue;
      const m = WHEN.exec(line.slice(label.index));
      if (!m) continue;
      const day = dayOf(m, dayFirst);
      if (day === undefined) continue;
      out[which] = { day, minutes: Number(m[4]) * 60 + Number(m[5]), text: line.slice(label.index, label.index + m.index + m[0].length).trim().replace(/\s+/g, ' '), line: k + 1 };
    }
  });
  return out;
}

function dayOf(m: RegExpExecArray, dayFirst: boolean): number | undefined {
  const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [y, mo, d] = a > 31 ? [a, b, c] : [c < 100 ? 2000 + c : c, dayFirst ? b : a, dayFirst ? a : b];
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return undefined;
  return Date.UTC(y, mo - 1, d) / 86_400_000;
}

/** Each dated per-diem item's hours away, from the trip's head when its own line states no times. */
export function absences(items: Item[], text: string, dayFirst = true): void {
  const { start, end } = tripTimes(text, dayFirst);
  if (!start || !end || end.day < start.day || end.day - start.day > 60) return;
  const cite = (c: Moment) => ({ field: 'expense' as const, line: c.line, quote: c.text });
  const allowances = items.filter((i) => i.category === 'per diem');
  // One allowance for the whole trip (a delegacja's "Dieta do wypłaty"): its absence is the whole trip's.
  if (allowances.length === 1 && allowances[0].date === undefined && !allowances[0].absence) {
    allowances[0].absence = {
      minutes: (end.day - start.day) * 24 * 60 + end.minutes - start.minutes,
      back: end.minutes,
      how: `${start.text} to ${end.text}`,
      at: [cite(start), cite(end)],
    };
    return;
  }
  for (const item of allowances) {
    if (item.date === undefined || item.absence) continue;
    const day = Date.parse(`${item.date}T00:00:00Z`) / 86_400_000;
    if (day < start.day || day > end.day) continue;
    const from = day === start.day ? start.minutes : 0;
    const to = day === end.day ? end.minutes : 24 * 60;
    const cited = [day === start.day ? start : undefined, day === end.day ? end : undefined].filter((x): x is Moment => x !== undefined);
    item.absence = {
      minutes: Math.max(0, to - from),
      back: day === end.day ? end.minutes : undefined,
      how: cited.length > 0 ? cited.map((c) => c.text).join('; ') : 'a whole day between the departure and the return',
      at: cited.map(cite),
    };
  }
}
